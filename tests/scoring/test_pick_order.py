"""R4.3 lowest rank first, R4.5 games the bot filled, R11.2 game 1, and "unranked"."""

from __future__ import annotations

import pytest

from bot.scoring import (
    UNRANKED,
    filled_game_numbers,
    first_game_order,
    lowest_rank_first,
    pick_order,
    rank_of,
    resolve_picks,
)

MACHINES = ["AFM", "TAF", "TZ", "MM", "CV", "TOM", "FH", "WCS"]


@pytest.mark.parametrize(
    ("members", "ranks", "expected"),
    [
        pytest.param([1, 2, 3], {1: 2, 2: 9, 3: 5}, [2, 3, 1], id="R4.3 lowest rank first"),
        pytest.param([1, 2], {1: 1, 2: 2}, [2, 1], id="R4.3 two players"),
        pytest.param([1, 2, 3], {1: 4, 3: 7}, [2, 3, 1], id="R4.3 an unranked player picks first"),
        pytest.param(
            [5, 4, 3], {3: 1}, [5, 4, 3], id="R4.3 unranked players keep the group's order"
        ),
    ],
)
def test_r4_3_pick_order(members: list[int], ranks: dict[int, int], expected: list[int]) -> None:
    assert pick_order(members, ranks) == expected


def test_r4_3_and_r11_2_share_one_order() -> None:
    """The lowest rank picks first (R4.3) and starts game 1 (R11.2)."""
    members, ranks = ["Ann", "Bob", "Cy", "Dee"], {"Ann": 3, "Bob": 1, "Cy": 10}
    assert pick_order(members, ranks) == first_game_order(members, ranks) == [
        "Dee", "Cy", "Ann", "Bob"
    ]  # fmt: skip
    assert lowest_rank_first(members, ranks) == pick_order(members, ranks)


def test_unranked_is_below_every_rank() -> None:
    assert rank_of("Zed", {"Ann": 1}) == UNRANKED
    assert rank_of("Ann", {"Ann": 1}) == 1
    assert UNRANKED > 10**9


def test_r4_3_the_lowest_ranked_players_veto_wins() -> None:
    """P = 6, one veto: both players' first picks are single picks; the
    lowest-ranked player's (taken first, R4.3) is applied (R4.4)."""
    ranks = {"Ann": 1, "Bob": 2}
    picks = {"Ann": ["TZ"], "Bob": ["MM"]}
    order = pick_order(["Ann", "Bob"], ranks)
    result = resolve_picks(MACHINES[:6], [picks[p] for p in order])
    assert result.applied == ["MM"]


@pytest.mark.parametrize(
    ("p", "picks", "expected_games", "expected_numbers"),
    [
        # P = 3, k = 2 repeats, nobody picked: AFM and TAF are repeated (R4.5);
        # their second copies are games 2 and 4.
        pytest.param(3, [], ["AFM", "AFM", "TAF", "TAF", "TZ"], {2, 4}, id="R4.5 all filled"),
        # One repeat picked (TZ), one filled (AFM): only AFM's copy was filled.
        pytest.param(
            3, [["TZ"]], ["AFM", "AFM", "TAF", "TZ", "TZ"], {2}, id="R4.5 one picked, one filled"
        ),
        pytest.param(3, [["TZ", "TAF"]], ["AFM", "TAF", "TAF", "TZ", "TZ"], set(),
                     id="R4.5 nothing filled"),
        # P = 1, k = 4: the one machine is played five times, four filled.
        pytest.param(1, [], ["AFM"] * 5, {2, 3, 4, 5}, id="R4.5 one machine"),
        # Vetoes the bot fills remove games: no game exists because of them.
        pytest.param(7, [], ["TZ", "MM", "CV", "TOM", "FH"], set(), id="R4.5 filled vetoes"),
    ],
)  # fmt: skip
def test_r4_5_filled_game_numbers(
    p: int, picks: list[list[str]], expected_games: list[str], expected_numbers: set[int]
) -> None:
    resolution = resolve_picks(MACHINES[:p], picks)
    assert resolution.games == expected_games
    assert filled_game_numbers(resolution) == expected_numbers
