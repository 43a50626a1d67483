"""Season statistics, worked by hand on tiny seasons (bot/rules/stats.py)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from bot.rules.stats import (
    GamePlayed,
    GroupMachines,
    NightPlace,
    Record,
    machine_stats,
    most_improved,
    moves,
    player_stats,
    records,
)

DAY = date(2026, 1, 7)
MACHINES = frozenset({"AFM", "MM", "TZ", "TAF", "MB", "TOM"})


def game(week: int, key: int, machine: str, player: str, score: int, points: int,
         source: str = "live", normalized: int | None = None) -> GamePlayed[str]:  # fmt: skip
    value = Fraction(score if normalized is None else normalized)
    return GamePlayed(week, DAY, key, machine, player, score, source, points, value)


def place(week: int, player: str, group: int, at: int, took_part: bool = True,
          mp: int = 10, pool: str = "") -> NightPlace[str]:  # fmt: skip
    return NightPlace(week, player, pool, group, at, took_part, mp)


# Week 1, group 1: A, B, C.  Game 1 (AFM): A 300 (3 points), B 200 (2), C 100 (0).
# Game 2 (AFM): B 500 (3), C 400 (2, a pre-makeup score, R3), A 50 (0).
# Game 3 (MM): B 200 (3); A absent under the Zero Point Rule (R3.4): 0 points.
GAMES = [
    game(1, 1, "AFM", "A", 300, 3), game(1, 1, "AFM", "B", 200, 2), game(1, 1, "AFM", "C", 100, 0),
    game(1, 2, "AFM", "B", 500, 3), game(1, 2, "AFM", "C", 400, 2, "pre_makeup"),
    game(1, 2, "AFM", "A", 50, 0),
    game(1, 3, "MM", "B", 200, 3), game(1, 3, "MM", "A", 0, 0, "zero_point"),
]  # fmt: skip

# Week 1: group 1 finishes A, B, C; group 2 D, E, F. R8.3: D swaps with C; A (top
# group's winner) and F (bottom group's loser) stay.
# Week 2: group 1 is A, B, D and finishes B, D, A; group 2 is C, E, F, C took no
# part (R8.4) and E, F finish in that order: E swaps with A.
PLACES = [
    place(1, "A", 1, 1), place(1, "B", 1, 2), place(1, "C", 1, 3),
    place(1, "D", 2, 1), place(1, "E", 2, 2), place(1, "F", 2, 3),
    place(2, "B", 1, 1), place(2, "D", 1, 2), place(2, "A", 1, 3),
    place(2, "E", 2, 1), place(2, "F", 2, 2), place(2, "C", 2, 3, took_part=False),
]  # fmt: skip


def test_r8_3_moves_up_and_down_follow_the_movement_rules() -> None:
    assert moves(PLACES) == {
        "A": (0, 1), "B": (0, 0), "C": (0, 1), "D": (1, 0), "E": (1, 0), "F": (0, 0),
    }  # fmt: skip


def test_r8_4_a_player_who_took_no_part_neither_moves_nor_wins() -> None:
    c = player_stats("C", PLACES, GAMES)
    assert (c.nights, c.group_wins, c.moves_up, c.moves_down) == (1, 0, 0, 1)


def test_record_counts_only_games_both_played_on_the_night() -> None:
    # A vs B: game 1 won (3 > 2), game 2 lost (0 < 3); game 3 A did not play.
    # A vs C: game 1 won; game 2 C's score was a pre-makeup, so they did not meet.
    assert records("A", GAMES) == {"B": Record(1, 1, 0), "C": Record(1, 0, 0)}
    assert records("B", GAMES) == {"A": Record(1, 1, 0), "C": Record(1, 0, 0)}


def test_equal_game_points_are_a_tie() -> None:
    tied = [game(1, 9, "TZ", "A", 10, 2), game(1, 9, "TZ", "B", 20, 2)]
    assert records("A", tied) == {"B": Record(0, 0, 1)}


def test_player_stats_by_hand() -> None:
    a = player_stats("A", PLACES, GAMES)
    assert (a.nights, a.group_wins) == (2, 1)  # won week 1's group 1
    # games taken part in: 1 and 2 (game 3 was the Zero Point Rule): (3 + 0) / 2
    assert (a.games, a.average_points) == (2, Fraction(3, 2))
    [afm] = a.machines  # MM was not played by A
    assert (afm.machine, afm.games, afm.best, afm.average_normalized) == ("AFM", 2, 300, 175)
    b = player_stats("B", PLACES, GAMES)
    assert (b.games, b.average_points) == (3, Fraction(8, 3))
    assert [(m.machine, m.best) for m in b.machines] == [("AFM", 500), ("MM", 200)]
    # records: most games first, then by name
    assert b.records == (("A", Record(1, 1, 0)), ("C", Record(1, 0, 0)))


def test_a_player_with_no_nights() -> None:
    z = player_stats("Z", PLACES, GAMES)
    assert (z.nights, z.games, z.average_points, z.machines, z.records) == (0, 0, None, (), ())


def test_machine_high_scores_and_average_count_played_games_only() -> None:
    afm = machine_stats("AFM", GAMES, [])
    # C's 400 was a pre-makeup score: not a high score of the night (pre-makeups never are)
    shown = [(h.player, h.score) for h in afm.high_scores]
    assert shown == [("B", 500), ("A", 300), ("B", 200), ("C", 100), ("A", 50)]
    assert afm.average == Fraction(300 + 200 + 100 + 500 + 50, 5)
    assert afm.games == 2
    assert machine_stats("TOM", GAMES, []).average is None


def test_high_scores_keep_five_and_an_earlier_night_wins_a_tie() -> None:
    many = [game(w, w, "TZ", f"P{w}", 100 if w in (2, 5) else w, 0) for w in range(1, 8)]
    top = machine_stats("TZ", many, []).high_scores
    assert [(h.player, h.score, h.week) for h in top] == [
        ("P2", 100, 2), ("P5", 100, 5), ("P7", 7, 7), ("P6", 6, 6), ("P4", 4, 4),
    ]  # fmt: skip


def test_r4_2_vetoed_when_working_and_not_played_repeated_per_extra_play() -> None:
    nights = [
        GroupMachines(1, MACHINES, ("AFM", "MM", "TZ", "TAF", "MB")),  # P = 6: TOM vetoed
        GroupMachines(1, MACHINES, ("AFM", "MM", "TZ", "TAF", "TOM")),  # MB vetoed
        GroupMachines(2, frozenset({"AFM", "MM"}), ("AFM", "AFM", "AFM", "MM", "MM")),  # P = 2
    ]
    assert (machine_stats("TOM", [], nights).vetoed, machine_stats("MB", [], nights).vetoed) == (
        1,
        1,
    )
    assert machine_stats("AFM", [], nights).repeated == 2  # played three times in one group
    assert machine_stats("MM", [], nights).repeated == 1
    assert machine_stats("TZ", [], nights).vetoed == 0  # not working in week 2: not vetoed


def n(week: int, player: str, value: int) -> GamePlayed[str]:
    return game(week, week * 10, "AFM", player, 1, 0, normalized=value)


def test_most_improved_is_the_biggest_rise_in_average_normalized_score() -> None:
    # 4 regular nights: weeks 1-2 against weeks 3-4.
    games = [n(1, "A", 1_000_000), n(3, "A", 1_500_000),  # +500,000
             n(2, "B", 2_000_000), n(4, "B", 2_200_000),  # +200,000
             n(1, "C", 500_000),  # no second half
             n(5, "D", 9_000_000), n(1, "D", 0)]  # week 5 is past the regular season  # fmt: skip
    best = most_improved(games, 4)
    assert best is not None and (best.player, best.before, best.after) == (
        "A",
        1_000_000,
        1_500_000,
    )


def test_most_improved_tie_goes_to_the_higher_second_half() -> None:
    games = [n(1, "A", 100), n(3, "A", 300), n(1, "B", 200), n(3, "B", 400)]
    best = most_improved(games, 4)
    assert best is not None and best.player == "B"


def test_nobody_improved() -> None:
    assert most_improved([n(1, "A", 300), n(3, "A", 100)], 4) is None
    assert most_improved([n(1, "A", 300)], 1) is None  # a one-night season has no halves
