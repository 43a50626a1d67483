"""Commissioners seen holding the role (migrations/0006_commissioners.sql)."""

from __future__ import annotations

import aiosqlite

from bot.repositories._rows import run, scalar

RECORD = (
    "INSERT INTO commissioners (guild_id, user_id, seen_at) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO NOTHING"
)
FORGET = "DELETE FROM commissioners WHERE guild_id = ? AND user_id = ?"
KNOWN = "SELECT 1 FROM commissioners WHERE guild_id = ? AND user_id = ?"
ALL = "SELECT user_id FROM commissioners WHERE guild_id = ? ORDER BY user_id"


async def record(conn: aiosqlite.Connection, guild_id: int, user_id: int, now: str) -> None:
    await run(conn, RECORD, (guild_id, user_id, now))


async def forget(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> None:
    await run(conn, FORGET, (guild_id, user_id))


async def known(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> bool:
    return await scalar(conn, KNOWN, (guild_id, user_id)) is not None


async def recorded(conn: aiosqlite.Connection, guild_id: int) -> list[int]:
    return [int(row[0]) for row in await conn.execute_fetchall(ALL, (guild_id,))]
