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
from bot.repositories import commissioners, leagues, server_setups
from bot.services.context import check_zone, stamp
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


async def league_name(db: Database, guild_id: int) -> str | None:
    """The name of the server's league (None: not named yet)."""
    async with db.read() as conn:
        league = await leagues.league_by_guild(conn, guild_id)
    return league.name if league is not None else None


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
    time_zone: str | None = None,
    by: int,
    now: datetime,
) -> ServerSetup:
    """The server's league places, stored (a second /setup changes them), and,
    with `time_zone`, its league's time zone (R1.3: the league's posts and
    times are in it; a league named already moves to it)."""
    if announcements == approvals:
        raise BadInput(SAME_CHANNEL)
    zone = check_zone(time_zone.strip()) if time_zone is not None else None
    setup = ServerSetup(guild_id, announcements, approvals, role, by, stamp(now), zone)
    async with db.transaction() as conn:
        before = await server_setups.of(conn, guild_id)
        await server_setups.set_places(conn, setup)
        if zone is not None:
            await server_setups.set_league_zone(conn, guild_id, zone)
        setup = await server_setups.of(conn, guild_id) or setup
        await server_setups.set_last_alert(conn, guild_id, None)  # its checks start afresh
        if before is not None and before.commissioner_role_id != role:
            await commissioners.forget_all(conn, guild_id)  # no DMs to the old role's members
    return setup


async def move_from_env(db: Database, legacy: ServerSetup | None) -> bool:
    """An older `.env`'s four ids, stored for their server once (never over a
    /setup made since). True when moved now."""
    if legacy is None:
        return False
    if legacy.announcements_channel_id == legacy.approvals_channel_id:
        log.error(
            "the .env names one channel for both announcements and approvals: server %d is not "
            "set up from it; a server administrator runs /setup there (scores waiting for "
            "approval are for the commissioner's eyes)",
            legacy.guild_id,
        )
        return False
    async with db.transaction() as conn:
        stored = await server_setups.of(conn, legacy.guild_id)
        moved = await server_setups.move(conn, legacy)
    if not moved and stored is not None and _places(stored) != _places(legacy):
        log.warning(
            "the .env's ids for server %d differ from its setup in the database, which is "
            "used: change the league's places with /setup, and take the ids out of .env",
            legacy.guild_id,
        )
    if moved:
        log.warning(
            "moved the league places of server %d from .env into the database (once): from "
            "now on a server administrator changes them with /setup, and LEAGUE_GUILD_ID, "
            "ANNOUNCEMENT_CHANNEL_ID, APPROVALS_CHANNEL_ID and COMMISSIONER_ROLE_ID can "
            "leave .env",
            legacy.guild_id,
        )
    return moved


def _places(setup: ServerSetup) -> tuple[int, int, int]:
    return (setup.announcements_channel_id, setup.approvals_channel_id,
            setup.commissioner_role_id)  # fmt: skip


async def alert_is_new(db: Database, guild_id: int, text: str | None) -> bool:
    """Whether the start-up alert `text` differs from the one the server's
    commissioner was last told (so the same problems are not told again at
    every restart). Nothing wrong (None) forgets it."""
    async with db.transaction() as conn:
        last = await server_setups.last_alert(conn, guild_id)
        if text is None:
            await server_setups.set_last_alert(conn, guild_id, None)
    return text is not None and text != last


async def alert_told(db: Database, guild_id: int, text: str | None) -> None:
    """The alert reached the commissioner (None: a /setup since: tell again)."""
    async with db.transaction() as conn:
        await server_setups.set_last_alert(conn, guild_id, text)
