"""The standings of a season named by the commissioner (R9, R11.1): a
division asked of a past or running season is refused before any work when
that season has no divisions, and shown when it has."""

from __future__ import annotations

import pytest

from bot.database import Database
from bot.services import setup, standings
from bot.services.errors import BadInput
from bot.services.standings import NO_DIVISIONS
from tests.services.conftest import GUILD, add_machines, add_players
from tests.services.test_season import play_week


async def two_nights(db: Database, division_week: int) -> None:
    await setup.change_setting(db, GUILD, "regular_nights", 2)
    await setup.change_setting(db, GUILD, "division_week", division_week)
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
