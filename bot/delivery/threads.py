"""Where a group's thread items go (bot/services/group_threads.py):
the group's thread, made in the announcements channel by its first item, and
recorded. A thread made just before a stop, but not recorded, is found among
the server's active threads (asked of Discord: the gateway's cache may not
hold them yet) by its name and taken, not made twice."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.delivery.outgoing import Outgoing
from bot.models import OutboxItem
from bot.services import group_threads

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

log = logging.getLogger(__name__)
ARCHIVE_AFTER: Literal[1440] = 1440  # minutes without a message before it is hidden
# Discord's thread types: in an announcement channel a thread is an announcement thread.
NEWS_THREAD: Literal[10] = 10
PUBLIC_THREAD: Literal[11] = 11


class NoThread(Exception):
    """The group has no thread to post in (it was never made)."""


async def destination(bot: LeagueClient, item: OutboxItem, outgoing: Outgoing) -> Any:
    group = group_threads.group_of(item)
    if group is None:
        raise NoThread("not a group's thread")
    thread_id = await group_threads.thread_of(bot.db, item.guild_id, group)
    if thread_id is None:
        if outgoing.thread is None:
            raise NoThread("the group's thread was never made")
        thread_id = await _made(bot, item, group, outgoing.thread)
    return bot.get_channel(thread_id) or bot.get_partial_messageable(
        thread_id, guild_id=item.guild_id, type=discord.ChannelType.public_thread
    )


async def _made(bot: LeagueClient, item: OutboxItem, group: int, name: str) -> int:
    """The group's thread, found among the server's active threads (made before a
    stop, not recorded), else made now; recorded."""
    setup = bot.setup_of(item.guild_id)
    if setup is None:
        raise NoThread("the server has no league set up")
    parent = setup.announcements_channel_id
    me = str(bot.user.id) if bot.user is not None else None
    active = await bot.http.get_active_threads(item.guild_id)
    found: Any = next((t for t in active.get("threads", [])
                       if t.get("name") == name and str(t.get("parent_id")) == str(parent)
                       and str(t.get("owner_id")) == me), None)  # fmt: skip
    if found is None:
        channel = bot.get_channel(parent)
        news = isinstance(channel, discord.TextChannel) and channel.is_news()
        found = await bot.http.start_thread_without_message(
            parent, name=name, auto_archive_duration=ARCHIVE_AFTER,
            type=NEWS_THREAD if news else PUBLIC_THREAD, reason="a thread per group",
        )  # fmt: skip
        log.info("server %d: made the thread of group %d", item.guild_id, group)
    night = int(json.loads(item.data or "{}").get("night", 0))
    await group_threads.record(bot.db, item.guild_id, night, group, int(found["id"]))
    return int(found["id"])
