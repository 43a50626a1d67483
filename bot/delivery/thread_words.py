"""The renderers of a group's thread on league night (bot/services/group_threads.py):
its first message, frozen when picks locked, and each approved score, worded
from the score as it stands when sent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.delivery.outgoing import Outgoing, nothing, renders
from bot.models import OutboxItem
from bot.outbox_kinds import SCORE, Kind, ref_id
from bot.services import group_threads
from bot.ui import render
from bot.ui.threads import approved

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@renders(Kind.GROUP_THREAD)
async def opening(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    return Outgoing(render.chunks(data["text"]), thread=data["name"])


@renders(Kind.THREAD_SCORE)
async def score(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    group = group_threads.group_of(item)
    score_id = ref_id(item.ref, SCORE)
    if group is None or score_id is None:
        return nothing("not a group's score")
    if await group_threads.thread_of(bot.db, item.guild_id, group) is None:
        return nothing("the group has no thread (it could not be made)")
    view = await group_threads.approved_score(bot.db, score_id)
    if view is None:
        return nothing("the score is no longer approved")
    return Outgoing([approved(view, corrected=bool(data.get("corrected")))])
