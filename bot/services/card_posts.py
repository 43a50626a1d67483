"""Owing a scorecard's post: a score or pre-makeup submitted, decided or
changed puts its card in the outbox in the same transaction (the first time a
post, then an edit, coalesced by the outbox, so a burst of scores is one post
and an edit or two). The card itself, worded when it is sent from the scores as
they stand, is the scorecards feature's (`cogs/scorecards/`)."""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.outbox_kinds import card_ref
from bot.repositories import cards
from bot.services.outbox import owe_approval, owe_update


async def owe_group_card(
    conn: aiosqlite.Connection, guild_id: int, group_id: int, *, now: datetime
) -> int:
    """A score was submitted in the group: its card is posted (the first time)
    or brought up to date. Returns the card's id."""
    found = await cards.card_of_group(conn, group_id)
    if found is None:
        card_id = await cards.add_group_card(conn, group_id)
        await owe_approval(conn, guild_id, card_ref(card_id), now=now)
        return card_id
    await owe_update(conn, guild_id, card_ref(found.id), now=now)
    return found.id


async def owe_card_update(
    conn: aiosqlite.Connection, guild_id: int, group_id: int, *, now: datetime
) -> None:
    """The group's card, if it has one, is brought up to date."""
    found = await cards.card_of_group(conn, group_id)
    if found is not None:
        await owe_update(conn, guild_id, card_ref(found.id), now=now)


async def owe_day_card(
    conn: aiosqlite.Connection,
    guild_id: int,
    season_id: int,
    player_id: int,
    day: str,
    pre_makeup_id: int,
    *,
    now: datetime,
) -> int:
    """A pre-makeup was submitted: it goes on the player's card of that day."""
    found = await cards.card_of_day(conn, season_id, player_id, day)
    if found is None:
        card_id = await cards.add_day_card(conn, season_id, player_id, day)
        await cards.put_pre_makeup(conn, pre_makeup_id, card_id)
        await owe_approval(conn, guild_id, card_ref(card_id), now=now)
        return card_id
    await cards.put_pre_makeup(conn, pre_makeup_id, found.id)
    await owe_update(conn, guild_id, card_ref(found.id), now=now)
    return found.id
