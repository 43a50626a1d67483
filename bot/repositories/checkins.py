"""A league night's check-ins and its attendance board's message
(migrations/0019_attendance.sql)."""

from __future__ import annotations

import aiosqlite

from bot.repositories._rows import run, scalar

CHECKED_IN = "SELECT player_id FROM checkins WHERE night_id = ?"
CHECK_IN = "INSERT OR IGNORE INTO checkins (night_id, player_id, at, by) VALUES (?, ?, ?, ?)"
UNDO = "DELETE FROM checkins WHERE night_id = ? AND player_id = ?"
BOARD = "SELECT message_id FROM attendance_boards WHERE night_id = ?"
HAS_BOARD = "SELECT COUNT(*) FROM attendance_boards WHERE night_id = ?"
BOARD_DAY = "SELECT day FROM attendance_boards WHERE night_id = ?"
ADD_BOARD = (
    "INSERT INTO attendance_boards (night_id, day) VALUES (?1, ?2)"
    " ON CONFLICT (night_id) DO UPDATE SET day = ?2, message_id = NULL"
)
SET_MESSAGE = "UPDATE attendance_boards SET message_id = ? WHERE night_id = ?"


async def checked_in(conn: aiosqlite.Connection, night_id: int) -> set[int]:
    return {row[0] for row in await conn.execute_fetchall(CHECKED_IN, (night_id,))}


async def check_in(
    conn: aiosqlite.Connection, night_id: int, player_id: int, at: str, by: int
) -> None:
    await run(conn, CHECK_IN, (night_id, player_id, at, by))


async def undo(conn: aiosqlite.Connection, night_id: int, player_id: int) -> None:
    await run(conn, UNDO, (night_id, player_id))


async def has_board(conn: aiosqlite.Connection, night_id: int) -> bool:
    return bool(await scalar(conn, HAS_BOARD, (night_id,)))


async def board_message(conn: aiosqlite.Connection, night_id: int) -> int | None:
    """The board's message id (None: no board, or not posted yet)."""
    found = await scalar(conn, BOARD, (night_id,))
    return int(found) if found is not None else None


async def board_day(conn: aiosqlite.Connection, night_id: int) -> str | None:
    """The date (ISO) the night's board was posted for (None: no board)."""
    found = await scalar(conn, BOARD_DAY, (night_id,))
    return str(found) if found is not None else None


async def add_board(conn: aiosqlite.Connection, night_id: int, day: str) -> None:
    """A board for the night on `day` (one posted for another day is replaced)."""
    await run(conn, ADD_BOARD, (night_id, day))


async def set_board_message(
    conn: aiosqlite.Connection, night_id: int, message_id: int | None
) -> None:
    await run(conn, SET_MESSAGE, (message_id, night_id))
