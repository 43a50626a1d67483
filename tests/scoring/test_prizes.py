"""R10.4: season prizes are shared in exact fractions of the fund."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.settings import decimal_fraction
from bot.scoring import PrizeSplit, season_prizes


def test_r10_4_exact_shares_where_floats_lose_cents() -> None:
    """Places 22/12/9 and a 10% consolation: 0.1 x 12 is 1.2000000000000002 as a
    float, so a $106.08 fund gave 5279/2879/2159 and a 3-cent leftover to first.
    Exactly, the weights total 44.2 and every prize is a whole number of cents."""
    split = PrizeSplit(places={"A": (22, 12, 9)}, consolation={"A": Fraction(10, 100)})
    prizes = season_prizes(10_608, {"A": ["w", "x", "y", "z"]}, split)
    assert prizes == {"w": 5280, "x": 2880, "y": 2160, "z": 288}
    # Given as the float 0.1, the consolation is read as one tenth: the same prizes.
    as_float = PrizeSplit(places={"A": (22, 12, 9)}, consolation={"A": 0.1})
    assert season_prizes(10_608, {"A": ["w", "x", "y", "z"]}, as_float) == prizes


def test_r10_4_a_float_setting_is_read_as_its_decimal() -> None:
    assert decimal_fraction(0.1) == Fraction(1, 10)
    assert decimal_fraction(0.2) * 15 == 3
    assert decimal_fraction(3) == 3 and decimal_fraction(Fraction(1, 3)) == Fraction(1, 3)


@given(
    fund=st.integers(0, 10_000_000),
    a=st.lists(st.integers(1, 100), min_size=1, max_size=5),
    b=st.lists(st.integers(1, 100), min_size=1, max_size=5),
    consolation_a=st.integers(0, 100),
    consolation_b=st.integers(0, 100),
    size_a=st.integers(1, 8),
    size_b=st.integers(0, 8),
)
def test_r10_4_the_whole_fund_is_paid_and_leftovers_go_to_a1(
    fund: int,
    a: list[int],
    b: list[int],
    consolation_a: int,
    consolation_b: int,
    size_a: int,
    size_b: int,
) -> None:
    split = PrizeSplit(
        places={"A": tuple(a), "B": tuple(b)},
        consolation={"A": Fraction(consolation_a, 100), "B": Fraction(consolation_b, 100)},
    )
    divisions = {"A": [f"a{n}" for n in range(size_a)], "B": [f"b{n}" for n in range(size_b)]}
    prizes = season_prizes(fund, divisions, split)
    assert sum(prizes.values()) == fund
    assert all(cents >= 0 for cents in prizes.values())
    weights = {f"a{n}": Fraction(w) for n, w in enumerate(a[:size_a])}
    weights |= {f"b{n}": Fraction(w) for n, w in enumerate(b[:size_b])}
    for name, places, size, percent in (("a", a, size_a, consolation_a),
                                        ("b", b, size_b, consolation_b)):  # fmt: skip
        if percent and len(places) >= 2 and size > len(places):
            weights[f"{name}{len(places)}"] = Fraction(percent, 100) * places[1]
    total = sum(weights.values())
    for player, weight in weights.items():
        share = Fraction(fund) * weight / total
        extra = fund - sum(fund * w // total for w in weights.values())
        assert prizes[player] == share.__floor__() + (extra if player == "a0" else 0)
