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


def exact(value: Rational) -> Fraction:
    """`value` (a Fraction or a whole number) as an exact Fraction. A binary float
    is refused: R6.1 keeps normalized scores exact, so a float reaching the rules
    is a mistake upstream, not something to round."""
    if type(value) is Fraction:  # the common case, kept cheap (finalize calls this a lot)
        return value
    if isinstance(value, bool) or not isinstance(value, Rational):
        raise RuleError(
            f"A normalized score must be an exact number (a fraction or a whole number), "
            f"not {value!r}."
        )
    return Fraction(value)


def total(values: Iterable[Rational]) -> Fraction:
    """The exact sum of normalized scores (a night's TNS, a season's TNS).

    Values over one denominator (the same par, the same machines) are added as
    whole numerators first: one Fraction addition per distinct denominator,
    not per value, which keeps a season's sums cheap."""
    numerators: dict[int, int] = {}
    for value in values:
        fraction = exact(value)
        den = fraction.denominator
        numerators[den] = numerators.get(den, 0) + fraction.numerator
    return sum((Fraction(num, den) for den, num in numerators.items()), ZERO)


def shown(value: Rational) -> int:
    """A normalized score rounded to whole points for display (half up)."""
    fraction = exact(value)
    return (fraction.numerator * 2 + fraction.denominator) // (fraction.denominator * 2)
