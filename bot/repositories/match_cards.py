"""Bracket match cards (migrations/0017_match_cards.sql): one message per place
in a division's bracket (its semifinal 1 or 2, its final, its match for 3rd)."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.repositories._rows import insert, many, one, run

Slot = tuple[str, str, int]  # (division, round, slot): a place in the bracket

CARD = (
    "SELECT c.*, l.guild_id FROM match_cards c JOIN nights n ON n.id = c.night_id"
    " JOIN seasons s ON s.id = n.season_id JOIN leagues l ON l.id = s.league_id WHERE c.id = ?"
)
OF_NIGHT = "SELECT c.*, 0 AS guild_id FROM match_cards c WHERE night_id = ? ORDER BY id"
ADD = "INSERT INTO match_cards (night_id, pool, round, slot) VALUES (?, ?, ?, ?)"
SET_MESSAGE = "UPDATE match_cards SET message_id = ? WHERE id = ?"
FORGET_MESSAGE = "UPDATE match_cards SET message_id = NULL WHERE id = ?"


@dataclass(frozen=True)
class MatchCard:
    id: int
    night_id: int
    slot: Slot
    message_id: int | None
    guild_id: int  # the server whose league holds it (0 when not read)


def _card(row: aiosqlite.Row) -> MatchCard:
    return MatchCard(
        row["id"],
        row["night_id"],
        (row["pool"], row["round"], row["slot"]),
        row["message_id"],
        row["guild_id"],
    )


async def card(conn: aiosqlite.Connection, card_id: int) -> MatchCard | None:
    return await one(conn, CARD, (card_id,), _card)


async def of_night(conn: aiosqlite.Connection, night_id: int) -> dict[Slot, MatchCard]:
    return {c.slot: c for c in await many(conn, OF_NIGHT, (night_id,), _card)}


async def add(conn: aiosqlite.Connection, night_id: int, slot: Slot) -> int:
    return await insert(conn, ADD, (night_id, *slot))


async def set_message(conn: aiosqlite.Connection, card_id: int, message_id: int) -> None:
    await run(conn, SET_MESSAGE, (message_id, card_id))


async def forget_message(conn: aiosqlite.Connection, card_id: int) -> None:
    """Its message was deleted: it is posted again."""
    await run(conn, FORGET_MESSAGE, (card_id,))
