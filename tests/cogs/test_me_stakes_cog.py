"""/me tells a player what is at stake in the weeks ahead: the race for
division A before the division week (R9.2), the playoff race over the last
three regular weeks (R13.1) and what next week's multiplier becomes (R7.4).
Only to the player themself, and never for a season that is over."""

from __future__ import annotations

from datetime import timedelta

from bot.scoring import ARace
from bot.services import membership, setup, standings
from cogs.standings.standings_cog import Standings
from cogs.standings.standings_text import a_race_line
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import GUILD, FakeBot, FakeMember, invoke
from tests.cogs.league_play import NINE, discord_id, divisions_from_week_2, night_of, play_week
from tests.moments import SETTING_AT

COG = Standings()
SIX = {n: score for n, score in NINE.items() if n <= 6}  # every game: P1 > P2 > … > P6


async def me(bot: FakeBot, number: int, week: int, **options: object) -> list[str]:
    """P<number>'s /me on the Monday before week `week`'s night."""
    when = at(night_of(week) - timedelta(days=2))
    member = PLAYERS.get(number) or FakeMember(discord_id(number), f"P{number}")
    said = await invoke(COG.me, COG, as_user(bot, member, when), **options)
    return said.text.splitlines()


async def nine_players(bot: FakeBot) -> FakeBot:
    """P7, P8 and P9 join: 9 players play in divisions from week 6 (R9.1)."""
    joined = at(FIRST_NIGHT - timedelta(days=2))
    for n in (7, 8, 9):
        await membership.add_player(bot.db, GUILD, f"P{n}", discord_id=discord_id(n),
                                    skill=11.0 - n, now=joined)  # fmt: skip
    return bot


async def test_r9_2_me_tells_each_player_what_they_need_to_qualify_for_a(league: FakeBot) -> None:
    """Weeks 1-5 count for A. Week 1 in three groups (P1 P2 P3 | P4 P5 P6 | P7
    P8 P9), each won by the lowest number: P1 won, P3 moved down."""
    bot = await nine_players(league)
    need = "Win your group in 2 of the next 5 weeks and don't move down in 2 of the other 3"
    assert f"{need} to qualify for division A." in await me(bot, 1, week=1)
    await play_week(bot, 1, NINE, groups=("1", "2", "3"))
    assert ("Win your group in 1 of the next 4 weeks and don't move down in 2 of the other 3 "
            "to qualify for division A.") in await me(bot, 1, week=2)  # fmt: skip
    assert ("Win your group in 2 of the next 4 weeks and don't move down in the other 2 "
            "to qualify for division A.") in await me(bot, 3, week=2)  # fmt: skip


async def test_r9_2_a_player_who_can_no_longer_qualify_is_told_how_a_fills(
    league: FakeBot,
) -> None:
    """With the division week at 3, only weeks 1 and 2 count: nobody can reach
    four weeks without moving down, and A is then filled by the standings (R9.3)."""
    bot = await nine_players(league)
    await setup.change_setting(bot.db, GUILD, "division_week", 3, now=SETTING_AT)
    assert ("You can no longer qualify for division A; if too few players qualify, the "
            "best-ranked others join it.") in await me(bot, 1, week=1)  # fmt: skip


async def test_r9_4_after_the_division_week_me_names_the_players_division(
    league: FakeBot,
) -> None:
    await divisions_from_week_2(league)
    shown = await me(league, 1, week=2)
    assert "You play in division A for the rest of the season." in shown
    assert not [line for line in shown if "qualify" in line]  # the race is run
    assert "You play in division B for the rest of the season." in await me(league, 9, week=2)


async def test_r9_1_fewer_than_eight_players_have_no_race_for_a(league: FakeBot) -> None:
    assert not [line for line in await me(league, 1, week=1) if "division" in line]


async def test_r9_1_a_season_that_ends_before_its_division_week_has_no_race_for_a(
    league: FakeBot,
) -> None:
    bot = await nine_players(league)
    await setup.change_setting(bot.db, GUILD, "regular_nights", 5, now=SETTING_AT)
    assert not [line for line in await me(bot, 1, week=1) if "division" in line]


async def test_r7_4_me_tells_what_next_weeks_multiplier_becomes(league: FakeBot) -> None:
    """The multiplier starts at week 3 here (R7.5): week 2 starts everyone at x1."""
    await setup.change_setting(league.db, GUILD, "multiplier_start_week", 3, now=SETTING_AT)
    assert not [line for line in await me(league, 1, week=1) if "multiplier is" in line]
    await play_week(league, 1, SIX)
    assert ("After week 2 your bonus multiplier is x2 if you win your group, x0 if you "
            "finish last, x1 otherwise.") in await me(league, 1, week=2)  # fmt: skip


async def test_r13_1_me_shows_the_playoff_race_over_the_last_three_weeks(
    league: FakeBot,
) -> None:
    """A 4-night season: the race shows from week 2. Six players send 2 to the
    playoffs (R13.1); the margins are the standings' own."""
    await setup.change_setting(league.db, GUILD, "regular_nights", 4, now=SETTING_AT)
    assert not [line for line in await me(league, 1, week=1) if "Playoffs" in line]
    await play_week(league, 1, SIX)
    rows = await standings.standings(league.db, GUILD)
    points = {row.player.name: row.league_points for row in rows}
    order = [row.player.name for row in rows]
    first, second, third = order[:3]
    ahead = points[second] - points[third]
    assert (f"Playoffs: in as it stands, 2nd of 2 spots, {ahead} points ahead of the first "
            "player out.") in await me(league, int(second[1:]), week=2)  # fmt: skip
    behind = points[second] - points[third]
    assert f"Playoffs: {behind} points behind the last playoff spot." in await me(
        league, int(third[1:]), week=2
    )
    assert ahead > 0 and first != second


async def test_what_is_at_stake_is_for_the_player_themself_only(league: FakeBot) -> None:
    await setup.change_setting(league.db, GUILD, "regular_nights", 3, now=SETTING_AT)
    own = await me(league, 1, week=1)
    assert [line for line in own if line.startswith("Playoffs:")]
    other = await me(league, 2, week=1, player=PLAYERS[1])
    assert not [line for line in other if line.startswith("Playoffs:")]


def test_r9_2_the_last_week_that_counts_reads_as_next_week() -> None:
    assert a_race_line(ARace("open", 1, 1, 1)) == (
        "Win your group next week to qualify for division A."
    )
    one = "Don't move down next week to qualify for division A."
    assert a_race_line(ARace("open", 0, 1, 1)) == one
    assert a_race_line(ARace("open", 0, 2, 2)) == (
        "Don't move down in each of the next 2 weeks to qualify for division A."
    )


async def test_r13_1_no_playoff_race_while_the_divisions_are_still_to_come(
    league: FakeBot,
) -> None:
    """Nine players, a 6-night season with divisions from week 6: the playoffs
    are per division, which do not exist yet, so weeks 4 and 5 show no race."""
    bot = await nine_players(league)
    await setup.change_setting(bot.db, GUILD, "regular_nights", 6, now=SETTING_AT)
    for week in (1, 2, 3):
        await play_week(bot, week, NINE, groups=("1", "2", "3"))
    shown = await me(bot, 1, week=4)
    assert not [line for line in shown if line.startswith("Playoffs:")]
    assert [line for line in shown if "qualify for division A" in line]
