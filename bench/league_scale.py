"""Finalizing a night and recomputing standings for leagues of 30, 300 and 3,000 players.

Each league plays 10 weeks through the real services; scores are seeded as
approved facts through the repositories (the cost measured is finalize and
standings, not typing scores). Prints a table; run with `python -m bench`
(every benchmark) or `python -m bench.league_scale`.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.database import Database
from bot.migrate import migrate
from bot.repositories import leagues, nights, scores
from bot.services import finalize, machine_list, membership, picks, setup, standings
from bot.services.context import season_of

GUILD = 1
ZONE = ZoneInfo("America/New_York")
START = date(2026, 1, 7)


def at(day: date, clock: str) -> datetime:
    hour, minute = map(int, clock.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZONE)


async def build(db: Database, players: int) -> None:
    now = at(date(2026, 1, 1), "10:00")
    await setup.create_league(db, GUILD, "Bench league", now=now)
    await setup.start_season(db, GUILD, "Bench", START, now=now)
    for n in range(players):
        await membership.add_player(db, GUILD, f"Player {n:04d}", discord_id=10_000 + n,
                                    skill=1 + n % 10, now=now)  # fmt: skip
    for n in range(6):
        await machine_list.add_machine(db, GUILD, f"Machine {n}", par=10**9, now=now)


async def seed_scores(db: Database, week: int, guild: int = GUILD) -> None:
    """Every player's five scores for the night, approved, in one transaction."""
    day = START + timedelta(weeks=week - 1)
    await picks.lock_picks(db, guild, now=at(day, "19:15"))
    stamp = at(day, "20:00").isoformat()
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild)
        night = await leagues.night_by_week(conn, ctx.season.id, week)
        assert night is not None
        for group in await nights.groups(conn, night.id):
            for game in await nights.games(conn, group.id):
                for offset, player in enumerate(group.members):
                    spread = (player * 7919 + week * 104729 + game.number * 31 + offset) % 997
                    score = 10_000_000 * (1 + spread) + player  # + player: never a tie
                    await scores.add_score(conn, game.id, player, score, 1, stamp, approved_by=1)


async def measure(players: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await migrate(path)
        db = await Database.open(path)
        try:
            await build(db, players)
            finals, tables = [], []
            for week in range(1, 11):
                await seed_scores(db, week)
                day = START + timedelta(weeks=week - 1)
                started = time.perf_counter()
                await finalize.finalize(db, GUILD, by=1, now=at(day, "23:00"))
                finals.append(time.perf_counter() - started)
                started = time.perf_counter()
                await standings.standings(db, GUILD)
                tables.append(time.perf_counter() - started)
        finally:
            await db.close()
    return {
        "finalize_median_ms": statistics.median(finals) * 1000,
        "finalize_week10_ms": finals[-1] * 1000,
        "standings_week10_ms": tables[-1] * 1000,
    }


SIZES = (30, 300, 3000)
QUICK_SIZES = (30, 300)  # a smoke run


async def main(sizes: tuple[int, ...] = SIZES) -> None:
    figures = {n: await measure(n) for n in sizes}
    print(
        "league size | finalize (median of 10 weeks) | finalize week 10 | standings after week 10"
    )
    for n in sizes:
        f = figures[n]
        print(f"{n:>11} | {f['finalize_median_ms']:>25.1f} ms | {f['finalize_week10_ms']:>13.1f} ms"
              f" | {f['standings_week10_ms']:>20.1f} ms")  # fmt: skip
    for small, large in itertools.pairwise(sizes):
        ratio = figures[large]["finalize_median_ms"] / figures[small]["finalize_median_ms"]
        table = figures[large]["standings_week10_ms"] / figures[small]["standings_week10_ms"]
        print(f"growth {small} -> {large} players ({large // small}x): finalize x{ratio:.1f},"
              f" standings x{table:.1f}")  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main(QUICK_SIZES if "--quick" in sys.argv[1:] else SIZES))
