"""Game points, pre-makeup limits, the Zero Point Rule and normalized scores.

R5.1-R5.5, R3.3, R3.4, R3.6, R3.7, R6.1-R6.2. Every expected value is worked
by hand from docs/rules.md; the working is in each row's comment.
"""

from __future__ import annotations

import pytest

from bot.scoring import (
    RuleError,
    TiedScoresError,
    default_par,
    finishing_order,
    game_points,
    normalize,
)

T, F = True, False


# --- R5.1-R5.3: live games ---------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # The document's own examples.
        pytest.param([90, 30], [4, 0], id="R5.1 doc 90-30 triples: 4-0"),
        pytest.param([80, 30], [3, 1], id="R5.1 doc 80-30 short of triple: 3-1"),
        # 30 is exactly 3 x 10: "s1 >= 3 x s2" takes the point.
        pytest.param([10, 30], [0, 4], id="R5.1 exactly triple 30 vs 10 input reversed: 0-4"),
        pytest.param([29, 10], [3, 1], id="R5.1 one short of triple 29 vs 10: 3-1"),
        pytest.param([5, 0], [4, 0], id="R5.1 penalty zero second: 5 >= 0 triples: 4-0"),
    ],
)
def test_r5_1_two_players(scores: list[int], expected: list[int]) -> None:
    assert game_points(scores) == expected


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        pytest.param([60, 30, 20], [4, 2, 0], id="R5.2 doc 60 > 30+20: 4-2-0"),
        pytest.param([40, 30, 20], [3, 2, 1], id="R5.2 doc 40 < 30+20: 3-2-1"),
        # 50 is not MORE than 30 + 20: the point goes to third.
        pytest.param([50, 30, 20], [3, 2, 1], id="R5.2 exactly equal 50 = 30+20: 3-2-1"),
        pytest.param([51, 30, 20], [4, 2, 0], id="R5.2 one more 51 > 50: 4-2-0"),
        # Input order is kept: the winner is the middle entry.
        pytest.param([30, 60, 20], [2, 4, 0], id="R5.2 winner in the middle: 2-4-0"),
        pytest.param([20, 30, 40], [1, 2, 3], id="R5.2 ascending input: 1-2-3"),
    ],
)
def test_r5_2_three_players(scores: list[int], expected: list[int]) -> None:
    assert game_points(scores) == expected


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # 100 > 30+20 -> first +1; 30 > 20+10 is false (equal) -> fourth +1.
        pytest.param([100, 30, 20, 10], [4, 2, 1, 1], id="R5.3 4-2-1-1"),
        # 100 > 50+20 -> first +1; 50 > 20+10 -> second +1.
        pytest.param([100, 50, 20, 10], [4, 3, 1, 0], id="R5.3 4-3-1-0"),
        # 60 < 50+20 -> third +1; 50 > 30 -> second +1.
        pytest.param([60, 50, 20, 10], [3, 3, 2, 0], id="R5.3 3-3-2-0"),
        # 40 < 30+20 -> third +1; 30 = 20+10 not more -> fourth +1.
        pytest.param([40, 30, 20, 10], [3, 2, 2, 1], id="R5.3 3-2-2-1"),
        # Scrambled input of the 4-3-1-0 game.
        pytest.param([20, 100, 10, 50], [1, 4, 0, 3], id="R5.3 scrambled input 1-4-0-3"),
    ],
)
def test_r5_3_four_players(scores: list[int], expected: list[int]) -> None:
    assert game_points(scores) == expected


# --- R3.3: a pre-makeup score never earns a beating point --------------------


