"""Each server's league places (migrations/0018_server_setup.sql) and how its
nights show in Discord (migrations/0021_league_night_in_discord.sql)."""

from __future__ import annotations

import aiosqlite

from bot.models import NightSetup, ServerSetup
from bot.repositories._rows import many, one, run, scalar

ALL = "SELECT * FROM server_setup ORDER BY guild_id"
OF = "SELECT * FROM server_setup WHERE guild_id = ?"
SET = (
    "INSERT INTO server_setup (guild_id, announcements_channel_id, approvals_channel_id,"
    " commissioner_role_id, time_zone, set_by, set_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET"
    " announcements_channel_id = excluded.announcements_channel_id,"
    " approvals_channel_id = excluded.approvals_channel_id,"
    " commissioner_role_id = excluded.commissioner_role_id,"
    " time_zone = coalesce(excluded.time_zone, server_setup.time_zone),"
    " set_by = excluded.set_by, set_at = excluded.set_at"
)
SET_LEAGUE_ZONE = "UPDATE leagues SET time_zone = ? WHERE guild_id = ?"
# An older .env's ids, moved once: never over a setup made in Discord.
MOVE = (
    "INSERT INTO server_setup (guild_id, announcements_channel_id, approvals_channel_id,"
    " commissioner_role_id, set_by, set_at) VALUES (?, ?, ?, ?, NULL, ?)"
    " ON CONFLICT (guild_id) DO NOTHING"
)


def _setup(row: aiosqlite.Row) -> ServerSetup:
    return ServerSetup(
        row["guild_id"],
        row["announcements_channel_id"],
        row["approvals_channel_id"],
        row["commissioner_role_id"],
        row["set_by"],
        row["set_at"],
        row["time_zone"],
    )


async def every(conn: aiosqlite.Connection) -> list[ServerSetup]:
    return await many(conn, ALL, (), _setup)


async def of(conn: aiosqlite.Connection, guild_id: int) -> ServerSetup | None:
    return await one(conn, OF, (guild_id,), _setup)


async def set_places(conn: aiosqlite.Connection, setup: ServerSetup) -> None:
    await run(conn, SET, (setup.guild_id, setup.announcements_channel_id,
                          setup.approvals_channel_id, setup.commissioner_role_id,
                          setup.time_zone, setup.set_by, setup.set_at))  # fmt: skip


async def set_league_zone(conn: aiosqlite.Connection, guild_id: int, time_zone: str) -> bool:
    """The server's league (if named yet) runs on `time_zone` from now on."""
    return await run(conn, SET_LEAGUE_ZONE, (time_zone, guild_id)) == 1


async def move(conn: aiosqlite.Connection, setup: ServerSetup) -> bool:
    """An older .env's ids stored for their server, unless it was set up already."""
    return await run(conn, MOVE, (setup.guild_id, setup.announcements_channel_id,
                                  setup.approvals_channel_id, setup.commissioner_role_id,
                                  setup.set_at)) == 1  # fmt: skip


LAST_ALERT = "SELECT last_alert FROM server_setup WHERE guild_id = ?"
SET_LAST_ALERT = "UPDATE server_setup SET last_alert = ? WHERE guild_id = ?"


async def last_alert(conn: aiosqlite.Connection, guild_id: int) -> str | None:
    found = await scalar(conn, LAST_ALERT, (guild_id,))
    return str(found) if found is not None else None


async def set_last_alert(conn: aiosqlite.Connection, guild_id: int, text: str | None) -> None:
    await run(conn, SET_LAST_ALERT, (text, guild_id))


NIGHT_OF = (
    "SELECT guild_id, weekday, venue, group_threads, division_roles FROM server_setup"
    " WHERE guild_id = ?"
)
SET_NIGHT = (
    "UPDATE server_setup SET weekday = ?, venue = ?, group_threads = ?, division_roles = ?"
    " WHERE guild_id = ?"
)


def _night(row: aiosqlite.Row) -> NightSetup:
    return NightSetup(row["guild_id"], row["weekday"], row["venue"],
                      bool(row["group_threads"]), bool(row["division_roles"]))  # fmt: skip


async def night_of(conn: aiosqlite.Connection, guild_id: int) -> NightSetup | None:
    """How the server's league nights show in Discord (None: not set up)."""
    return await one(conn, NIGHT_OF, (guild_id,), _night)


async def set_night(conn: aiosqlite.Connection, night: NightSetup) -> bool:
    return await run(conn, SET_NIGHT, (night.weekday, night.venue, int(night.group_threads),
                                       int(night.division_roles), night.guild_id)) == 1  # fmt: skip
