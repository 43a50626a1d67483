"""Each server's league places (its announcements and approvals channels and
its commissioner role), set by a server administrator with /setup. One bot
serves any number of servers; each server's places are kept by its id.

A bot set up the old way, with the ids in `.env`, keeps working: at its first
start with this version those ids are stored for their server, once, and from
then on /setup changes them."""

from __future__ import annotations

import logging
from datetime import datetime

from bot.database import Database
from bot.models import ServerSetup
from bot.repositories import leagues, server_setups
from bot.services.context import stamp
from bot.services.errors import BadInput

log = logging.getLogger(__name__)

SAME_CHANNEL = (
    "The announcements and approvals channels must differ: scores waiting for approval "
    "are for the commissioner's eyes. Pick two channels."
)


async def every(db: Database) -> dict[int, ServerSetup]:
    async with db.read() as conn:
        return {s.guild_id: s for s in await server_setups.every(conn)}


async def of(db: Database, guild_id: int) -> ServerSetup | None:
    async with db.read() as conn:
        return await server_setups.of(conn, guild_id)


async def has_league(db: Database, guild_id: int) -> bool:
    """Whether the server's league is named yet (/league season setup)."""
    async with db.read() as conn:
        return await leagues.league_by_guild(conn, guild_id) is not None


async def set_up(
    db: Database,
    guild_id: int,
    announcements: int,
    approvals: int,
    role: int,
    *,
    by: int,
    now: datetime,
) -> ServerSetup:
    """The server's league places, stored (a second /setup changes them)."""
    if announcements == approvals:
        raise BadInput(SAME_CHANNEL)
    setup = ServerSetup(guild_id, announcements, approvals, role, by, stamp(now))
    async with db.transaction() as conn:
        await server_setups.set_places(conn, setup)
    return setup


async def move_from_env(db: Database, legacy: ServerSetup | None) -> bool:
    """An older `.env`'s four ids, stored for their server once (never over a
    /setup made since). True when moved now."""
    if legacy is None:
        return False
    async with db.transaction() as conn:
        moved = await server_setups.move(conn, legacy)
    if moved:
        log.warning(
            "moved the league places of server %d from .env into the database (once): from "
            "now on a server administrator changes them with /setup, and LEAGUE_GUILD_ID, "
            "ANNOUNCEMENT_CHANNEL_ID, APPROVALS_CHANNEL_ID and COMMISSIONER_ROLE_ID can "
            "leave .env",
            legacy.guild_id,
        )
    return moved


async def alert_is_new(db: Database, guild_id: int, text: str | None) -> bool:
    """Whether the start-up alert `text` (None: nothing wrong) differs from the
    one the server's commissioner was last told; it is remembered either way, so
    the same problems are not told again at every restart."""
    async with db.transaction() as conn:
        last = await server_setups.last_alert(conn, guild_id)
        await server_setups.set_last_alert(conn, guild_id, text)
    return text != last