@pytest.mark.parametrize(
    ("scores", "pre_makeup", "expected"),
    [
        # 60 > 30+20 but first is a pre-makeup: the 4th point goes to nobody.
        pytest.param([60, 30, 20], [T, F, F], [3, 2, 0], id="R3.3 pre-makeup first: 3-2-0"),
        # Keeping it close is earned normally by a pre-makeup third.
        pytest.param([40, 30, 20], [F, F, T], [3, 2, 1], id="R3.3 pre-makeup third keeps close"),
        # A live first still beats a pre-makeup second and third.
        pytest.param([60, 30, 20], [F, T, T], [4, 2, 0], id="R3.3 live first beats pre-makeups"),
        # Tripling by a pre-makeup: point to nobody.
        pytest.param([90, 30], [T, F], [3, 0], id="R3.3 pre-makeup tripling: 3-0"),
        # Live player triples a pre-makeup: earned.
        pytest.param([90, 30], [F, T], [4, 0], id="R3.3 live triples pre-makeup: 4-0"),
        # Pre-makeup second keeps it close in a 2-player game: earned.
        pytest.param([80, 30], [F, T], [3, 1], id="R3.3 pre-makeup second keeps close: 3-1"),
        # 4 players: 100 > 50+20 (first, live: +1); 50 > 20+10 by a pre-makeup
        # second: that point goes to nobody.
        pytest.param(
            [100, 50, 20, 10], [F, T, F, F], [4, 2, 1, 0], id="R3.3 pre-makeup second 4-2-1-0"
        ),
        # Both beating points blocked.
        pytest.param(
            [100, 50, 20, 10], [T, T, F, F], [3, 2, 1, 0], id="R3.3 both beaters pre-makeup"
        ),
        # Pre-makeup fourth keeps it close: 30 = 20+10 -> fourth +1.
        pytest.param(
            [100, 30, 20, 10], [F, F, F, T], [4, 2, 1, 1], id="R3.3 pre-makeup fourth keeps close"
        ),
    ],
)
def test_r3_3_pre_makeup_beating_point_goes_to_nobody(
    scores: list[int], pre_makeup: list[bool], expected: list[int]
) -> None:
    assert game_points(scores, pre_makeup=pre_makeup) == expected


# --- R3.4, R3.6: absent players -------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "absent", "expected"),
    [
        # R3.4: no pre-makeup, counts as 0 for placing: 50 > 30+0 -> 4-2-0.
        pytest.param([50, 30, None], [F, F, T], [4, 2, 0], id="R3.4 3p absent None: 4-2-0"),
        pytest.param([None, 50, 30], [T, F, F], [0, 4, 2], id="R3.4 3p absent first in input"),
        pytest.param([50, 30, 0], [F, F, T], [4, 2, 0], id="R3.4 3p absent scored as 0"),
        # 4 players: 50 < 40+30 -> third +1; 40 > 30+0 -> second +1.
        pytest.param([50, 40, 30, None], [F, F, F, T], [3, 3, 2, 0], id="R3.4 4p absent: 3-3-2-0"),
        # R5.4 exception: two Zero Point entries share last place, 0 each;
        # 50 > 0+0 -> first +1.
        pytest.param(
            [50, None, None], [F, T, T], [4, 0, 0], id="R3.4 R5.4 two Zero Point entries share last"
        ),
        # R3.6: past the limit, the absent player's pre-makeup (40) still places
        # the others: 60 < 40+30 -> third +1, so 3-x-1; the absent player gets 0.
        pytest.param([60, 40, 30], [F, T, F], [3, 0, 1], id="R3.6 3p scored against pre-makeup"),
        # 100 > 40+30 -> first 4; absent second 0; third 0.
        pytest.param([100, 40, 30], [F, T, F], [4, 0, 0], id="R3.6 3p beats pre-makeup"),
        # Absent pre-makeup would win: places 1st but gets 0; 70 < 50+30 -> third +1.
        pytest.param([50, 70, 30], [F, T, F], [2, 0, 1], id="R3.6 3p absent would have won"),
        # R3.6 2 players: scored as if present. 100 < 3x40 -> second's point, but
        # the absent player receives 0.
        pytest.param([100, 40], [F, T], [3, 0], id="R3.6 2p not tripled: 3-0"),
        pytest.param([120, 40], [F, T], [4, 0], id="R3.6 2p tripled: 4-0"),
        # 40 >= 3 x 30 is false: second (live, 30) keeps it close.
        pytest.param([30, 40], [F, T], [1, 0], id="R3.6 2p loses to the pre-makeup: 1-0"),
    ],
)
def test_r3_4_r3_6_absent(
    scores: list[int | None], absent: list[bool], expected: list[int]
) -> None:
    assert game_points(scores, absent=absent) == expected


