"""Edge cases of R3-R8 that mutation testing of bot/rules/ showed were unchecked.

Each case sits exactly on a boundary docs/rules.md draws (an exact equality, a
largest or smallest accepted value, a penalty beside a Zero Point entry) and is
worked by hand from docs/rules.md; the working is in each row's comment or id.
TNS values are ints or exact `Fraction`s (R6.1 Decision: normalized scores are
exact), and every result compared is points, which are whole numbers.
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from bot.scoring import (
    PRE_MAKEUP,
    GameNight,
    GroupNight,
    PlayerNight,
    RuleError,
    RuleSettings,
    TiedScoresError,
    cut_groups,
    default_par,
    game_points,
    group_sizes,
    league_nights,
    match_bonus,
    missed_game,
    multiplier_after,
    next_groups,
    normalize,
    payout_candidate,
    pre_makeup_nights_left,
    score_group_night,
    seed_groups,
)

T, F = True, False
MAX_SCORE = 10**13  # the largest raw score the bot accepts (bot/rules/games.py)


# --- R5.5 Decision: a penalty 0 ranks above every Zero Point entry ------------------


@pytest.mark.parametrize(
    ("scores", "absent", "expected"),
    [
        # Places: 50, the penalty 0 (present), the Zero Point entry (R3.4) last.
        # 3-2-0; 50 > 0 + 0 -> first +1: 4-2-0. The penalized player keeps 2.
        pytest.param([0, None, 50], [F, T, F], [2, 0, 4], id="R5.5 penalty 0 above Zero Point"),
        # Same game, the Zero Point entry listed first: the order does not come
        # from the input.
        pytest.param(
            [None, 0, 50], [T, F, F], [0, 2, 4], id="R5.5 Zero Point listed before penalty"
        ),
        # The Zero Point entry given as a score of 0 (R3.4: "counts as 0").
        pytest.param([0, 0, 50], [F, T, F], [2, 0, 4], id="R5.5 penalty 0 beside absent 0"),
        # 4 players: places 50, 30, penalty 0, Zero Point. 3-2-1-0;
        # 50 > 30 + 0 -> first +1; 30 > 0 + 0 -> second +1: 4-3-1-0.
        pytest.param(
            [0, None, 50, 30], [F, T, F, F], [1, 0, 4, 3], id="R5.5 4p penalty third, ZP last"
        ),
        # Places: 40, penalty 0, Zero Point, Zero Point (sharing last, R5.4).
        # 3-2-1-0; 40 > 0 + 0 -> first +1; second 0 is not > 0 + 0 -> fourth's
        # point, but fourth is a Zero Point entry and gets 0 (R3.4): 4-2-0-0.
        pytest.param(
            [0, None, None, 40],
            [F, T, T, F],
            [2, 0, 0, 4],
            id="R5.5 R3.4 penalty 0 above two Zero Point entries",
        ),
    ],
)
def test_r5_5_penalty_zero_ranks_above_zero_point_entries(
    scores: list[int | None], absent: list[bool], expected: list[int]
) -> None:
    assert game_points(scores, absent=absent) == expected


def test_r5_5_two_penalty_zeros_beside_a_zero_point_entry_are_a_tie() -> None:
    # R5.5 Decision: two present players on 0 need the commissioner's order
    # (R5.4); the Zero Point entry beside them is not part of that tie.
    with pytest.raises(TiedScoresError) as caught:
        game_points([0, 0, None, 40], absent=[F, F, T, F])
    assert sorted(caught.value.tied) == [0, 1]


# --- R3.4, R3.7: 2-player games with absent players ------------------------------------


def test_r3_4_two_zero_point_entries_in_a_two_player_game_get_nothing() -> None:
    # R3.4: each missed game with no pre-makeup gives 0 points; R3.7 only pays
    # an opponent who played, and neither did: 0-0, no par needed.
    assert game_points([None, None], absent=[T, T]) == [0, 0]


def test_r3_7_r3_3_pre_makeup_at_par_against_absent_gets_three() -> None:
    # R3.7: 3 points, or 4 at par or above; but the player is scored from a
    # pre-makeup (R3.2), and R3.3 says a pre-makeup never earns first's 4th
    # point: 60 >= par 50 still gives 3.
    assert game_points([60, None], pre_makeup=[T, F], absent=[F, T], par=50) == [3, 0]


# --- R7.2/R7.3: exact equalities settled by TNS -----------------------------------------


@pytest.mark.parametrize(
    ("tns", "expected"),
    [
        # MP 18/8/6/4: 18 > 8 + 6 -> first +1; 8 < 6 + 4 -> fourth +1;
        # 18 = 8 + 6 + 4 exactly -> TNS: 5 > 1 + 2 + 3/2 = 9/2 -> the extra
        # point (R7.3 Decision): 3+1+1, 2, 1, 0+1.
        pytest.param([5, 1, 2, Fraction(3, 2)], [5, 2, 1, 1], id="R7.3 4p MP equal, TNS takes it"),
        # Winner's TNS exactly 9/2 = 1 + 2 + 3/2 is not greater: no extra point.
        pytest.param(
            [Fraction(9, 2), 1, 2, Fraction(3, 2)], [4, 2, 1, 1], id="R7.3 4p TNS equal too: no"
        ),
        # Winner's TNS 4 < 9/2: no extra point.
        pytest.param([4, 1, 2, Fraction(3, 2)], [4, 2, 1, 1], id="R7.3 4p TNS short: no"),
    ],
)
def test_r7_3_four_player_extra_point_on_exactly_equal_mp(
    tns: list[int | Fraction], expected: list[int]
) -> None:
    assert match_bonus([18, 8, 6, 4], tns) == expected


@pytest.mark.parametrize(
    ("mp", "tns", "expected"),
    [
        # 10 = 6 + 4 exactly; winner TNS 3 is not > 2 + 2. Second and third
        # (not tied on MP) are tied on TNS, so neither has "the higher TNS";
        # the point falls back to the game rule's default, third (R5.2
        # "else to third"): 3-2-1.
        pytest.param([10, 6, 4], [3, 2, 2], [3, 2, 1], id="R7.3 2nd and 3rd equal TNS: third"),
        # Same, input scrambled.
        pytest.param([4, 10, 6], [2, 3, 2], [1, 3, 2], id="R7.3 equal TNS scrambled: third"),
        # 4 players, second's test: 20 > 8 + 5 -> first +1; 20 > 16 -> extra;
        # 8 = 5 + 3 exactly, second's TNS 4 is not > 2 + 2, third and fourth
        # equal on TNS -> the game default, fourth (R5.3): 5-2-1-1.
        pytest.param(
            [20, 8, 5, 3], [9, 4, 2, 2], [5, 2, 1, 1], id="R7.3 Decision 3rd and 4th equal TNS"
        ),
    ],
)
def test_r7_3_equal_tns_below_the_winner(
    mp: list[int], tns: list[int], expected: list[int]
) -> None:
    assert match_bonus(mp, tns) == expected


def test_r7_1_negative_tns_is_refused() -> None:
    # R6.1: normalized = raw x 1,000,000 / par, raw >= 0 and par > 0: a TNS
    # below 0 cannot come from any night.
    with pytest.raises(RuleError, match="cannot be negative"):
        match_bonus([10, 5, 3], [1, -1, 0])


# --- R7.4: the clamp is the settings' range ---------------------------------------------


@pytest.mark.parametrize(
    ("week", "current", "won", "lost", "expected"),
    [
        # multiplier_max 2: a week-7 winner at x2 stays x2 (not x3).
        pytest.param(7, 2, T, F, 2, id="R7.4 R7.5 winner clamped at a max of 2"),
        # multiplier_min 1: a week-6 loser starts from x1 and stays x1 (not x0).
        pytest.param(6, 1, F, T, 1, id="R7.4 R7.5 week-6 loser clamped at a min of 1"),
        # Inside the range it still moves: week-7 loser at x2 -> x1.
        pytest.param(7, 2, F, T, 1, id="R7.4 R7.5 loser inside the range moves down"),
    ],
)
def test_r7_4_multiplier_clamped_to_the_league_range(
    week: int, current: int, won: bool, lost: bool, expected: int
) -> None:
    settings = RuleSettings(multiplier_min=1, multiplier_max=2)
    assert multiplier_after(week, current, won=won, lost=lost, settings=settings) == expected


# --- R8.1/R8.2: week 1 of a league of exactly 4 -------------------------------------------


def test_r8_1_r8_2_week_1_league_of_four_is_one_group_of_four() -> None:
    # R8.1 for the league: 4 // 3 = 1 group of 3, 4 mod 3 = 1 makes that
    # bottom group 4. R8.2: ordered by rating, 9, unrated (5.5), 4, 2.
    # (The 2 + 2 of R8.1 is for a division, R9; a league under 8 players has
    # none, R9.1.)
    players = [("A", 2), ("B", 9), ("C", None), ("D", 4)]
    assert group_sizes(4) == [4]
    assert cut_groups(list("ABCD")) == [list("ABCD")]
    assert seed_groups(players) == [["B", "C", "D", "A"]]


def test_r8_3_league_of_four_nobody_moves() -> None:
    # R8.3: one group is the top group (its winner stays) and the bottom group
    # (its loser stays): next week is the same four.
    result = next_groups([list("ABCD")], [list("DCBA")], {p: 8 for p in "ABCD"})
    assert [set(g) for g in result] == [set("ABCD")]


# --- R8.5: the two-swap boundary ---------------------------------------------------------


def test_r8_5_two_swap_with_all_four_on_exactly_10() -> None:
    # Up: D 10 and E 10 ("at least 10"); down: B 10 and C 10 ("no more than
    # 10"): two swap. [A, D, E] and [B, C, F, G].
    mp = {"A": 16, "B": 10, "C": 10, "D": 10, "E": 10, "F": 8, "G": 6}
    result = next_groups([list("ABC"), list("DEFG")], [list("ABC"), list("DEFG")], mp)
    assert [set(g) for g in result] == [set("ADE"), set("BCFG")]


def test_r8_5_two_swap_never_takes_the_top_groups_winner() -> None:
    # C took no part (keeps group 1, R8.4). Group 1's present last two are
    # B and A, but A is the top group's winner, who stays (R8.3): one swap,
    # B down and D up, although D 12, E 12 >= 10 and A, B <= 10.
    mp = {"A": 10, "B": 8, "C": 0, "D": 12, "E": 12, "F": 8, "G": 6}
    result = next_groups([list("ABC"), list("DEFG")], [list("AB"), list("DEFG")], mp)
    assert [set(g) for g in result] == [set("ACD"), set("BEFG")]


def test_r8_5_two_swap_never_takes_the_bottom_groups_loser() -> None:
    # F and G took no part. Of the present D, E, E is last, and the bottom
    # group's loser stays (R8.3): one swap, D up and C down.
    mp = {"A": 16, "B": 8, "C": 8, "D": 12, "E": 12, "F": 0, "G": 0}
    result = next_groups([list("ABC"), list("DEFG")], [list("ABC"), list("DE")], mp)
    assert [set(g) for g in result] == [set("ABD"), set("CEFG")]


# --- Boundaries: the largest score, par = 1, the default par ------------------------------


def test_r5_largest_accepted_score_is_scored() -> None:
    # 10^13 >= 3 x 1: the tripling point (R5.1): 4-0.
    assert game_points([MAX_SCORE, 1]) == [4, 0]


def test_r5_one_more_than_the_largest_score_is_refused() -> None:
    with pytest.raises(RuleError, match="larger than any pinball machine"):
        game_points([MAX_SCORE + 1, 1])


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # R6.1: raw x 1,000,000 / 1.
        pytest.param(3, 3_000_000, id="R6.1 par 1: 3 -> 3,000,000"),
        pytest.param(MAX_SCORE, 10**19, id="R6.1 par 1, largest score -> 10^19"),
    ],
)
def test_r6_1_par_of_one_is_accepted(raw: int, expected: int) -> None:
    assert normalize(raw, 1) == expected


def test_r3_7_par_of_one() -> None:
    # R3.7: 4 points when the raw score is at least par: 1 >= 1; 0 < 1 -> 3.
    assert game_points([1, None], absent=[F, T], par=1) == [4, 0]
    assert game_points([0, None], absent=[F, T], par=1) == [3, 0]


@pytest.mark.parametrize(
    ("scores", "allowed"),
    [
        # R6.2: the median of 10 and 11 is 10.5; a par is a whole score
        # (R6.1), so it is 10 or 11. (docs/rules.md's R6.2 Decision takes the
        # even one; this row checks only that the par is whole.)
        pytest.param([10, 11], {10, 11}, id="R6.2 even count, half median -> whole par"),
        pytest.param([10, 13, 5, 40], {11, 12}, id="R6.2 unsorted, median 11.5 -> whole par"),
        # Median 0 (all zeros) cannot be a par: R6.1 divides by it. The
        # smallest whole par is 1.
        pytest.param([0, 0, 0], {1}, id="R6.2 median 0 -> par 1"),
        pytest.param([0, 1], {1}, id="R6.2 median 1/2 -> par 1"),
        pytest.param([1], {1}, id="R6.2 median 1 -> par 1"),
    ],
)
def test_r6_2_default_par_is_a_whole_positive_score(scores: list[int], allowed: set[int]) -> None:
    par = default_par(scores)
    assert isinstance(par, int)
    assert par in allowed


# --- Beyond match/games/groups: gaps the same run showed in the night and money rules ----


def night_of(
    week: int, players: list[PlayerNight], rows: dict[str, list[int | None]]
) -> GroupNight:
    """A group night on machines M1, M2, … at par 1,000,000 (normalized = raw, R6.1)."""
    games = [
        GameNight(machine=f"M{i + 1}", par=1_000_000, scores={p: s[i] for p, s in rows.items()})
        for i in range(len(next(iter(rows.values()))))
    ]
    return GroupNight(week=week, players=players, games=games)


def test_r7_1_night_still_tied_goes_by_season_rank() -> None:
    # M1 300/100: 300 >= 3 x 100 -> A 4-0. M2 100/300 -> B 4-0. MP 4 = 4,
    # TNS 400 = 400: by rank, B (rank 1) wins although A is listed first.
    # Week 3 bonus (R7.2): 4 is not >= 3 x 4 -> 3-1, B 3 and A 1.
    players = [PlayerNight("A", 2), PlayerNight("B", 1)]
    result = score_group_night(night_of(3, players, {"A": [300, 100], "B": [100, 300]}))
    assert result.match_points == {"A": 4, "B": 4}
    assert result.order == ("B", "A")
    assert (result.winner, result.loser) == ("B", "A")
    assert result.bonus_base == {"A": 1, "B": 3}


def test_r2_3_late_player_who_played_is_not_absent() -> None:
    # B is late (R2.3): misses M1, scored from the pre-makeup 200 (R3.2):
    # 300 is not >= 3 x 200 -> A 3, B 1. Plays M2 live: 400 >= 3 x 100 ->
    # B 4. B played a game, so B is not absent (R2.4) and took part.
    players = [
        PlayerNight("A", 1),
        PlayerNight("B", 2, attendance="late", pre_makeups={"M1": 200}),
    ]
    result = score_group_night(night_of(1, players, {"A": [300, 100], "B": [None, 400]}))
    assert result.match_points == {"A": 3, "B": 5}
    assert result.absent == frozenset()
    assert result.took_part == {"A", "B"}
    assert result.pre_makeup_games == {"A": (), "B": (1,)}


def test_r5_3_four_player_group_night() -> None:
    # One game, 100/50/20/10: 100 > 50 + 20 -> first +1; 50 > 20 + 10 ->
    # second +1: 4-3-1-0. Week 1: no bonus (R7.2).
    players = [PlayerNight(p, r) for r, p in enumerate("ABCD", start=1)]
    result = score_group_night(night_of(1, players, {"A": [100], "B": [50], "C": [20], "D": [10]}))
    assert result.match_points == {"A": 4, "B": 3, "C": 1, "D": 0}
    assert result.bonus_base == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_r8_1_five_player_group_night_is_refused() -> None:
    players = [PlayerNight(p, r) for r, p in enumerate("ABCDE", start=1)]
    # R8.1: a group has 2 to 4 players; the night is refused before any game
    # is scored (a game of 5 would be refused too, with another message).
    with pytest.raises(RuleError, match="group has 2 to 4 players"):
        score_group_night(night_of(1, players, {p: [10 * r] for r, p in enumerate("ABCDE", 1)}))


@pytest.mark.parametrize(
    ("used", "left"),
    [
        pytest.param(2, 1, id="R3.5 two nights used, one left"),
        pytest.param(3, 0, id="R3.5 three nights used, none left"),
    ],
)
def test_r3_5_three_pre_makeup_nights_a_season(used: int, left: int) -> None:
    assert pre_makeup_nights_left(used) == left


def test_r3_5_granted_night_lets_the_pre_makeup_count() -> None:
    # R3.5: the commissioner granted a 4th night; with 3 used, the pre-makeup
    # still scores normally (R3.2), not under R3.6.
    player = PlayerNight(
        "A", 1, pre_makeups={"M1": 500}, pre_makeup_nights_used=3, pre_makeup_night_limit=4
    )
    assert missed_game(player, "M1") == (500, PRE_MAKEUP)


def test_r10_3_stand_in_tied_on_tlp_goes_by_tns() -> None:
    # R10.3: A (winner) was absent; B and C both have TLP 9, and R10.2 settles
    # a TLP tie by TNS: C's 3 beats B's 2, although B finished above C.
    candidate = payout_candidate(
        ["A", "B", "C"], {"A": 14, "B": 9, "C": 9}, {"A": 5, "B": 2, "C": 3}, {"A"}
    )
    assert candidate is not None
    assert (candidate.player, candidate.tlp) == ("C", 9)


def test_r1_1_season_of_one_night() -> None:
    # R1.1: N = 1 regular night is a season: the first Wednesday on or after
    # the start (15 Sep 1999 is a Wednesday).
    assert league_nights(date(1999, 9, 15), "Wednesday", 1) == [date(1999, 9, 15)]


def test_r1_1_season_starting_after_the_league_weekday() -> None:
    # R1.1: the first night is the first Wednesday on or after the start;
    # from Thursday 16 Sep 1999 that is the next week's, 22 Sep.
    assert league_nights(date(1999, 9, 16), "Wednesday", 2) == [
        date(1999, 9, 22),
        date(1999, 9, 29),
    ]
