"""What a player's next weeks can still change, for /me (the rules:
bot.rules.stakes): the race for division A before the division week (R9.2),
the playoff race in the season's last weeks (R13.1), and what this week's
result makes next week's multiplier (R7.4)."""

from __future__ import annotations

import aiosqlite

from bot.models import NightResult
from bot.repositories import leagues
from bot.scoring import (
    a_race,
    a_race_weeks,
    has_divisions,
    next_multipliers,
    playoff_race,
    playoff_spots,
)
from bot.services.context import SeasonContext
from bot.services.outcomes.standings import Stakes, StandingRow

PLAYOFF_RACE_WEEKS = 3  # Decision: the playoff race shows over the last 3 regular weeks


async def stakes_of(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    player_id: int,
    pools: dict[str, list[StandingRow]],
    history: list[NightResult],
) -> Stakes | None:
    """The stakes of the running season's next regular night for the player
    (None once every regular night is finalized, or for a player in no
    standings). `pools` are the standings by division ('' before divisions;
    a player in no group yet at the bottom of B), `history` the player's nights."""
    pool = next(
        (p for p, rows in pools.items() if any(r.player.id == player_id for r in rows)), None
    )
    nights = await leagues.nights(conn, ctx.season.id)
    upcoming = [n.week for n in nights if n.kind == "regular" and n.status != "finalized"]
    if not upcoming or pool is None:
        return None
    week, settings = min(upcoming), ctx.settings()
    rows = pools[pool]
    place = next(n for n, r in enumerate(rows, 1) if r.player.id == player_id)
    race = None
    counted = a_race_weeks(settings.division_week)
    divides = has_divisions(len(rows), settings) and counted.stop <= settings.regular_nights
    if not pool and divides and week in counted:
        results = [r.week_result for r in history if r.week in counted and r.week < week]
        race = a_race(results, sum(1 for w in counted if w >= week))
    playoffs = None
    splits_later = divides and week < settings.division_week  # its playoffs are by division
    if week > settings.regular_nights - PLAYOFF_RACE_WEEKS and not splits_later:
        spots = playoff_spots(len(rows), settings)
        playoffs = playoff_race([r.league_points for r in rows], place, spots)
    current = rows[place - 1].multiplier
    multiplier = next_multipliers(week, current, settings.regular_nights, settings)
    return Stakes(week, pool, race, playoffs, multiplier)