@pytest.mark.parametrize(
    ("score", "par", "expected"),
    [
        pytest.param(49_999_999, 50_000_000, 3, id="R3.7 below par: 3"),
        pytest.param(50_000_000, 50_000_000, 4, id="R3.7 exactly par: 4"),
        pytest.param(900_000_000, 50_000_000, 4, id="R3.7 above par: 4"),
        pytest.param(0, 1_000_000_000, 3, id="R3.7 scored 0 still 3"),
    ],
)
def test_r3_7_two_player_absent_without_pre_makeup(score: int, par: int, expected: int) -> None:
    assert game_points([score, None], absent=[F, T], par=par) == [expected, 0]
    assert game_points([None, score], absent=[T, F], par=par) == [0, expected]


def test_r3_7_needs_a_par() -> None:
    with pytest.raises(ValueError, match="par"):
        game_points([50_000_000, None], absent=[F, T])


# --- R5.4: ties ----------------------------------------------------------------


@pytest.mark.parametrize(
    "scores",
    [
        pytest.param([50, 50, 20], id="R5.4 tie for first"),
        pytest.param([60, 20, 20], id="R5.4 tie for second"),
        pytest.param([40, 40], id="R5.4 2p tie"),
        pytest.param([90, 30, 30, 10], id="R5.4 4p tie middle"),
    ],
)
def test_r5_4_equal_scores_raise_tied_scores(scores: list[int]) -> None:
    with pytest.raises(TiedScoresError, match="tied") as caught:
        game_points(scores)
    assert isinstance(caught.value, RuleError)
    assert isinstance(caught.value, ValueError)
    assert "commissioner" in str(caught.value)


def test_r5_4_tied_scores_error_names_the_tied_entries() -> None:
    with pytest.raises(TiedScoresError) as caught:
        game_points([60, 20, 20])
    assert set(caught.value.tied) == {1, 2}


@pytest.mark.parametrize(
    ("scores", "tie_break", "expected"),
    [
        # Entry 1 recorded above entry 0: places 1, 0, 2 on 50/50/20;
        # 50 < 50+20 -> third +1.
        pytest.param([50, 50, 20], [1, 0, 2], [2, 3, 1], id="R5.4 recorded order 1 above 0"),
        pytest.param([50, 50, 20], [0, 1, 2], [3, 2, 1], id="R5.4 recorded order 0 above 1"),
        # 2 players tied: 40 >= 3x40 is false -> second +1.
        pytest.param([40, 40], [1, 0], [1, 3], id="R5.4 2p recorded order"),
        # 60 > 20+20 -> first +1; the tie between 20s decides 2 vs 0.
        pytest.param([60, 20, 20], [0, 2, 1], [4, 0, 2], id="R5.4 tie for second resolved"),
    ],
)
def test_r5_4_tie_break_resolves(
    scores: list[int], tie_break: list[int], expected: list[int]
) -> None:
    assert game_points(scores, tie_break=tie_break) == expected


@pytest.mark.parametrize(
    ("scores", "tie_break", "expected"),
    [
        pytest.param([50, 50, 20], [1, 0, 2], [1, 0, 2], id="R5.4 finishing order 1 above 0"),
        pytest.param([10, 30, 20], None, [1, 2, 0], id="R5 finishing order highest first"),
    ],
)
def test_r5_finishing_order(
    scores: list[int], tie_break: list[int] | None, expected: list[int]
) -> None:
    assert finishing_order(scores, tie_break) == expected


def test_r5_4_finishing_order_refuses_tie() -> None:
    with pytest.raises(TiedScoresError, match="record who placed higher"):
        finishing_order([70, 70, 10])


# --- R5.5: penalties -------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # A penalty 0 is placed like any score (last): 50 > 20+0 -> 4-2-0.
        pytest.param([50, 0, 20], [4, 0, 2], id="R5.5 penalty zero placed last 3p"),
        # 4 players: 50 = 30+20 not more -> third +1; 30 > 20+0 -> second +1.
        pytest.param([50, 30, 20, 0], [3, 3, 2, 0], id="R5.5 penalty zero 4p"),
        # The penalized player would have won; with 0 they are last.
        pytest.param([0, 40, 30], [0, 4, 2], id="R5.5 penalized winner drops last"),
    ],
)
def test_r5_5_penalty_zero_placed_like_any_score(scores: list[int], expected: list[int]) -> None:
    assert game_points(scores) == expected


