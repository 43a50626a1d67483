"""Season statistics at their edges: the two-swap setting, players who moved
more than once, the order things are listed in, and the halves of a season."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from bot.rules.stats import (
    GamePlayed,
    Improvement,
    NightPlace,
    Record,
    machine_stats,
    most_improved,
    moves,
    night_moves,
    player_stats,
)

DAY = date(2026, 1, 7)


def game(week: int, key: int, machine: str, player: str, score: int, points: int,
         source: str = "live") -> GamePlayed[str]:  # fmt: skip
    return GamePlayed(week, DAY, key, machine, player, score, source, points, Fraction(score))


def place(week: int, player: str, group: int, at: int, mp: int = 10) -> NightPlace[str]:
    return NightPlace(week, player, "", group, at, True, mp)


# R8.5 with the setting at 12 MP: Y (11) and Z (5) are at most 12, P and Q (15)
# at least 12, so the 4-player group swaps two. At the default 10, only Z and P.
TWO_SWAP = [
    place(1, "X", 1, 1, 14), place(1, "Y", 1, 2, 11), place(1, "Z", 1, 3, 5),
    place(1, "P", 2, 1, 15), place(1, "Q", 2, 2, 15), place(1, "R", 2, 3, 10),
    place(1, "S", 2, 4, 0),
]  # fmt: skip


def test_r8_5_night_moves_follow_the_leagues_two_swap_setting() -> None:
    assert night_moves(TWO_SWAP, two_swap_match_points=12) == {
        (1, "X"): "stays", (1, "Y"): "down", (1, "Z"): "down",
        (1, "P"): "up", (1, "Q"): "up", (1, "R"): "stays", (1, "S"): "stays",
    }  # fmt: skip


def test_r8_5_moves_and_player_stats_follow_the_two_swap_setting() -> None:
    assert moves(TWO_SWAP, two_swap_match_points=12) == {
        "X": (0, 0), "Y": (0, 1), "Z": (0, 1), "P": (1, 0), "Q": (1, 0), "R": (0, 0), "S": (0, 0),
    }  # fmt: skip
    y = player_stats("Y", TWO_SWAP, [], two_swap_match_points=12)
    assert (y.moves_up, y.moves_down) == (0, 1)


def test_r8_3_moves_count_every_night() -> None:
    # G wins the bottom group in week 1 and the middle group in week 2: up twice.
    # C loses the top group in week 1 and the middle group in week 2: down twice.
    places = [
        place(1, "A", 1, 1), place(1, "B", 1, 2), place(1, "C", 1, 3),
        place(1, "D", 2, 1), place(1, "E", 2, 2), place(1, "F", 2, 3),
        place(1, "G", 3, 1), place(1, "H", 3, 2), place(1, "I", 3, 3),
        place(2, "A", 1, 1), place(2, "B", 1, 2), place(2, "D", 1, 3),
        place(2, "G", 2, 1), place(2, "E", 2, 2), place(2, "C", 2, 3),
        place(2, "F", 3, 1), place(2, "H", 3, 2), place(2, "I", 3, 3),
    ]  # fmt: skip
    counted = moves(places)
    assert (counted["G"], counted["C"], counted["D"]) == ((2, 0), (0, 2), (1, 1))
    g = player_stats("G", places, [])
    assert (g.moves_up, g.moves_down) == (2, 0)


def test_a_player_with_no_nights_never_moved() -> None:
    nobody = player_stats("N", TWO_SWAP, [])
    assert (nobody.moves_up, nobody.moves_down) == (0, 0)


def test_player_stats_list_machines_by_name_and_opponents_by_games_then_name() -> None:
    """Machines A to Z whatever the case; opponents by most games met, then by
    name whatever the case. A game the player did not play counts for nobody."""
    games = [
        game(1, 0, "afm", "zed", 300, 3), game(1, 0, "afm", "amy", 100, 1),  # not me
        game(1, 1, "Black Knight", "me", 100, 1), game(1, 1, "Black Knight", "Bob", 400, 3),
        game(1, 2, "afm", "me", 500, 4), game(1, 2, "afm", "zed", 100, 0),
        game(2, 3, "afm", "me", 200, 3), game(2, 3, "afm", "zed", 150, 2),
        game(2, 3, "afm", "amy", 100, 0),
    ]  # fmt: skip
    me = player_stats("me", [], games)
    assert [m.machine for m in me.machines] == ["afm", "Black Knight"]
    assert me.records == (
        ("zed", Record(2, 0, 0)),
        ("amy", Record(1, 0, 0)),
        ("Bob", Record(0, 1, 0)),
    )


def test_machine_high_scores_tied_on_the_same_night_go_by_name() -> None:
    games = [game(3, 1, "AFM", "zed", 500, 3), game(3, 2, "AFM", "Amy", 500, 3)]
    found = machine_stats("AFM", games, [])
    assert found.machine == "AFM"
    assert [(h.player, h.score, h.week, h.day) for h in found.high_scores] == [
        ("Amy", 500, 3, DAY),
        ("zed", 500, 3, DAY),
    ]


def improved(week: int, player: str | int, value: int, source: str = "live") -> GamePlayed:
    return GamePlayed(week, DAY, week * 100, "AFM", player, 1, source, 0, Fraction(value))


def test_most_improved_halves_of_ten_nights() -> None:
    """Weeks 1-5 against weeks 6-10; week 10 is the last regular night and
    counts, week 11 (playoffs) does not, nor does a pre-makeup score."""
    games = [
        improved(1, "A", 9_000, source="pre_makeup"),
        improved(5, "A", 100),
        improved(6, "A", 200),
        improved(10, "A", 300),
        improved(11, "A", 9_000),
    ]
    assert most_improved(games, 10) == Improvement("A", Fraction(100), Fraction(250))


@pytest.mark.parametrize("nights", [2, 3])
def test_most_improved_in_a_short_season(nights: int) -> None:
    # Two or three nights: week 1 is the first half.
    games = [improved(1, "A", 100), improved(nights, "A", 200)]
    assert most_improved(games, nights) == Improvement("A", Fraction(100), Fraction(200))


def test_most_improved_needs_a_rise_not_an_equal_average() -> None:
    assert most_improved([improved(1, "A", 100), improved(2, "A", 100)], 2) is None


def test_most_improved_tie_goes_by_the_players_key_as_text() -> None:
    # The bot passes player ids: on an equal rise and second half, the key as
    # text decides, and "10" comes before "9".
    games = [improved(1, 9, 100), improved(2, 9, 200), improved(1, 10, 100), improved(2, 10, 200)]
    best = most_improved(games, 2)
    assert best is not None and best.player == 10
