"""Forming divisions at the division week with the league's own settings
(R9.1, R9.2): the fewest players for divisions is the league's setting, taken
at its edge, and a player's last five weeks put them in A however they rank."""

from __future__ import annotations

import pytest

from bot.database import Database
from bot.services import setup
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, add_machines, add_players
from tests.services.test_season import play_week


def pools(summary_groups: list[tuple[str, list[str]]]) -> dict[str, set[str]]:
    """Next week's players by division ('' : no divisions)."""
    found: dict[str, set[str]] = {}
    for label, names in summary_groups:
        pool = label.split(" · ")[0].removeprefix("Division ") if " · " in label else ""
        found.setdefault(pool, set()).update(names)
    return found


@pytest.mark.parametrize(("fewest", "divided"), [(9, True), (10, True), (11, False)])
async def test_r9_1_divisions_need_the_leagues_fewest_players(
    league: Database, fewest: int, divided: bool
) -> None:
    """Ten players: divisions form when the setting is 10 or fewer, not at 11
    (the rules' usual 8 would form them either way)."""
    await setup.change_setting(league, GUILD, "division_week", 2, now=SETTING_AT)
    await setup.change_setting(league, GUILD, "division_min_players", fewest, now=SETTING_AT)
    await add_players(league, 10)
    await add_machines(league, 6)
    week_1 = await play_week(league, 1)
    assert week_1.divisions_formed is divided
    assert set(pools(week_1.next_groups)) == ({"A", "B"} if divided else {""})


async def test_r9_2_five_good_weeks_put_a_low_ranked_player_in_a(league: Database) -> None:
    """P10, last in the standings, won two of the five weeks before the
    division week and never moved down: P10 qualifies for A, and A's other
    places go by standings (R9.3), so P2 (fifth) goes to B."""
    await add_players(league, 10)
    await add_machines(league, 6)
    for week in range(1, 5):
        await play_week(league, week)
    async with league.transaction() as conn:  # P10's weeks 1-4 as if won twice, never down
        await conn.execute(
            "UPDATE night_results SET week_result = CASE n.week WHEN 1 THEN 'won'"
            " WHEN 2 THEN 'won' ELSE 'stayed' END FROM nights n"
            " WHERE n.id = night_results.night_id AND player_id = 10"
        )
    week_5 = await play_week(league, 5)  # the division week is 6
    assert week_5.divisions_formed
    assert pools(week_5.next_groups) == {
        "A": {"P1", "P7", "P5", "P4", "P10"},
        "B": {"P2", "P9", "P3", "P8", "P6"},
    }
