"""The numbers `/rules` explains: this league's settings and times (R1.3, R3.5, R10)."""

from __future__ import annotations

from bot.database import Database
from bot.services.context import season_of
from cogs.rulebook.rulebook_outcomes import LeagueTerms


async def terms(db: Database, guild_id: int) -> LeagueTerms:
    """The running season's settings and the league's clock times."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        return LeagueTerms(
            settings=ctx.settings(),
            groupings_time=ctx.league.groupings_time,
            lock_time=ctx.league.picks_lock_time,
        )
