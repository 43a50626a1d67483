"""Commissioners seen holding the role (migrations/0006_commissioners.sql)."""

from __future__ import annotations

import aiosqlite

from bot.repositories._rows import run, scalar

RECORD = (
    "INSERT INTO commissioners (guild_id, user_id, seen_at) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO NOTHING"
)
FORGET = "DELETE FROM commissioners WHERE guild_id = ? AND user_id = ?"
FORGET_ALL = "DELETE FROM commissioners WHERE guild_id = ?"
KNOWN = "SELECT 1 FROM commissioners WHERE guild_id = ? AND user_id = ?"
ALL = "SELECT user_id FROM commissioners WHERE guild_id = ? ORDER BY user_id"
NAME = "SELECT name FROM member_names WHERE guild_id = ? AND user_id = ?"
NAMES = "SELECT user_id, name FROM member_names WHERE guild_id = ?"
RECORD_NAME = (
    "INSERT INTO member_names (guild_id, user_id, name, seen_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id)"
    " DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at"
)


async def record(conn: aiosqlite.Connection, guild_id: int, user_id: int, now: str) -> None:
    await run(conn, RECORD, (guild_id, user_id, now))


async def forget(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> None:
    await run(conn, FORGET, (guild_id, user_id))


async def known(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> bool:
    return await scalar(conn, KNOWN, (guild_id, user_id)) is not None


async def recorded(conn: aiosqlite.Connection, guild_id: int) -> list[int]:
    return [int(row[0]) for row in await conn.execute_fetchall(ALL, (guild_id,))]


async def name_of(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> str | None:
    """The display name the member last acted under as commissioner."""
    return await scalar(conn, NAME, (guild_id, user_id))


async def names(conn: aiosqlite.Connection, guild_id: int) -> dict[int, str]:
    return {int(row[0]): row[1] for row in await conn.execute_fetchall(NAMES, (guild_id,))}


async def record_name(
    conn: aiosqlite.Connection, guild_id: int, user_id: int, name: str, now: str
) -> None:
    await run(conn, RECORD_NAME, (guild_id, user_id, name, now))


async def forget_all(conn: aiosqlite.Connection, guild_id: int) -> None:
    """Another role is the commissioners': those seen with the old one are forgotten."""
    await run(conn, FORGET_ALL, (guild_id,))
