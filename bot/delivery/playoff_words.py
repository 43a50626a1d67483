"""The playoffs' posts, worded from what was frozen when they were owed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.delivery.outgoing import Outgoing, renders
from bot.models import OutboxItem
from bot.outbox_kinds import Kind
from bot.services.outcomes.playoffs import PlayoffPreview
from bot.ui import playoffs, render

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@renders(Kind.PLAYOFF_FORMAT)
async def format_changed(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    return Outgoing(render.chunks(playoffs.format_changed(PlayoffPreview.from_data(data))))
