"""The weekly match: order, bonus points and the multiplier (R7.1-R7.5).

Expected values are worked by hand from docs/rules.md; each row's comment shows how.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.scoring import (
    RuleError,
    RuleSettings,
    bonus_applies,
    match_bonus,
    match_order,
    multiplier_after,
    next_multiplier,
)

T, F = True, False

# --- R7.1: order --------------------------------------------------------------


@pytest.mark.parametrize(
    ("mp", "tns", "ranks", "expected"),
    [
        pytest.param([10, 12, 8], [1, 1, 1], None, [1, 0, 2], id="R7.1 by MP"),
        pytest.param([10, 10, 8], [2, 3, 1], None, [1, 0, 2], id="R7.1 Case 1 MP tie by TNS"),
        pytest.param([10, 10, 8], [2, 2, 1], [5, 3, 1], [1, 0, 2], id="R7.1 still tied by rank"),
        # MP 9/9 split by TNS (3 > 2); MP 7/7 with equal TNS split by rank (1 < 4).
        pytest.param(
            [7, 9, 9, 7],
            [1, 2, 3, 1],
            [4, 3, 2, 1],
            [2, 1, 3, 0],
            id="R7.1 4p MP, TNS then rank",
        ),
        # TNS outranks rank: the better-ranked player with lower TNS is second.
        pytest.param(
            [6, 6], [Fraction(3, 2), Fraction(5, 2)], [1, 2], [1, 0], id="R7.1 TNS before rank"
        ),
        # MP outranks TNS.
        pytest.param([6, 7], [9, 1], [1, 2], [1, 0], id="R7.1 MP before TNS"),
    ],
)
def test_r7_1_match_order(
    mp: list[int], tns: list[float], ranks: list[int] | None, expected: list[int]
) -> None:
    assert match_order(mp, tns, ranks=ranks) == expected


def test_r7_2_no_part_player_with_mp_0_is_last() -> None:
    # R7.2 Decision: a player who took no part stays in the match with MP 0,
    # TNS 0; the present players are ordered by MP as usual.
    assert match_order([0, 6, 4], [0, 3, 2], took_part=[F, T, T]) == [1, 2, 0]


# --- R7.2: bonus points like a game ------------------------------------------------


@pytest.mark.parametrize(
    ("mp", "tns", "expected"),
    [
        # The document's example: 12 is not more than 10 + 8 -> 3-2-1.
        pytest.param([12, 10, 8], [1, 1, 1], [3, 2, 1], id="R7.2 doc 12-10-8: 3-2-1"),
        # 20 > 8 + 6 -> 4-2-0.
        pytest.param([20, 8, 6], [3, 2, 1], [4, 2, 0], id="R7.2 3p decisive 4-2-0"),
        pytest.param([8, 20, 6], [2, 3, 1], [2, 4, 0], id="R7.2 3p input order kept"),
        # 21 > 10 + 10 (the 10s split by TNS: index 2 second).
        pytest.param([21, 10, 10], [5, 1, 2], [4, 0, 2], id="R7.2 3p MP tie below"),
        # 2 players: tripling 15 >= 3 x 5 -> 4-0; 14 < 15 -> 3-1.
        pytest.param([15, 5], [2, 1], [4, 0], id="R7.2 2p triples 4-0"),
        pytest.param([14, 5], [2, 1], [3, 1], id="R7.2 2p short 3-1"),
        pytest.param([5, 15], [1, 2], [0, 4], id="R7.2 2p reversed 0-4"),
        # 4 players, 20/10/4/2: 20 > 14 (+1), 20 > 16 all three (+1), 10 > 6 (+1).
        pytest.param([20, 10, 4, 2], [4, 3, 2, 1], [5, 3, 1, 0], id="R7.2 4p 5-3-1-0"),
        # 12/10/7/2: 12 < 17 -> third; 10 > 9 -> second; 12 < 19 no extra.
        pytest.param([12, 10, 7, 2], [4, 3, 2, 1], [3, 3, 2, 0], id="R7.2 4p 3-3-2-0"),
        # 14/6/4/3: 14 > 10 (+1), 14 > 13 (+1 extra), 6 < 7 -> fourth.
        pytest.param([14, 6, 4, 3], [4, 3, 2, 1], [5, 2, 1, 1], id="R7.2 4p 5-2-1-1"),
        # 12/11/10/9: 12 < 21 -> third; 11 < 19 -> fourth; no extra.
        pytest.param([12, 11, 10, 9], [4, 3, 2, 1], [3, 2, 2, 1], id="R7.2 4p 3-2-2-1"),
        # 10/6/4/3: 10 = 6+4 (TNS 9 > 3+2 -> first), but 10 is not more than
        # 6+4+3 = 13: no extra point; 6 < 7 -> fourth.
        pytest.param([10, 6, 4, 3], [9, 3, 2, 1], [4, 2, 1, 1], id="R7.2 4p extra needs >"),
    ],
)
def test_r7_2_match_bonus(mp: list[int], tns: list[float], expected: list[int]) -> None:
    assert match_bonus(mp, tns) == expected


# --- R7.3: Case 2 and its exception ----------------------------------------------------


@pytest.mark.parametrize(
    ("mp", "tns", "expected"),
    [
        # 10 = 6 + 4 exactly. Winner's TNS 5 > 2 + 2 -> winner takes it: 4-2-0.
        pytest.param([10, 6, 4], [5, 2, 2], [4, 2, 0], id="R7.3 Case 2 winner TNS wins"),
        # Winner's TNS 3 is not > 2 + 1 -> the higher TNS of 2nd/3rd: second.
        pytest.param([10, 6, 4], [3, 2, 1], [3, 3, 0], id="R7.3 Case 2 to second"),
        # Winner's TNS 3 is not > 1 + 2 -> third has the higher TNS.
        pytest.param([10, 6, 4], [3, 1, 2], [3, 2, 1], id="R7.3 Case 2 to third"),
        # Winner's TNS equal to the sum is not "greater": 4.5 vs 2.0 + 2.5 -> to
        # the higher TNS of the two (6 MP 2.0 TNS vs 4 MP 2.5 TNS): third.
        pytest.param(
            [10, 6, 4],
            [Fraction(9, 2), 2, Fraction(5, 2)],
            [3, 2, 1],
            id="R7.3 Case 2 winner TNS = sum",
        ),
        # Scrambled input: winner is index 2.
        pytest.param([4, 6, 10], [1, 2, 3], [0, 3, 3], id="R7.3 Case 2 scrambled"),
        # Exception: 10 = 5 + 5, second and third tied on MP; by TNS (Case 1)
        # index 1 (3.0) is second, index 2 (2.0) third. Winner 4 is not > 5, so
        # the point goes to the one placed third: index 2, although index 1 has
        # the higher TNS.
        pytest.param([10, 5, 5], [4, 3, 2], [3, 2, 1], id="R7.3 exception to third"),
        # Same with the TNS swapped: index 2 is second, index 1 third.
        pytest.param([10, 5, 5], [4, 2, 3], [3, 1, 2], id="R7.3 exception swapped"),
        # Exception, but the winner's TNS 6 > 3 + 2: winner takes it.
        pytest.param([10, 5, 5], [6, 2, 3], [4, 0, 2], id="R7.3 exception winner TNS wins"),
    ],
)
def test_r7_3_case_2(mp: list[int], tns: list[float], expected: list[int]) -> None:
    assert match_bonus(mp, tns) == expected


@pytest.mark.parametrize(
    ("mp", "tns", "expected"),
    [
        # All-three extra point: 13 = 6+4+3 exactly; 13 > 6+4 (+1).
        # TNS 10 > 2+2+2 -> the extra point: 5; second 6 < 7 -> fourth.
        pytest.param(
            [13, 6, 4, 3], [10, 2, 2, 2], [5, 2, 1, 1], id="R7.3 Decision 4p extra by TNS"
        ),
        # Same MP, TNS 5 is not > 6: no extra point (it goes to nobody).
        pytest.param([13, 6, 4, 3], [5, 2, 2, 2], [4, 2, 1, 1], id="R7.3 Decision 4p no extra"),
        # Second vs third+fourth: 8 = 5+3. First 20 > 13 (+1), 20 > 16 (+1).
        # TNS 6 > 2 + 3 -> second takes it.
        pytest.param([20, 8, 5, 3], [9, 6, 2, 3], [5, 3, 1, 0], id="R7.3 Decision second by TNS"),
        # TNS 4 is not > 5 -> the higher TNS of third (2) and fourth (3): fourth.
        pytest.param([20, 8, 5, 3], [9, 4, 2, 3], [5, 2, 1, 1], id="R7.3 Decision to fourth"),
        # TNS 4 is not > 5 -> third (3) beats fourth (2) on TNS: third.
        pytest.param([20, 8, 5, 3], [9, 4, 3, 2], [5, 2, 2, 0], id="R7.3 Decision to third"),
        # Third and fourth tied on MP (4/4, third by TNS 2 > 1): 8 = 4+4, TNS
        # 3 is not > 3 -> the exception: the one placed fourth.
        pytest.param(
            [20, 8, 4, 4], [9, 3, 2, 1], [5, 2, 1, 1], id="R7.3 Decision exception fourth"
        ),
        # First vs second+third: 15 = 9+6, TNS 10 > 4+3 -> first; 15 < 17 no
        # extra; 9 > 6+2 -> second.
        pytest.param([15, 9, 6, 2], [10, 4, 3, 1], [4, 3, 1, 0], id="R7.3 Decision first by TNS"),
    ],
)
def test_r7_3_decision_four_player_equalities(
    mp: list[int], tns: list[float], expected: list[int]
) -> None:
    assert match_bonus(mp, tns) == expected


def test_r7_3_case_2_scrambled_input_point_to_higher_tns_of_the_two() -> None:
    # MP 9/5/4 with 9 = 5 + 4 exactly and no MP tie below: winner TNS 1.0 is
    # not > 5.0 + 4.0; the higher TNS of second (5.0) and third (4.0) is
    # second, who ends on 3. Input order puts the third first.
    assert match_bonus([4, 9, 5], [4, 1, 5]) == [0, 3, 3]


def test_r7_2_no_part_player_never_gets_bonus() -> None:
    # Degenerate night where everyone has MP 0 and TNS 0: ordered by rank,
    # 0 = 0 + 0 and TNS 0 is not > 0, second and third tied on MP -> the
    # extra point would go to the one placed third. That player took no part
    # (R7.2 Decision): they never receive bonus points, so it goes to nobody.
    mp, tns = [0, 0, 0], [0, 0, 0]
    assert match_bonus(mp, tns, ranks=[1, 2, 3]) == [3, 2, 1]
    assert match_bonus(mp, tns, ranks=[1, 2, 3], took_part=[T, T, F]) == [3, 2, 0]


def test_r7_2_no_part_player_in_a_four_player_match() -> None:
    # D took no part: MP 0, TNS 0. 12 = 6+6, TNS 10 > 4+3 -> first;
    # 12 = 6+6+0, TNS 10 > 7 -> extra; second 6 = 6+0, TNS 4 > 3+0 -> second.
    assert match_bonus([12, 6, 6, 0], [10, 4, 3, 0], took_part=[T, T, T, F]) == [5, 3, 1, 0]


@pytest.mark.parametrize(
    ("mp", "tns", "kwargs", "fragment"),
    [
        pytest.param([10], [1], {}, "2 to 4 players", id="R7.2 one player"),
        pytest.param([5, 4, 3, 2, 1], [1] * 5, {}, "2 to 4 players", id="R7.2 five players"),
        pytest.param([10, 5, 3], [1, 2], {}, "every player", id="R7.2 TNS missing"),
        pytest.param([10, 5, 3], [1] * 3, {"ranks": [1, 2]}, "every player", id="R7.1 ranks"),
        pytest.param([10, -5, 3], [1] * 3, {}, "cannot be negative", id="R7.2 negative MP"),
        pytest.param(
            [10, 5, 3], [1] * 3, {"took_part": [T, T]}, "took part", id="R7.2 took_part length"
        ),
    ],
)
def test_r7_bad_input(mp: list[int], tns: list[float], kwargs: dict, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as caught:
        match_bonus(mp, tns, **kwargs)
    assert isinstance(caught.value, RuleError)


# --- R7.2, R7.5: bonus from week 3 ----------------------------------------------------


@pytest.mark.parametrize(
    ("week", "expected"),
    [
        pytest.param(1, False, id="R7.2 week 1 no bonus"),
        pytest.param(2, False, id="R7.2 week 2 no bonus"),
        pytest.param(3, True, id="R7.2 week 3 bonus"),
        pytest.param(6, True, id="R7.2 week 6 bonus"),
        pytest.param(10, True, id="R7.2 week 10 bonus"),
    ],
)
def test_r7_2_bonus_applies(week: int, expected: bool) -> None:
    assert bonus_applies(week) is expected


def test_r7_5_bonus_start_week_is_a_setting() -> None:
    settings = RuleSettings(bonus_start_week=4)
    assert bonus_applies(3, settings) is False
    assert bonus_applies(4, settings) is True


# --- R7.4: multiplier -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "won", "lost", "expected"),
    [
        pytest.param(1, T, F, 2, id="R7.4 win 1->2"),
        pytest.param(1, F, T, 0, id="R7.4 lose 1->0"),
        pytest.param(1, F, F, 1, id="R7.4 stay 1->1"),
        pytest.param(2, T, F, 3, id="R7.4 win 2->3"),
        pytest.param(3, T, F, 3, id="R7.4 win at 3x stays 3"),
        pytest.param(0, F, T, 0, id="R7.4 lose at 0x stays 0"),
        pytest.param(0, T, F, 1, id="R7.4 win 0->1"),
        pytest.param(3, F, T, 2, id="R7.4 lose 3->2"),
    ],
)
def test_r7_4_next_multiplier(current: int, won: bool, lost: bool, expected: int) -> None:
    assert next_multiplier(current, won=won, lost=lost) == expected


@pytest.mark.parametrize(
    ("current", "fragment"),
    [
        pytest.param(4, "between 0 and 3", id="R7.4 current above 3"),
        pytest.param(-1, "between 0 and 3", id="R7.4 current below 0"),
    ],
)
def test_r7_4_next_multiplier_out_of_range(current: int, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        next_multiplier(current, won=False, lost=False)


def test_r7_4_cannot_both_win_and_lose() -> None:
    with pytest.raises(ValueError, match="both win and lose"):
        next_multiplier(1, won=True, lost=True)


@pytest.mark.parametrize(
    ("week", "current", "won", "lost", "expected"),
    [
        # Weeks 3-6 play at x1, whatever happens in weeks 2-5.
        pytest.param(2, 1, T, F, 1, id="R7.4 week 3 is x1"),
        pytest.param(4, 1, T, F, 1, id="R7.4 week 5 is x1 after a win"),
        pytest.param(5, 1, F, T, 1, id="R7.4 week 6 is x1 after a loss"),
        # Week 6 results set week 7: winners x2, losers x0, others x1.
        pytest.param(6, 1, T, F, 2, id="R7.4 week 6 winner plays week 7 at x2"),
        pytest.param(6, 1, F, T, 0, id="R7.4 week 6 loser plays week 7 at x0"),
        pytest.param(6, 1, F, F, 1, id="R7.4 week 6 others play week 7 at x1"),
        # Week 6 starts everyone at x1 whatever value is passed in.
        pytest.param(6, 3, T, F, 2, id="R7.4 week 6 starts at x1 not carried"),
        pytest.param(6, 0, F, F, 1, id="R7.4 week 6 stay from a stale 0 is x1"),
        # From week 7 it carries over.
        pytest.param(7, 2, T, F, 3, id="R7.4 week 7 winner at x2 -> x3"),
        pytest.param(7, 0, F, T, 0, id="R7.4 week 7 loser at x0 stays x0"),
        pytest.param(8, 3, T, F, 3, id="R7.4 clamped at x3"),
        pytest.param(8, 0, T, F, 1, id="R7.4 x0 winner climbs to x1"),
        pytest.param(9, 2, F, F, 2, id="R7.4 stay keeps x2"),
    ],
)
def test_r7_4_multiplier_after(
    week: int, current: int, won: bool, lost: bool, expected: int
) -> None:
    assert multiplier_after(week, current, won=won, lost=lost) == expected


def test_r7_5_multiplier_week_is_a_setting() -> None:
    # Multiplier from week 8: week 6 results still leave week 7 at x1, and
    # week 7 results set week 8 from x1.
    settings = RuleSettings(multiplier_start_week=8)
    assert multiplier_after(6, 1, won=True, lost=False, settings=settings) == 1
    assert multiplier_after(7, 1, won=True, lost=False, settings=settings) == 2
    assert multiplier_after(7, 1, won=False, lost=True, settings=settings) == 0
