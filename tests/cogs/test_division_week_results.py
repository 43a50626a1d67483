"""R9.1: the results post of the night before the division week tells the
league that divisions A and B start next week; the nights played in divisions
after it do not say so again."""

from __future__ import annotations

from bot.services import groups, membership
from tests.cogs.conftest import at
from tests.cogs.fakes import GUILD, FakeBot
from tests.cogs.league_play import NINE, divisions_from_week_2, night_of, play_week
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


async def test_r8_1_r9_4_a_division_of_four_plays_in_two_groups_of_two_every_week(
    league: FakeBot,
) -> None:
    """Nine players: division A holds four, cut 2 + 2 at the division week and
    again from each night's results after it; B's five are 3 + 2."""
    bot = league
    await divisions_from_week_2(bot, regular_nights=4)
    week_2 = await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    sizes = [(label, len(names)) for label, names in week_2.next_groups]
    assert sizes == [
        ("Division A · Group 1", 2), ("Division A · Group 2", 2),
        ("Division B · Group 1", 3), ("Division B · Group 2", 2),
    ]  # fmt: skip


async def test_r8_6_r9_4_a_division_recut_to_four_plays_in_two_groups_of_two(
    league: FakeBot,
) -> None:
    """P9 leaves division B before week 3: both divisions now hold four, and
    week 3 is recut 2 + 2 in each."""
    bot = league
    await divisions_from_week_2(bot, regular_nights=4)
    await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    await membership.remove_player(bot.db, GUILD, "P9", now=at(night_of(3), "09:00"))
    view = await groups.week_view(bot.db, GUILD, week=3, now=at(night_of(3), "10:00"))
    assert [(g.label, len(g.players)) for g in view.groups] == [
        ("Division A · Group 1", 2), ("Division A · Group 2", 2),
        ("Division B · Group 1", 2), ("Division B · Group 2", 2),
    ]  # fmt: skip
