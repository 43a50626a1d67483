"""The standings of a season named by the commissioner (R9, R11.1): a
division asked of a past or running season is refused before any work when
that season has no divisions, and shown when it has."""

from __future__ import annotations

import pytest

from bot.database import Database
from bot.services import setup, standings
from bot.services.errors import BadInput
from bot.services.standings import NO_DIVISIONS
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, add_machines, add_players
from tests.services.test_season import play_week


async def two_nights(db: Database, division_week: int) -> None:
    await setup.change_setting(db, GUILD, "regular_nights", 2, now=SETTING_AT)
    await setup.change_setting(db, GUILD, "division_week", division_week, now=SETTING_AT)
    await add_players(db, 10)
    await add_machines(db, 6)
    await play_week(db, 1)
    await play_week(db, 2)


async def test_r9_a_division_of_a_named_season_without_divisions_is_refused(
    league: Database,
) -> None:
    await two_nights(league, division_week=3)  # the season ends before its division week
    with pytest.raises(BadInput) as refused:
        await standings.check_standings(league, GUILD, division="A", season="Spring  2026")
    assert str(refused.value) == NO_DIVISIONS


async def test_r9_a_division_of_a_named_season_with_divisions_is_shown(league: Database) -> None:
    await two_nights(league, division_week=2)
    found = await standings.check_standings(league, GUILD, division="b", season="Spring 2026")
    assert found == "Spring 2026"
    rows = await standings.standings(league, GUILD, division="B", season="Spring 2026")
    assert rows and {r.division for r in rows} == {"B"}


async def test_r9_the_picture_of_a_division_is_refused_before_divisions(league: Database) -> None:
    """The standings picture's data of one division, asked before the season
    has divisions, is refused in the words /standings uses."""
    await two_nights(league, division_week=3)
    with pytest.raises(BadInput) as refused:
        await standings.points_by_week(league, GUILD, division="A")
    assert str(refused.value) == NO_DIVISIONS


async def test_r9_r11_1_the_picture_of_a_division_keeps_its_heading_and_weeks(
    league: Database,
) -> None:
    """One division's picture: its players under their division's heading,
    ranked within it, with the league points each made in each week."""
    await two_nights(league, division_week=2)
    whole = await standings.points_by_week(league, GUILD)
    mine = await standings.points_by_week(league, GUILD, division="B")
    assert mine.rows and {r.division for r in mine.rows} == {"B"}
    assert [r.rank for r in mine.rows] == list(range(1, len(mine.rows) + 1))
    assert [r.player for r in mine.rows] == [r.player for r in whole.rows if r.division == "B"]
    assert mine.weeks == whole.weeks == [1, 2]
    for row in mine.rows:
        assert sum(mine.points[row.player.id].values()) == row.league_points


@pytest.mark.parametrize("asked", ["C", "", " ", "AB", "a b"])
async def test_r9_a_division_other_than_a_or_b_is_refused(league: Database, asked: str) -> None:
    await two_nights(league, division_week=2)
    for call in (standings.standings, standings.points_by_week, standings.check_standings):
        with pytest.raises(BadInput) as refused:
            await call(league, GUILD, division=asked)
        assert str(refused.value) == "A division is A or B."


async def test_r9_standings_of_a_division_before_divisions_are_refused(league: Database) -> None:
    """Refused in the words /standings uses, whoever asks the service."""
    await two_nights(league, division_week=3)
    with pytest.raises(BadInput) as refused:
        await standings.standings(league, GUILD, division=" b ")
    assert str(refused.value) == NO_DIVISIONS
