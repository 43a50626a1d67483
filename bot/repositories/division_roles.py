"""The division roles of each server and who holds one from the bot
(migrations/0021_league_night_in_discord.sql)."""

from __future__ import annotations

import aiosqlite

from bot.repositories._rows import many, run

ROLES = "SELECT division, role_id FROM division_roles WHERE guild_id = ?"
SET_ROLE = (
    "INSERT INTO division_roles (guild_id, division, role_id) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, division) DO UPDATE SET role_id = excluded.role_id"
)
HOLDERS = "SELECT discord_id, division FROM division_role_holders WHERE guild_id = ?"
GIVE = (
    "INSERT INTO division_role_holders (guild_id, discord_id, division) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, discord_id) DO UPDATE SET division = excluded.division"
)
TAKE = "DELETE FROM division_role_holders WHERE guild_id = ? AND discord_id = ?"


async def roles(conn: aiosqlite.Connection, guild_id: int) -> dict[str, int]:
    return dict(await many(conn, ROLES, (guild_id,), tuple))


async def set_role(conn: aiosqlite.Connection, guild_id: int, division: str, role_id: int) -> None:
    await run(conn, SET_ROLE, (guild_id, division, role_id))


async def holders(conn: aiosqlite.Connection, guild_id: int) -> dict[int, str]:
    return dict(await many(conn, HOLDERS, (guild_id,), tuple))


async def give(conn: aiosqlite.Connection, guild_id: int, discord_id: int, division: str) -> None:
    await run(conn, GIVE, (guild_id, discord_id, division))


async def take(conn: aiosqlite.Connection, guild_id: int, discord_id: int) -> None:
    await run(conn, TAKE, (guild_id, discord_id))
