"""Dues, weekly payouts and season prizes (R10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational
from typing import Generic

from bot.rules.errors import RuleError
from bot.rules.exact import exact
from bot.rules.ranks import P
from bot.rules.settings import PrizeSplit, decimal_fraction


def split_dues(total_cents: int) -> tuple[int, int]:
    """R10.1: half of a night's dues to its payout pot, half to the season
    prize fund (an odd cent goes to the fund). Returns (pot, fund)."""
    if total_cents < 0:
        raise RuleError("Dues cannot be negative.")
    pot = total_cents // 2
    return pot, total_cents - pot


@dataclass(frozen=True)
class PayoutCandidate(Generic[P]):
    """A group's winner for payout purposes (R10.2-R10.3)."""

    player: P
    tlp: int  # game points plus bonus before the multiplier
    tns: Rational  # compared exactly (R6.1 Decision), so a TLP tie goes by TNS exactly


def payout_candidate(
    order: Sequence[P],
    tlp: Mapping[P, int],
    tns: Mapping[P, Rational],
    absent: set[P],
) -> PayoutCandidate[P] | None:
    """R10.3: the group winner, or when the winner was absent the present player
    of the group with the next best night (TLP, then TNS, then match order).
    None when nobody in the group was present."""
    present = [p for p in order if p not in absent]
    if not present:
        return None
    if order and order[0] not in absent:
        best = order[0]
    else:
        best = min(present, key=lambda p: (-tlp[p], -exact(tns[p]), present.index(p)))
    return PayoutCandidate(best, tlp[best], exact(tns[best]))


def weekly_payout(
    pot_cents: int,
    winners: Sequence[tuple[P, int, Rational] | PayoutCandidate[P]],
    *,
    first_percent: int = 75,
) -> dict[P, int]:
    """R10.2: the group winners with the two highest TLP share the pot, 75% and
    25%; a TLP tie goes by TNS (still tied: the order given, top group first).
    Amounts are cents and the odd cent goes to the first.
    Decision: a single eligible winner takes the whole pot; none, nobody."""
    if pot_cents < 0:
        raise RuleError("A payout pot cannot be negative.")
    rows = [w if isinstance(w, PayoutCandidate) else PayoutCandidate(*w) for w in winners]
    if len({row.player for row in rows}) != len(rows):
        raise RuleError("A player is listed twice among the group winners.")
    ranked = sorted(enumerate(rows), key=lambda item: (-item[1].tlp, -exact(item[1].tns), item[0]))
    if not ranked:
        return {}
    if len(ranked) == 1:
        return {ranked[0][1].player: pot_cents}
    second = pot_cents * (100 - first_percent) // 100
    return {ranked[0][1].player: pot_cents - second, ranked[1][1].player: second}


def season_prizes(
    fund_cents: int, divisions: Mapping[str, Sequence[P]], split: PrizeSplit
) -> dict[P, int]:
    """R10.4: each division's top three and its consolation prize.

    `divisions[name]` is that division's final standings, best first. The
    consolation prize (the next player after the places) is a fraction of that
    division's second-place prize (A: 20%, B: 50%). Decision: the weights of the
    prizes actually awarded are scaled so the whole fund is paid; leftover
    cents go to the best-placed winner of the first division. The weights and
    shares are exact fractions, so no cent depends on float rounding.
    """
    if fund_cents < 0:
        raise RuleError("A prize fund cannot be negative.")
    weights: list[tuple[P, Fraction]] = []
    for name, standings in divisions.items():
        places = split.places.get(name, split.places.get("A", ()))
        for player, weight in zip(standings, places, strict=False):
            weights.append((player, Fraction(weight)))
        fraction = decimal_fraction(split.consolation.get(name, 0))
        if fraction and len(places) >= 2 and len(standings) > len(places):
            weights.append((standings[len(places)], fraction * places[1]))
    total = sum(weight for _, weight in weights)
    if not weights or total <= 0:
        return {}
    prizes = {player: fund_cents * weight // total for player, weight in weights}
    prizes[weights[0][0]] += fund_cents - sum(prizes.values())
    return prizes
