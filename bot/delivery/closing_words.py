"""A season closed before its end, or opened again: the players' post."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.delivery.outgoing import Outgoing, renders
from bot.models import OutboxItem
from bot.outbox_kinds import Kind
from bot.ui.render import chunks
from cogs.closing.closing_outcomes import SeasonClosing
from cogs.closing.closing_text import announcement, reopened

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@renders(Kind.SEASON_CLOSED)
async def closed_post(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    if "reopened" in data:
        return Outgoing(chunks(reopened(str(data["reopened"]))))
    return Outgoing(chunks(announcement(SeasonClosing.from_data(data))))
