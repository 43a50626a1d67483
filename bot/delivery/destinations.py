"""Where an outbox item goes: a server's league channel, a member's DMs, or
every commissioner's DMs (a group's thread: `bot.delivery.threads`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.services.commissioners import recorded as recorded_commissioners

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


class Refused(Exception):
    """No one to send to (e.g. no member holds the commissioner role)."""


async def channel(bot: LeagueClient, guild_id: int, target: str) -> Any:
    """A server's league channel ('announcements' or 'approvals'), as set up."""
    setup = bot.setup_of(guild_id)
    if setup is None:
        raise Refused("the server has no league set up (a server administrator runs /setup)")
    channel_id = {
        "announcements": setup.announcements_channel_id,
        "approvals": setup.approvals_channel_id,
    }[target]
    return bot.get_channel(channel_id) or bot.get_partial_messageable(channel_id, guild_id=guild_id)


async def destinations(bot: LeagueClient, guild_id: int, target: str) -> list[Any]:
    if target in ("announcements", "approvals"):
        return [await channel(bot, guild_id, target)]
    if target.startswith("dm:"):
        return [await bot.create_dm(discord.Object(int(target[3:])))]
    people = await commissioners(bot, guild_id)
    if not people:
        raise Refused("no member with the commissioner role is known to the bot")
    return [await bot.create_dm(discord.Object(p)) for p in people]


async def commissioners(bot: LeagueClient, guild_id: int) -> list[int]:
    """Who gets a server's commissioners' DMs: the server's owner, every member
    recorded passing the commissioner role check (bot/services/commissioners.py:
    the bot has no members intent, so this is how it knows them), and role
    members its cache happens to hold, but never the bot itself (given the role,
    it is one of them; a bot cannot DM itself). In a stable order, so a resumed
    send skips the same ones."""
    found = await recorded_commissioners(bot.db, guild_id)
    guild = bot.get_guild(guild_id)
    setup = bot.setup_of(guild_id)
    if guild is not None:
        role = guild.get_role(setup.commissioner_role_id) if setup is not None else None
        found += [m.id for m in role.members] if role is not None else []
        if guild.owner_id is not None:
            found.insert(0, guild.owner_id)
    me = bot.user.id if bot.user is not None else None
    return [person for person in dict.fromkeys(found) if person != me]
