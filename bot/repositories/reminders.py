"""Reminder choices and the reminders owed (migrations/0020_reminders.sql)."""

from __future__ import annotations

import aiosqlite

from bot.repositories._rows import run, scalar

KINDS = ("league_day", "missing_scores", "waiting_scores")
CHOICES = "SELECT league_day, missing_scores, waiting_scores FROM reminder_choices" \
    " WHERE league_id = ? AND discord_id = ?"  # fmt: skip
SET = (
    "INSERT INTO reminder_choices (league_id, discord_id, league_day, missing_scores,"
    " waiting_scores) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (league_id, discord_id)"
    " DO UPDATE SET league_day = ?3, missing_scores = ?4, waiting_scores = ?5"
)
OPTED = "SELECT discord_id FROM reminder_choices WHERE league_id = ? AND {kind} = 1"
COUNT = "SELECT COUNT(*) FROM reminders_sent WHERE night_id = ? AND day = ? AND discord_id = ?"
MARK = (
    "INSERT OR IGNORE INTO reminders_sent (night_id, day, discord_id, kind, at)"
    " VALUES (?, ?, ?, ?, ?)"
)


async def choices(conn: aiosqlite.Connection, league_id: int, discord_id: int) -> dict[str, bool]:
    """The member's choices, each off unless they opted in."""
    rows = list(await conn.execute_fetchall(CHOICES, (league_id, discord_id)))
    values = tuple(rows[0]) if rows else (0, 0, 0)
    return {kind: bool(value) for kind, value in zip(KINDS, values, strict=True)}


async def set_choices(
    conn: aiosqlite.Connection, league_id: int, discord_id: int, chosen: dict[str, bool]
) -> None:
    await run(conn, SET, (league_id, discord_id, *(int(chosen[k]) for k in KINDS)))


async def opted(conn: aiosqlite.Connection, league_id: int, kind: str) -> set[int]:
    """The members who asked for reminders of `kind`."""
    if kind not in KINDS:
        raise ValueError(kind)
    sql = OPTED.format(kind=kind)  # one of the three column names above, never input
    return {row[0] for row in await conn.execute_fetchall(sql, (league_id,))}


async def sent_count(conn: aiosqlite.Connection, night_id: int, day: str, discord_id: int) -> int:
    return int(await scalar(conn, COUNT, (night_id, day, discord_id)) or 0)


async def mark_sent(
    conn: aiosqlite.Connection, night_id: int, day: str, discord_id: int, kind: str, at: str
) -> bool:
    """Record the reminder; False when it was owed before (it is not owed again)."""
    return await run(conn, MARK, (night_id, day, discord_id, kind, at)) == 1
