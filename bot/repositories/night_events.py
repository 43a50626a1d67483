"""Each league night's scheduled event in Discord, as the bot last made it
(migrations/0021_league_night_in_discord.sql)."""

from __future__ import annotations

import aiosqlite

from bot.repositories._rows import run

OF_GUILD = "SELECT night_id, event_id, shown FROM night_events WHERE guild_id = ?"
RECORD = (
    "INSERT INTO night_events (night_id, guild_id, event_id, shown) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (guild_id, night_id) DO UPDATE SET event_id = excluded.event_id,"
    " shown = excluded.shown"
)
FORGET = "DELETE FROM night_events WHERE guild_id = ? AND night_id = ?"


async def of_guild(conn: aiosqlite.Connection, guild_id: int) -> dict[int, tuple[int, str]]:
    async with conn.execute(OF_GUILD, (guild_id,)) as cursor:
        return {row["night_id"]: (row["event_id"], row["shown"]) async for row in cursor}


async def record(
    conn: aiosqlite.Connection, guild_id: int, night_id: int, event_id: int, shown: str
) -> None:
    await run(conn, RECORD, (night_id, guild_id, event_id, shown))


async def forget(conn: aiosqlite.Connection, guild_id: int, night_id: int) -> None:
    await run(conn, FORGET, (guild_id, night_id))
