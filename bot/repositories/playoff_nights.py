"""Playoff night and its field (migrations/0015_playoff_night.sql)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import aiosqlite

from bot.models import FieldEntry, Night
from bot.repositories._rows import insert, many, one, run, run_many
from bot.repositories.leagues import delete_unplayed_night, night_row

PLAYOFF_NIGHT = "SELECT * FROM nights WHERE season_id = ? AND kind = 'playoff'"
INSERT_PLAYOFF_NIGHT = (
    "INSERT INTO nights (season_id, week, date, kind) VALUES (?, ?, ?, 'playoff')"
)
MOVE = "UPDATE nights SET date = ? WHERE id = ? AND kind = 'playoff' AND status = 'scheduled'"
FIELD = "SELECT * FROM playoff_field WHERE night_id = ? ORDER BY pool, standing"
CLEAR_FIELD = "DELETE FROM playoff_field WHERE night_id = ?"
INSERT_ENTRY = (
    "INSERT INTO playoff_field (night_id, pool, standing, player_id, qualified)"
    " VALUES (?, ?, ?, ?, ?)"
)


def _entry(row: aiosqlite.Row) -> FieldEntry:
    return FieldEntry(
        pool=row["pool"],
        standing=row["standing"],
        player_id=row["player_id"],
        qualified=bool(row["qualified"]),
        checked_in_at=row["checked_in_at"],
        replaced_by=row["replaced_by"],
        place=row["place"],
    )


async def playoff_night(conn: aiosqlite.Connection, season_id: int) -> Night | None:
    return await one(conn, PLAYOFF_NIGHT, (season_id,), night_row)


async def add_playoff_night(
    conn: aiosqlite.Connection, season_id: int, week: int, day: date
) -> int:
    return await insert(conn, INSERT_PLAYOFF_NIGHT, (season_id, week, day.isoformat()))


async def move_playoff_night(conn: aiosqlite.Connection, night_id: int, day: date) -> bool:
    return await run(conn, MOVE, (day.isoformat(), night_id)) == 1


async def field(conn: aiosqlite.Connection, night_id: int) -> list[FieldEntry]:
    return await many(conn, FIELD, (night_id,), _entry)


async def set_field(
    conn: aiosqlite.Connection, night_id: int, entries: Sequence[FieldEntry]
) -> None:
    """The field as announced, afresh (no check-in or replacement kept)."""
    await run(conn, CLEAR_FIELD, (night_id,))
    await run_many(
        conn,
        INSERT_ENTRY,
        [(night_id, e.pool, e.standing, e.player_id, int(e.qualified)) for e in entries],
    )


CHECK_IN = (
    "UPDATE playoff_field SET checked_in_at = ? WHERE night_id = ? AND player_id = ?"
    " AND checked_in_at IS NULL"
)
REPLACE = (
    "UPDATE playoff_field SET replaced_by = ?, replaced_at = ? WHERE night_id = ? AND player_id = ?"
    " AND replaced_by IS NULL"
)
UNDO_REPLACEMENT = (
    "UPDATE playoff_field SET replaced_by = NULL, replaced_at = NULL"
    " WHERE night_id = ? AND player_id = ?"
)


async def check_in(conn: aiosqlite.Connection, night_id: int, player_id: int, at: str) -> bool:
    """False when the player was checked in already."""
    return await run(conn, CHECK_IN, (at, night_id, player_id)) == 1


async def replace(
    conn: aiosqlite.Connection, night_id: int, player_id: int, by: int, at: str
) -> bool:
    return await run(conn, REPLACE, (by, at, night_id, player_id)) == 1


async def undo_replacement(conn: aiosqlite.Connection, night_id: int, player_id: int) -> None:
    await run(conn, UNDO_REPLACEMENT, (night_id, player_id))


async def delete_playoff_night(conn: aiosqlite.Connection, night_id: int) -> None:
    """A playoff night called off before it started, with its field and notices."""
    await run(conn, CLEAR_FIELD, (night_id,))
    await delete_unplayed_night(conn, night_id)


SET_PLACES = "UPDATE playoff_field SET place = ? WHERE night_id = ? AND player_id = ?"
CLEAR_PLACES = "UPDATE playoff_field SET place = NULL WHERE night_id = ? AND pool = ?"


async def set_places(
    conn: aiosqlite.Connection, night_id: int, pool: str, places: Sequence[int]
) -> None:
    """R13.6: a division's playoff places, best first (player ids)."""
    await run(conn, CLEAR_PLACES, (night_id, pool))
    await run_many(
        conn, SET_PLACES, [(place, night_id, pid) for place, pid in enumerate(places, start=1)]
    )


RESET_CHECK_IN = (
    "UPDATE playoff_field SET checked_in_at = NULL, replaced_by = NULL, replaced_at = NULL"
    " WHERE night_id = ?"
)


async def reset_check_in(conn: aiosqlite.Connection, night_id: int) -> None:
    """Playoff night moved: nobody is checked in or replaced for the new date yet."""
    await run(conn, RESET_CHECK_IN, (night_id,))
