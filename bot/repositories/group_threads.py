"""Each group's thread on league night (migrations/0021_league_night_in_discord.sql)."""

from __future__ import annotations

import aiosqlite

from bot.repositories._rows import run, scalar

THREAD_OF = "SELECT thread_id FROM group_threads WHERE guild_id = ? AND group_id = ?"
RECORD = (
    "INSERT INTO group_threads (guild_id, night_id, group_id, thread_id) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (guild_id, group_id) DO UPDATE SET thread_id = excluded.thread_id"
)
# A group whose thread was owed (made, or still to be made when picks locked).
OWED = "SELECT 1 FROM outbox WHERE guild_id = ? AND kind = 'group_thread' AND ref = ?"


async def thread_of(conn: aiosqlite.Connection, guild_id: int, group_id: int) -> int | None:
    found = await scalar(conn, THREAD_OF, (guild_id, group_id))
    return int(found) if found is not None else None


async def record(
    conn: aiosqlite.Connection, guild_id: int, night_id: int, group_id: int, thread_id: int
) -> None:
    await run(conn, RECORD, (guild_id, night_id, group_id, thread_id))


async def owed(conn: aiosqlite.Connection, guild_id: int, ref: str) -> bool:
    return await scalar(conn, OWED, (guild_id, ref)) is not None
