"""R9.1: the results post of the night before the division week tells the
league that divisions A and B start next week; the nights played in divisions
after it do not say so again."""

from __future__ import annotations

from tests.cogs.fakes import FakeBot
from tests.cogs.league_play import NINE, divisions_from_week_2, play_week
from tests.cogs.test_commissioner_cog import announced

STARTING = "Divisions A and B start next week."


async def test_r9_1_only_the_night_before_the_division_week_says_divisions_start(
    league: FakeBot,
) -> None:
    bot = league
    await divisions_from_week_2(bot, regular_nights=4)
    await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    await play_week(bot, 3, NINE, groups=("A1", "A2", "B1", "B2"))
    await bot.outbox.flush()
    results = {week: [p for p in announced(bot) if p.startswith(f"Week {week} results")]
               for week in (1, 2, 3)}  # fmt: skip
    assert all(len(posts) == 1 for posts in results.values()), results
    assert STARTING in results[1][0]
    assert STARTING not in results[2][0] and STARTING not in results[3][0]
    assert "Next week" in results[2][0]  # next week's groups are still listed