def test_r5_5_two_penalty_zeros_with_recorded_order_get_place_points() -> None:
    # R5.5: a penalty 0 is "placed like any score"; R5.4: equal raw scores are
    # placed by the commissioner's recorded order (the exception is only for
    # Zero Point entries, R3.4). Entry 1 recorded above entry 2: places
    # 30 / 0 / 0 -> 3-2-0, and 30 > 0+0 -> first +1: 4-2-0.
    assert game_points([30, 0, 0], tie_break=[0, 1, 2]) == [4, 2, 0]


def test_r5_4_two_penalty_zeros_need_a_recorded_order() -> None:
    # R5.4: equal raw scores cannot be placed until the commissioner records
    # the order; its exception covers Zero Point entries (absent, R3.4) only,
    # and two live penalty zeros (R5.5) are not Zero Point entries.
    with pytest.raises(TiedScoresError, match="Scores are tied at 0; the commissioner must record"):
        game_points([30, 0, 0])


# --- Bad input -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        pytest.param({"scores": [100]}, "2 to 4 players", id="R5 one score"),
        pytest.param({"scores": [5, 4, 3, 2, 1]}, "2 to 4 players", id="R5 five scores"),
        pytest.param({"scores": []}, "2 to 4 players", id="R5 no scores"),
        pytest.param({"scores": [100, -5, 20]}, "cannot be negative", id="R5 negative score"),
        pytest.param({"scores": [100, 12.5, 20]}, "whole number", id="R5 fractional score"),
        pytest.param({"scores": [100, "50", 20]}, "whole number", id="R5 text score"),
        pytest.param({"scores": [100, True]}, "whole number", id="R5 bool score"),
        pytest.param({"scores": [100, None, 20]}, "absent", id="R3.4 None for a present player"),
        pytest.param(
            {"scores": [100, 50], "pre_makeup": [True]}, "one per player", id="R3.3 flags length"
        ),
        pytest.param(
            {"scores": [100, 50], "absent": [True, False, False]},
            "one per player",
            id="R3.4 absent length",
        ),
        pytest.param(
            {"scores": [50, 50], "tie_break": [0]}, "one entry per player", id="R5.4 tie order len"
        ),
    ],
)
def test_r5_bad_input_raises_rule_error(kwargs: dict, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as caught:
        game_points(**kwargs)
    assert isinstance(caught.value, RuleError)


# --- R6: normalized scores and par ----------------------------------------------


@pytest.mark.parametrize(
    ("raw", "par", "expected"),
    [
        pytest.param(1_000_000_000, 1_000_000_000, 1_000_000, id="R6.1 AFM 1B at par"),
        pytest.param(50_000_000, 50_000_000, 1_000_000, id="R6.1 TAF 50M at par"),
        pytest.param(25_000_000, 50_000_000, 500_000, id="R6.1 TAF half par"),
        pytest.param(3_000_000_000, 1_000_000_000, 3_000_000, id="R6.1 AFM triple par"),
        pytest.param(0, 50_000_000, 0, id="R6.1 zero"),
        pytest.param(1, 4, 250_000, id="R6.1 tiny par"),
    ],
)
def test_r6_1_normalize(raw: int, par: int, expected: int) -> None:
    assert normalize(raw, par) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("raw", "par", "fragment"),
    [
        pytest.param(100, 0, "par must be a positive", id="R6.1 zero par"),
        pytest.param(100, -5, "par must be a positive", id="R6.1 negative par"),
        pytest.param(100, 2.5, "par must be a positive", id="R6.1 fractional par"),
        pytest.param(-1, 100, "cannot be negative", id="R6.1 negative raw"),
    ],
)
def test_r6_1_normalize_bad_input(raw: int, par: object, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        normalize(raw, par)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        pytest.param([30_000_000, 10_000_000, 20_000_000], 20_000_000, id="R6.2 odd count median"),
        pytest.param([10, 40, 20, 30], 25, id="R6.2 even count: mean of middle two"),
        pytest.param([7_000_000], 7_000_000, id="R6.2 single score"),
        pytest.param([5, 5, 900], 5, id="R6.2 median not mean"),
    ],
)
def test_r6_2_default_par_is_median(scores: list[int], expected: int) -> None:
    assert default_par(scores) == expected


def test_r6_2_no_pre_makeups_no_par() -> None:
    assert default_par([]) is None


def test_r6_2_default_par_rejects_bad_scores() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        default_par([100, -1, 50])
