"""What is at stake for a player, shown by /me: the race for A (R9.2), the
playoff race (R13.1), next week's multiplier (R7.4). The race for A is checked
against every history of the five weeks that count."""

from __future__ import annotations

import itertools

import pytest

from bot.scoring import (
    ARace,
    NextMultiplier,
    PlayoffRace,
    RuleError,
    RuleSettings,
    a_race,
    a_race_weeks,
    next_multipliers,
    playoff_race,
    qualifies_for_a,
)

W, S, D = "won", "stayed", "down"
HISTORIES = [
    (list(played), left)
    for size in range(6)
    for played in itertools.product((W, S, D), repeat=size)
    for left in range(6 - size)
]


def test_r9_2_the_race_for_a_agrees_with_every_way_the_weeks_left_can_go() -> None:
    """For every history of the five weeks (566 of them): 'qualified' when every
    way the weeks left go qualifies; 'out' when none does; else 'open', and the
    fewest wins and weeks not moved down any of them needs are exactly the race's."""
    for played, left in HISTORIES:
        outcomes = [played + list(rest) for rest in itertools.product((W, S, D), repeat=left)]
        qualifying = [o[len(played) :] for o in outcomes if qualifies_for_a(o)]
        race = a_race(played, left)
        assert race.left == left
        if len(qualifying) == len(outcomes):
            assert race == ARace("qualified", 0, 0, left), (played, left)
        elif not qualifying:
            assert race.state == "out", (played, left)
        else:
            assert race.state == "open", (played, left)
            wins = min(rest.count(W) for rest in qualifying)
            safe = min(len(rest) - rest.count(D) for rest in qualifying)
            assert (race.wins, max(race.wins, race.safe)) == (wins, safe), (played, left)


@pytest.mark.parametrize(
    ("played", "left", "expected"),
    [
        pytest.param([W, S, S], 2, ARace("open", 1, 1, 2), id="R9.2 one win in two"),
        pytest.param([W, W, S], 2, ARace("open", 0, 1, 2), id="R9.2 only not moving down"),
        pytest.param([W, D, S], 2, ARace("open", 1, 2, 2), id="R9.2 a win and no fall"),
        pytest.param([W, W, S, S], 1, ARace("qualified", 0, 0, 1), id="R9.2 already in"),
        pytest.param([D, D], 3, ARace("out", 2, 4, 3), id="R9.2 two falls: out"),
        pytest.param([S, S, S, S], 1, ARace("out", 2, 0, 1), id="R9.2 no wins, one week"),
        pytest.param([], 5, ARace("open", 2, 4, 5), id="R9.2 before the first week"),
    ],
)
def test_r9_2_the_race_for_a(played: list[str], left: int, expected: ARace) -> None:
    assert a_race(played, left) == expected


def test_r9_2_the_race_for_a_refuses_more_than_five_weeks_or_unknown_results() -> None:
    with pytest.raises(RuleError):
        a_race([W, W, W, W], 2)
    with pytest.raises(RuleError):
        a_race(["absent"], 1)
    with pytest.raises(RuleError):
        a_race([], -1)


@pytest.mark.parametrize(
    ("division_week", "weeks"),
    [(6, range(1, 6)), (8, range(3, 8)), (4, range(1, 4)), (1, range(1, 1))],
)
def test_r9_2_the_weeks_that_count_are_the_five_before_the_division_week(
    division_week: int, weeks: range
) -> None:
    assert a_race_weeks(division_week) == weeks


@pytest.mark.parametrize(
    ("points", "place", "spots", "expected"),
    [
        pytest.param([30, 25, 22, 19], 4, 3, PlayoffRace(4, 3, 3), id="R13.1 3 behind"),
        pytest.param([30, 25, 22, 19], 3, 3, PlayoffRace(3, 3, 3), id="R13.1 3 ahead"),
        pytest.param([30, 25, 22], 1, 3, PlayoffRace(1, 3, None), id="R13.1 nobody below"),
        pytest.param([30, 22, 22], 3, 2, PlayoffRace(3, 2, 0), id="R13.1 level on points"),
    ],
)
def test_r13_1_the_playoff_race(
    points: list[int], place: int, spots: int, expected: PlayoffRace
) -> None:
    assert playoff_race(points, place, spots) == expected


def test_r13_1_the_playoff_race_refuses_a_place_outside_the_division() -> None:
    with pytest.raises(RuleError):
        playoff_race([10, 5], 3, 2)
    with pytest.raises(RuleError):
        playoff_race([10, 5], 1, 0)


@pytest.mark.parametrize(
    ("week", "current", "expected"),
    [
        pytest.param(5, 1, None, id="R7.4 week 5: next week is still x1"),
        pytest.param(6, 1, NextMultiplier(2, 1, 0), id="R7.4 week 6 starts everyone at x1"),
        pytest.param(7, 3, NextMultiplier(3, 3, 2), id="R7.4 x3 stays at most x3"),
        pytest.param(8, 0, NextMultiplier(1, 0, 0), id="R7.4 x0 stays at least x0"),
        pytest.param(10, 2, None, id="R7.4 the last week: no next week"),
    ],
)
def test_r7_4_next_weeks_multiplier(
    week: int, current: int, expected: NextMultiplier | None
) -> None:
    assert next_multipliers(week, current, last_week=10) == expected


def test_r7_5_next_weeks_multiplier_follows_the_leagues_multiplier_week() -> None:
    later = RuleSettings(multiplier_start_week=9)
    assert next_multipliers(7, 1, last_week=12, settings=later) is None
    assert next_multipliers(8, 1, last_week=12, settings=later) == NextMultiplier(2, 1, 0)
