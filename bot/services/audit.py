"""The commissioner's view of the audit trail: who changed which score, when and why (R12.4)."""

from __future__ import annotations

import aiosqlite

from bot.database import Database
from bot.models import Player
from bot.repositories import audit, people
from bot.services.context import SeasonContext, night_of_week, player_named, season_of
from bot.services.errors import NotFound
from bot.services.outcomes.admin import AuditTrail


async def trail(
    db: Database, guild_id: int, *, week: int | None = None, player: str | None = None
) -> AuditTrail:
    """R12.4: the season's score changes, newest first, of one week and/or one
    player. Refuses an unknown player, a week that is not a night of the
    season, and filters that match nothing."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        if week is not None:
            await night_of_week(conn, ctx, week)
        found = await _everyone_named(conn, ctx, player) if player is not None else None
        ids = [p.id for p in found] if found is not None else None
        entries = await audit.changes(conn, ctx.season.id, week, ids)
    if not entries:
        which = [f"week {week}"] if week is not None else []
        which += [found[0].name] if found else []
        scope = f" for {' and '.join(which)}" if which else " this season"
        raise NotFound(f"No score changes match{scope}.")
    return AuditTrail(entries, ctx.zone)


async def _everyone_named(
    conn: aiosqlite.Connection, ctx: SeasonContext, name: str
) -> list[Player]:
    """Every player, current or removed, with this name (R12.4: a removed player's
    history stays); none is refused like any unknown name."""
    wanted = " ".join(name.split()).casefold()
    found = [
        p
        for p in await people.players(conn, ctx.league.id, removed=True)
        if p.name.casefold() == wanted
    ]
    if not found:
        await player_named(conn, ctx.league, name)  # raises the usual NotFound
    return found
