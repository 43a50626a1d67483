"""The commissioner's view of the audit trail: who changed which score, when and why (R12.4)."""

from __future__ import annotations

from bot.database import Database
from bot.repositories import audit
from bot.services.context import night_of_week, player_named, season_of
from bot.services.errors import NotFound
from bot.services.outcomes import AuditTrail


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
        found = await player_named(conn, ctx.league, player) if player is not None else None
        entries = await audit.changes(conn, ctx.season.id, week, found.id if found else None)
    if not entries:
        which = [f"week {week}"] if week is not None else []
        which += [found.name] if found is not None else []
        scope = f" for {' and '.join(which)}" if which else " this season"
        raise NotFound(f"No score changes match{scope}.")
    return AuditTrail(entries, ctx.zone)
