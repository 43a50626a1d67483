"""Dues, weekly payouts and season prizes (R10.1-R10.4). Amounts in cents."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.scoring import (
    PayoutCandidate,
    PrizeSplit,
    RuleError,
    payout_candidate,
    season_prizes,
    split_dues,
    weekly_payout,
)

# --- R10.1: dues ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        pytest.param(1, (300, 300), id="R10.1 one player $6: $3 + $3"),
        pytest.param(3, (900, 900), id="R10.1 three players $18"),
        pytest.param(7, (2100, 2100), id="R10.1 seven players $42"),
        pytest.param(0, (0, 0), id="R10.1 nobody"),
    ],
)
def test_r10_1_half_to_pot_half_to_fund(players: int, expected: tuple[int, int]) -> None:
    assert split_dues(players * 600) == expected


@pytest.mark.parametrize(
    ("total", "expected"),
    [
        pytest.param(601, (300, 301), id="R10.1 odd cent to the fund"),
        pytest.param(3 * 333, (499, 500), id="R10.1 three players $3.33"),
    ],
)
def test_r10_1_odd_total_splits_into_whole_cents(total: int, expected: tuple[int, int]) -> None:
    pot, fund = split_dues(total)
    assert (pot, fund) == expected
    assert type(pot) is int and type(fund) is int


def test_r10_1_negative_dues() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        split_dues(-600)


# --- R10.2: weekly payout -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pot", "winners", "expected"),
    [
        # 75% of 2100 = 1575, 25% = 525.
        pytest.param(
            2100,
            [("Ann", 20, Fraction(31, 10)), ("Bob", 24, 2), ("Cy", 18, 9)],
            {"Bob": 1575, "Ann": 525},
            id="R10.2 highest TLP 75 next 25",
        ),
        # TLP 20 = 20: Bob's TNS 3.5 beats Ann's 3.1.
        pytest.param(
            2000,
            [("Ann", 20, Fraction(31, 10)), ("Bob", 20, Fraction(7, 2)), ("Cy", 18, 9)],
            {"Bob": 1500, "Ann": 500},
            id="R10.2 TLP tie by TNS",
        ),
        # TLP beats TNS: Cy's huge TNS does not help with the lower TLP.
        pytest.param(
            1200,
            [("Ann", 15, 1), ("Bob", 16, 1), ("Cy", 14, 99)],
            {"Bob": 900, "Ann": 300},
            id="R10.2 TLP before TNS",
        ),
        # 1001: 750.75 / 250.25 -> the odd cent goes to the first: 751 / 250.
        pytest.param(
            1001, [("Ann", 12, 1), ("Bob", 10, 1)], {"Ann": 751, "Bob": 250},
            id="R10.2 odd cent to first 1001",
        ),
        # 1003: 752.25 / 250.75 -> whole cents 752 / 250, the odd cent to first.
        pytest.param(
            1003, [("Ann", 12, 1), ("Bob", 10, 1)], {"Ann": 753, "Bob": 250},
            id="R10.2 odd cent to first 1003",
        ),
        pytest.param(
            900, [("Ann", 10, 1), ("Bob", 12, 1)], {"Bob": 675, "Ann": 225},
            id="R10.2 three players' pot $9",
        ),
    ],
)  # fmt: skip
def test_r10_2_weekly_payout(
    pot: int, winners: list[tuple[str, int, float]], expected: dict[str, int]
) -> None:
    paid = weekly_payout(pot, winners)
    assert paid == expected
    assert sum(paid.values()) == pot


def test_r10_2_accepts_payout_candidates() -> None:
    winners = [PayoutCandidate("Ann", 9, 2), PayoutCandidate("Bob", 11, 1)]
    assert weekly_payout(400, winners) == {"Bob": 300, "Ann": 100}


def test_r10_2_first_share_is_a_setting() -> None:
    assert weekly_payout(1000, [("Ann", 9, 2), ("Bob", 11, 1)], first_percent=60) == {
        "Bob": 600,
        "Ann": 400,
    }


@pytest.mark.parametrize(
    ("pot", "winners", "fragment"),
    [
        pytest.param(-1, [("Ann", 1, 1)], "cannot be negative", id="R10.2 negative pot"),
        pytest.param(
            100, [("Ann", 1, 1), ("Ann", 2, 1)], "listed twice", id="R10.2 duplicate winner"
        ),
    ],
)
def test_r10_2_bad_input(pot: int, winners: list, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as caught:
        weekly_payout(pot, winners)
    assert isinstance(caught.value, RuleError)


# --- R10.3 (and R2.5): an absent winner forfeits -------------------------------------------

TLP = {"A": 20, "B": 14, "C": 11, "D": 9}
TNS = {"A": 5, "B": 3, "C": Fraction(5, 2), "D": 1}


@pytest.mark.parametrize(
    ("order", "absent", "expected"),
    [
        pytest.param("ABC", set(), PayoutCandidate("A", 20, 5), id="R10.3 winner present"),
        pytest.param("ABC", {"A"}, PayoutCandidate("B", 14, 3), id="R10.3 absent winner"),
        pytest.param("ABC", {"B"}, PayoutCandidate("A", 20, 5), id="R10.3 absent non-winner"),
        pytest.param(
            "ABCD",
            {"A", "B"},
            PayoutCandidate("C", 11, Fraction(5, 2)),
            id="R10.3 next present player",
        ),
        pytest.param("AB", {"A"}, PayoutCandidate("B", 14, 3), id="R10.3 two-player group"),
    ],
)
def test_r10_3_payout_candidate(order: str, absent: set[str], expected: PayoutCandidate) -> None:
    assert payout_candidate(list(order), TLP, TNS, absent) == expected


def test_r10_3_next_highest_tlp_not_next_in_order() -> None:
    # The document: "the person in the group ... who has the next highest TLP
    # will be declared the winner of the group for payout purposes".
    tlp = {"A": 20, "B": 11, "C": 14}
    assert payout_candidate(["A", "B", "C"], tlp, TNS, {"A"}) == PayoutCandidate(
        "C", 14, Fraction(5, 2)
    )


def test_r10_3_nobody_present() -> None:
    assert payout_candidate(["A", "B"], TLP, TNS, {"A", "B"}) is None


def test_r10_3_forfeit_moves_the_money() -> None:
    # Group 1's winner A was absent: B stands in. Group 2's winner X beats B.
    stand_in = payout_candidate(["A", "B", "C"], TLP, TNS, {"A"})
    assert stand_in is not None
    assert weekly_payout(800, [stand_in, ("X", 16, 4)]) == {"X": 600, "B": 200}


# --- R10.4: season prizes ------------------------------------------------------------------------


def test_r10_4_default_split_top_three_and_consolations() -> None:
    # Default weights: A 30/15/10, B 20/10/7; consolations A 20% of A's 2nd
    # (0.2 x 15 = 3) and B 50% of B's 2nd (0.5 x 10 = 5). Total 100 weights,
    # so a $100.00 fund pays those percentages exactly.
    divisions = {
        "A": ["a1", "a2", "a3", "a4", "a5"],
        "B": ["b1", "b2", "b3", "b4", "b5"],
    }
    prizes = season_prizes(10_000, divisions, PrizeSplit())
    assert prizes == {
        "a1": 3000,
        "a2": 1500,
        "a3": 1000,
        "a4": 300,
        "b1": 2000,
        "b2": 1000,
        "b3": 700,
        "b4": 500,
    }
    assert prizes["a4"] * 5 == prizes["a2"]  # 20% of A's second place
    assert prizes["b4"] * 2 == prizes["b2"]  # 50% of B's second place


def test_r10_4_split_is_a_setting() -> None:
    split = PrizeSplit(places={"A": (50, 30, 20)}, consolation={})
    assert season_prizes(1000, {"A": ["x", "y", "z", "w"]}, split) == {
        "x": 500,
        "y": 300,
        "z": 200,
    }


def test_r10_4_negative_fund() -> None:
    with pytest.raises(ValueError, match="cannot be negative"):
        season_prizes(-1, {"A": ["x"]}, PrizeSplit())
