"""What an outbox item says when it is sent: read through the services (the
league as it stands now), worded by `bot.ui`, by the one renderer of its kind.
None of it: `Outgoing` with nothing to send, and why."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

# Each module registers the renderers of its kinds (bot.delivery.outgoing.renders).
from bot.delivery import (
    approval_words,
    closing_words,
    night_words,
    notice_words,
    playoff_words,
    thread_words,
)
from bot.delivery.outgoing import RENDERERS, Outgoing
from bot.models import OutboxItem
from bot.outbox_kinds import Kind
from bot.services import server_setup

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

WORDED_BY = (approval_words, closing_words, night_words, notice_words, playoff_words,
             thread_words)  # fmt: skip


async def words(bot: LeagueClient, item: OutboxItem) -> Outgoing:
    try:
        renderer = RENDERERS[Kind(item.kind)]
    except ValueError:
        raise ValueError(f"an outbox item of unknown kind {item.kind!r}") from None
    data = json.loads(item.data) if item.data else {}
    said = await renderer(bot, item, data)
    return await _named(bot, item, said)


async def _named(bot: LeagueClient, item: OutboxItem, said: Outgoing) -> Outgoing:
    """A DM names its league when the bot serves several: a player (or a
    commissioner) of two leagues gets both leagues' DMs from the one bot."""
    in_dm = item.target.startswith("dm:") or item.target == "commissioners"
    if not in_dm or len(bot.setups) < 2 or not said.pieces or said.edit_of is not None:
        return said
    name = await server_setup.league_name(bot.db, item.guild_id)
    if name is not None and said.pieces[0]:
        said.pieces[0] = f"**{name}** · {said.pieces[0]}"[:2000]
    return said
