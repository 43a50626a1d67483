"""R5.5: a present player on 0 (a penalty, R12.2) against Zero Point entries (R3.4).

A present 0 is placed above every Zero Point entry of the game; two or more
present players on 0 need the commissioner's order like any tie (R5.4)."""

from __future__ import annotations

import pytest

from bot.rules.night import GameNight, GroupNight, PlayerNight, score_group_night
from bot.scoring import TiedScoresError, finishing_order, game_points

F, T = False, True


@pytest.mark.parametrize(
    ("scores", "absent", "expected"),
    [
        # 50 / present 0 / Zero Point: 3-2-0, and 50 > 0+0 gives first +1: 4-2-0.
        pytest.param([0, None, 50], [F, T, F], [2, 0, 4], id="R5.5 present 0 above Zero Point 3p"),
        # An absent player's 0 with no pre-makeup is a Zero Point entry too (R3.4).
        pytest.param([None, 0, 50], [T, F, F], [0, 2, 4], id="R5.5 absent first in input"),
        pytest.param([0, 0, 50], [T, F, F], [0, 2, 4], id="R5.5 absent 0 is the Zero Point one"),
        # 4 players: 60 / 40 / present 0 / Zero Point: 3-2-1-0; 60 > 40+0: first +1;
        # 40 > 0+0: second +1.
        pytest.param(
            [60, 0, None, 40], [F, F, T, F], [4, 1, 0, 3], id="R5.5 present 0 third of four"
        ),
        # Two Zero Point entries share last (R5.4 exception) and get 0; the present 0
        # is second: 3-2-1-0, 50 > 0+0: first +1; 0 > 0+0 fails: fourth's point
        # goes to a Zero Point entry, which gets 0 (R3.4).
        pytest.param(
            [None, 50, None, 0], [T, F, T, F], [0, 4, 0, 2],
            id="R5.5 present 0 above two Zero Point entries",
        ),
    ],
)  # fmt: skip
def test_r5_5_a_present_zero_is_placed_above_every_zero_point_entry(
    scores: list[int | None], absent: list[bool], expected: list[int]
) -> None:
    assert game_points(scores, absent=absent) == expected


def test_r5_5_finishing_order_puts_the_present_zero_before_the_zero_point_entry() -> None:
    assert finishing_order([0, 0, 50], zero_point=[True, False, False]) == [2, 1, 0]


def test_r5_5_two_present_zeros_in_four_need_the_commissioners_order() -> None:
    with pytest.raises(TiedScoresError) as raised:
        game_points([0, 60, 0, 50])
    assert raised.value.tied == (0, 2)
    # With a Zero Point entry as well: only the present zeros are tied.
    with pytest.raises(TiedScoresError) as raised:
        game_points([0, None, 0, 50], absent=[F, T, F, F])
    assert raised.value.tied == (0, 2)


def test_r5_5_two_present_zeros_in_four_with_a_recorded_order_are_scored() -> None:
    # Entry 2 recorded above entry 0: 60 / 50 / 0 / 0 -> 3-2-1-0; 60 > 50+0: first +1;
    # 50 > 0+0: second +1.
    assert game_points([0, 60, 0, 50], tie_break=[1, 0, 0, 0]) == [0, 4, 1, 3]
    # With a Zero Point entry: 50 / present 0 (recorded higher) / present 0 / Zero Point.
    # 3-2-1-0; 50 > 0+0: first +1; 0 > 0+0 fails: fourth's point goes to the absent
    # entry, which gets 0 (R3.4).
    assert game_points([0, None, 0, 50], absent=[F, T, F, F], tie_break=[1, 0, 0, 0]) == [
        1, 0, 2, 4,
    ]  # fmt: skip


@pytest.mark.parametrize("par", [1, 1_000_000_000])
def test_r5_5_r3_7_a_present_zero_against_a_zero_point_entry_in_two(par: int) -> None:
    # Two players, the absent one with no pre-makeup score: R3.7, not placing.
    # The present player's 0 is below any par, so 3 points.
    assert game_points([0, None], absent=[F, T], par=par) == [3, 0]
    assert game_points([None, 0], absent=[T, F], par=par) == [0, 3]


def test_r5_5_r3_7_needs_a_par_even_for_a_present_zero() -> None:
    with pytest.raises(ValueError, match="par"):
        game_points([0, None], absent=[F, T])


@pytest.mark.parametrize(
    ("limit_pre_makeup", "finish", "points"),
    [
        # Past the limit with a pre-makeup of 0: a Zero Point entry, last (R3.4),
        # below B's penalty 0 (R5.5): 500 / 0 / ZP: 3-2-0, 500 > 0+0: first +1.
        pytest.param(0, ("A", "B", "C"), {"A": 4, "B": 2, "C": 0}, id="pre-makeup 0"),
        # With a pre-makeup of 100 the others are scored against it (R3.6): 500 /
        # 100 / B's 0: 3-2-0 +1 for first, and C's 2 go to nobody (0 for C).
        pytest.param(100, ("A", "B", "C"), {"A": 4, "B": 0, "C": 0}, id="pre-makeup 100"),
    ],
)
def test_r3_6_r5_5_a_penalty_0_against_a_player_past_the_pre_makeup_limit(
    limit_pre_makeup: int, finish: tuple[str, ...], points: dict[str, int]
) -> None:
    """The night is scored, not refused as a tie: a present player's penalty 0
    and the 0 of a player past the pre-makeup limit are not equal places."""
    past_limit = PlayerNight(
        "C", 3, attendance="absent", pre_makeups={"M1": limit_pre_makeup, "M2": 100},
        pre_makeup_nights_used=3,
    )  # fmt: skip
    rows = {"A": [500, 500], "B": [0, 300]}
    games = [
        GameNight(machine, 1000, {player: s[i] for player, s in rows.items()})
        for i, machine in enumerate(["M1", "M2"])
    ]
    night = score_group_night(GroupNight(2, [PlayerNight("A", 1), PlayerNight("B", 2), past_limit],
                                         games))  # fmt: skip
    assert night.games[0].finish == finish
    assert night.games[0].points == points
