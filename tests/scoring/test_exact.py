"""R6.1 Decision: normalized scores and their sums are exact, so the rules'
exact ties and "greater than" tests (R7.1, R7.3, R10.2, R11.1) hold.

The properties build ties by construction (W = X + Y game by game, equal pars,
permuted players, scaled pars) where binary floats would break them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.exact import exact, shown, total
from bot.scoring import (
    GameNight,
    GroupNight,
    PlayerNight,
    RuleError,
    SeasonLine,
    match_bonus,
    match_order,
    normalize,
    payout_candidate,
    score_group_night,
    season_standings,
    weekly_payout,
)

FEW = settings(max_examples=120, deadline=None)
M = 1_000_000


def _night(week: int, pars: list[int], scores: dict[str, list[int]], ranks: dict[str, int]):
    players = [PlayerNight(player=p, rank=ranks[p]) for p in scores]
    games = [
        GameNight(f"M{i + 1}", par, {p: scores[p][i] for p in scores}) for i, par in enumerate(pars)
    ]
    return GroupNight(week=week, players=players, games=games)


def test_r6_1_normalize_is_exact() -> None:
    assert normalize(1, 3) == Fraction(1_000_000, 3)
    assert isinstance(normalize(20 * M, 70 * M), Fraction)
    # A third plus two thirds is exactly one, as no binary float sum of them is promised to be.
    assert normalize(1, 3) + normalize(2, 3) == normalize(3, 3) == M


def test_r7_3_case2_the_issue_reproduction_gives_the_point_to_second() -> None:
    # Week 4; W (rank 1) scores exactly X + Y on every game. Every game goes
    # 3-2-1 (W = X + Y is not "more than combined", so third gets the point):
    # MP 15 / 10 / 5, MP1 = MP2 + MP3 (Case 2). TNS(W) = TNS(X) + TNS(Y)
    # exactly, which is not "more", so the point goes to X, who has the higher
    # TNS of second and third: bonus 3 / 3 / 0, TLP 18 / 13 / 5.
    pars = [30 * M, 70 * M, 3 * M, 90 * M, 7 * M]
    x = [20 * M, 13 * M, 19 * M, 20 * M, 15 * M]
    y = [19 * M, 4 * M, 11 * M, 1 * M, 14 * M]
    w = [a + b for a, b in zip(x, y, strict=True)]
    result = score_group_night(_night(4, pars, {"W": w, "X": x, "Y": y}, {"W": 1, "X": 2, "Y": 3}))
    assert result.match_points == {"W": 15, "X": 10, "Y": 5}
    assert result.tns["W"] == result.tns["X"] + result.tns["Y"]
    assert result.bonus_base == {"W": 3, "X": 3, "Y": 0}
    assert result.tlp == {"W": 18, "X": 13, "Y": 5}


pars_st = st.lists(st.integers(min_value=1, max_value=10**10), min_size=5, max_size=5)
score_st = st.integers(min_value=1, max_value=10**11)


@FEW
@given(pars=pars_st, data=st.data())
def test_r7_3_case2_winner_equal_to_the_others_combined_never_takes_the_point(
    pars: list[int], data: st.DataObject
) -> None:
    # R7.3 Case 2 by construction: W = X + Y on every game, X > Y, so every game
    # is 3-2-1 and TNS(W) = TNS(X) + TNS(Y) exactly: the point goes to second
    # or third by TNS, never to the winner, whatever the pars.
    x = data.draw(st.lists(st.integers(2, 10**11), min_size=5, max_size=5))
    y = [data.draw(st.integers(1, v - 1)) for v in x]
    w = [a + b for a, b in zip(x, y, strict=True)]
    result = score_group_night(_night(4, pars, {"W": w, "X": x, "Y": y}, {"W": 1, "X": 2, "Y": 3}))
    assert result.match_points == {"W": 15, "X": 10, "Y": 5}
    assert result.tns["W"] == result.tns["X"] + result.tns["Y"]
    assert result.bonus_base["W"] == 3
    to_second = result.tns["X"] > result.tns["Y"]
    assert (result.bonus_base["X"], result.bonus_base["Y"]) == ((3, 0) if to_second else (2, 1))


@FEW
@given(pars=pars_st, scale=st.integers(1, 1000), data=st.data())
def test_r7_1_case1_equal_tns_goes_to_rank_under_any_par_scaling(
    pars: list[int], scale: int, data: st.DataObject
) -> None:
    # R7.1: two players with equal MP and exactly equal TNS are ordered by rank.
    # A plays a then b on two machines, B plays b then a on two machines of
    # equal par: the same TNS, whatever the pars (scaled by any factor).
    a, b = data.draw(score_st), data.draw(score_st)
    par1, par2 = pars[0] * scale, pars[1] * scale
    tns_a = normalize(a, par1) + normalize(b, par1) + normalize(a, par2)
    tns_b = normalize(b, par1) + normalize(a, par1) + normalize(a, par2)
    assert tns_a == tns_b
    rank_a, rank_b = data.draw(st.permutations([1, 2]))
    order = match_order([8, 8], [tns_a, tns_b], ranks=[rank_a, rank_b])
    assert order == ([0, 1] if rank_a < rank_b else [1, 0])


@FEW
@given(data=st.data())
def test_r7_3_the_same_match_scored_in_any_player_order(data: st.DataObject) -> None:
    # R7.3 Case 2 with exact TNS: permuting the players permutes the bonus.
    x = data.draw(st.lists(st.integers(1, 10**6), min_size=3, max_size=3))
    y = data.draw(st.lists(st.integers(1, 10**6), min_size=3, max_size=3))
    pars = data.draw(st.lists(st.integers(1, 10**6), min_size=3, max_size=3))
    tx = total(normalize(s, p) for s, p in zip(x, pars, strict=True))
    ty = total(normalize(s, p) for s, p in zip(y, pars, strict=True))
    tns = [tx + ty, tx, ty]
    mp = [14, 9, 5]
    bonus = match_bonus(mp, tns, ranks=[1, 2, 3])
    assert bonus[0] == 3  # never "more than combined": Case 2 goes below
    perm = data.draw(st.permutations(range(3)))
    again = match_bonus([mp[i] for i in perm], [tns[i] for i in perm], ranks=[i + 1 for i in perm])
    assert again == [bonus[i] for i in perm]


@FEW
@given(pars=pars_st, data=st.data())
def test_r10_2_tlp_tie_with_exactly_equal_tns_goes_to_the_order_given(
    pars: list[int], data: st.DataObject
) -> None:
    # R10.2: equal TLP, then TNS; exactly equal TNS (built from the same
    # scores on permuted machines of equal par) falls to the order given.
    scores = data.draw(st.lists(score_st, min_size=3, max_size=3))
    par = pars[0]
    tns_1 = total(normalize(s, par) for s in scores)
    tns_2 = total(normalize(s, par) for s in reversed(scores))
    assert tns_1 == tns_2
    paid = weekly_payout(400, [("top", 15, tns_1), ("next", 15, tns_2)])
    assert paid == {"top": 300, "next": 100}
    paid = weekly_payout(400, [("next", 15, tns_2), ("top", 15, tns_1)])
    assert paid == {"next": 300, "top": 100}
    # One normalized point in a par's worth more wins the TNS tie-break.
    more = tns_2 + normalize(1, par * 10**6)
    assert weekly_payout(400, [("top", 15, tns_1), ("next", 15, more)]) == {"next": 300, "top": 100}


def test_r10_3_forfeit_replacement_ties_on_exact_tns_keep_match_order() -> None:
    # R10.3: the absent winner's replacement by TLP, then exact TNS, then order.
    tns = {"A": Fraction(10), "B": Fraction(1, 3) + Fraction(2, 3), "C": Fraction(1)}
    candidate = payout_candidate(["A", "B", "C"], {"A": 9, "B": 7, "C": 7}, tns, {"A"})
    assert candidate is not None and candidate.player == "B"


@FEW
@given(pars=st.lists(st.integers(1, 10**9), min_size=3, max_size=3), data=st.data())
def test_r11_1_season_tns_tie_goes_to_skill(pars: list[int], data: st.DataObject) -> None:
    # R11.1: equal league points and exactly equal season TNS (the same scores
    # over the weeks on machines in another order) fall to skill, then sign-up.
    scores = data.draw(st.lists(score_st, min_size=3, max_size=3))
    season_a = total(normalize(s, p) for s, p in zip(scores, pars, strict=True))
    season_b = total(normalize(s, p) for s, p in reversed(list(zip(scores, pars, strict=True))))
    assert season_a == season_b
    lines = [
        SeasonLine("A", 40, season_a, skill=4, signup=1),
        SeasonLine("B", 40, season_b, skill=7, signup=2),
    ]
    assert [s.line.player for s in season_standings(lines)] == ["B", "A"]


@pytest.mark.parametrize(
    ("value", "whole"),
    [(Fraction(1, 2), 1), (Fraction(3, 2), 2), (Fraction(2, 3), 1), (Fraction(1, 3), 0), (7, 7)],
)
def test_r6_1_values_are_rounded_only_when_shown(value: Fraction, whole: int) -> None:
    assert shown(value) == whole


@pytest.mark.parametrize("value", [True, "5", None, [1], 0.5, 1e6])
def test_r6_1_only_exact_numbers_are_normalized_scores(value: object) -> None:
    # R6.1 Decision: never a binary float, not even one that happens to be whole.
    with pytest.raises(RuleError, match="must be an exact number"):
        exact(value)  # type: ignore[arg-type]


def test_r6_1_exact_values_and_sums() -> None:
    assert type(exact(3)) is Fraction and exact(3) == 3
    third = Fraction(1, 3)
    assert exact(third) is third  # already exact: kept as it is
    # A night with no normalized score yet (or only Zero Point games) totals an exact 0.
    assert type(total([])) is Fraction and total([]) == 0
    assert total([third, third, third]) == 1
