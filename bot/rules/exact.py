"""Exact normalized scores and the player keys the rules work with (R6.1).

R6.1 Decision: normalized scores and every sum of them (TNS, season TNS) are
exact rationals, never binary floats, so the equalities and "greater than"
tests of R7.1, R7.3, R10.2 and R11.1 hold exactly. They are rounded only when
shown (`shown`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from fractions import Fraction
from numbers import Rational

from bot.rules.errors import RuleError

PlayerKey = Hashable  # any hashable player key: services pass player ids
ZERO = Fraction(0)


def exact(value: Rational | float) -> Fraction:
    """`value` as an exact Fraction; a float is taken at its exact binary value."""
    if isinstance(value, bool) or not isinstance(value, Rational | float):
        raise RuleError(f"A normalized score must be a number, not {value!r}.")
    return Fraction(value)


def total(values: Iterable[Rational | float]) -> Fraction:
    """The exact sum of normalized scores (a night's TNS, a season's TNS)."""
    return sum((exact(v) for v in values), ZERO)


def shown(value: Rational | float) -> int:
    """A normalized score rounded to whole points for display (half up)."""
    fraction = exact(value)
    return (fraction.numerator * 2 + fraction.denominator) // (fraction.denominator * 2)


def to_text(value: Rational) -> str:
    """The exact value as stored: "numerator/denominator" (or a whole number)."""
    return str(exact(value))


def from_text(text: str) -> Fraction:
    """A value stored by `to_text`; refuses anything else."""
    numerator, _, denominator = text.partition("/")
    try:
        return Fraction(int(numerator), int(denominator) if denominator else 1)
    except (ValueError, ZeroDivisionError):
        raise RuleError(f"{text!r} is not a stored exact normalized score.") from None
