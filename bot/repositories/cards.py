"""Approval cards (migrations/0007_cards.sql): one message per group per night,
and one per player's pre-makeup day, that show its scores as they stand."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.models import PreMakeup, Score
from bot.repositories._rows import insert, many, one, run, scalar
from bot.repositories.people import _pre_makeup
from bot.repositories.scores import _score

CARD = "SELECT * FROM approval_cards WHERE id = ?"
CARD_OF_GROUP = "SELECT * FROM approval_cards WHERE group_id = ?"
CARD_OF_DAY = "SELECT * FROM approval_cards WHERE season_id = ? AND player_id = ? AND day = ?"
INSERT_GROUP_CARD = "INSERT INTO approval_cards (group_id) VALUES (?)"
INSERT_DAY_CARD = "INSERT INTO approval_cards (season_id, player_id, day) VALUES (?, ?, ?)"
SET_MESSAGE = "UPDATE approval_cards SET message_id = ? WHERE id = ?"
# The server whose league holds a card (a group's, through its night; a day's, its season's).
GUILD_OF = (
    "SELECT l.guild_id FROM approval_cards c LEFT JOIN night_groups g ON g.id = c.group_id"
    " LEFT JOIN nights n ON n.id = g.night_id"
    " JOIN seasons s ON s.id = coalesce(n.season_id, c.season_id)"
    " JOIN leagues l ON l.id = s.league_id WHERE c.id = ?"
)
SET_PRE_MAKEUP_CARD = "UPDATE pre_makeups SET card_id = ? WHERE id = ?"
# Every score ever submitted in the group's games, oldest first (a card shows
# each player's latest per game: live, or the last rejected).
SCORES_OF_GROUP = (
    "SELECT s.* FROM scores s JOIN games g ON g.id = s.game_id WHERE g.group_id = ?"
    " ORDER BY g.number, s.id"
)
PRE_MAKEUPS_OF_CARD = "SELECT * FROM pre_makeups WHERE card_id = ? ORDER BY id"


@dataclass(frozen=True)
class Card:
    id: int
    group_id: int | None
    season_id: int | None
    player_id: int | None
    day: str | None
    message_id: int | None


def _card(row: aiosqlite.Row) -> Card:
    return Card(
        id=row["id"],
        group_id=row["group_id"],
        season_id=row["season_id"],
        player_id=row["player_id"],
        day=row["day"],
        message_id=row["message_id"],
    )


async def card(conn: aiosqlite.Connection, card_id: int) -> Card | None:
    return await one(conn, CARD, (card_id,), _card)


async def card_of_group(conn: aiosqlite.Connection, group_id: int) -> Card | None:
    return await one(conn, CARD_OF_GROUP, (group_id,), _card)


async def card_of_day(
    conn: aiosqlite.Connection, season_id: int, player_id: int, day: str
) -> Card | None:
    return await one(conn, CARD_OF_DAY, (season_id, player_id, day), _card)


async def add_group_card(conn: aiosqlite.Connection, group_id: int) -> int:
    return await insert(conn, INSERT_GROUP_CARD, (group_id,))


async def add_day_card(conn: aiosqlite.Connection, season_id: int, player_id: int, day: str) -> int:
    return await insert(conn, INSERT_DAY_CARD, (season_id, player_id, day))


async def set_message(conn: aiosqlite.Connection, card_id: int, message_id: int | None) -> None:
    await run(conn, SET_MESSAGE, (message_id, card_id))


async def put_pre_makeup(conn: aiosqlite.Connection, pre_makeup_id: int, card_id: int) -> None:
    await run(conn, SET_PRE_MAKEUP_CARD, (card_id, pre_makeup_id))


async def scores_of_group(conn: aiosqlite.Connection, group_id: int) -> list[Score]:
    return await many(conn, SCORES_OF_GROUP, (group_id,), _score)


async def pre_makeups_of_card(conn: aiosqlite.Connection, card_id: int) -> list[PreMakeup]:
    return await many(conn, PRE_MAKEUPS_OF_CARD, (card_id,), _pre_makeup)


async def guild_of(conn: aiosqlite.Connection, card_id: int) -> int | None:
    """The id of the server whose league holds card `card_id` (None: no such card)."""
    found = await scalar(conn, GUILD_OF, (card_id,))
    return int(found) if found is not None else None
