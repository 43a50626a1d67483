"""Game points and normalized scores: R3.3, R3.4, R3.6, R3.7, R5 and R6."""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from fractions import Fraction

from bot.rules.errors import RuleError, TiedScoresError

MAX_SCORE = 10**13
BASE_POINTS = {2: (3, 0), 3: (3, 2, 0), 4: (3, 2, 1, 0)}  # R5.1-R5.3


def _check_flags(name: str, flags: Sequence[bool] | None, n: int) -> list[bool]:
    if flags is None:
        return [False] * n
    if len(flags) != n:
        raise RuleError(f"{name} has {len(flags)} entries for {n} scores; give one per player.")
    return [bool(flag) for flag in flags]


def check_score(score: int) -> int:
    """A raw score must be a whole number from 0 to 10^13."""
    if isinstance(score, bool) or not isinstance(score, int):
        raise RuleError(f"A score must be a whole number, not {score!r}.")
    if score < 0:
        raise RuleError(f"A score cannot be negative ({score:,}).")
    if score > MAX_SCORE:
        raise RuleError(f"A score of {score:,} is larger than any pinball machine shows.")
    return score


def finishing_order(
    values: Sequence[int],
    tie_break: Sequence[int] | None = None,
    zero_point: Sequence[bool] | None = None,
) -> list[int]:
    """Indices by raw score, highest first (R5).

    R3.4: Zero Point entries (`zero_point`) count as 0 and are placed below
    every present score, 0 included; several of them share last place and need
    no order (R5.4 exception). R5.4/R5.5: any other equal scores, a penalty's
    0 included, cannot be placed unless `tie_break` (a priority per entry,
    lower placed higher, recorded by the commissioner) separates them.
    """
    n = len(values)
    if tie_break is not None and len(tie_break) != n:
        raise RuleError("The recorded tie order must have one entry per player.")
    priority = list(tie_break) if tie_break is not None else [0] * n
    zero = _check_flags("zero_point", zero_point, n)
    order = sorted(range(n), key=lambda i: (zero[i], -values[i], priority[i], i))
    for a, b in itertools.pairwise(order):
        if zero[a] or zero[b]:
            continue
        if values[a] == values[b] and priority[a] == priority[b]:
            tied = [i for i in range(n) if values[i] == values[a] and not zero[i]]
            raise TiedScoresError(
                f"Scores are tied at {values[a]:,}; the commissioner must record who "
                "placed higher before this game can be scored.",
                tied,
            )
    return order


def _place_points(ordered: list[int], beating_allowed: list[bool]) -> list[int]:
    """Points for each place (R5.1-R5.3); R3.3 gives a blocked beating point to nobody."""
    n = len(ordered)
    points = list(BASE_POINTS[n])
    s = ordered
    if n == 2:
        if s[0] >= 3 * s[1]:  # R5.1 tripling point
            points[0] += 1 if beating_allowed[0] else 0  # R3.3: else to nobody
        else:
            points[1] += 1
        return points
    if s[0] > s[1] + s[2]:  # R5.2/R5.3 first beats second and third combined
        points[0] += 1 if beating_allowed[0] else 0
    else:
        points[2] += 1
    if n == 4:
        if s[1] > s[2] + s[3]:  # R5.3 second beats third and fourth combined
            points[1] += 1 if beating_allowed[1] else 0
        else:
            points[3] += 1
    return points


def game_points(
    scores: Sequence[int | None],
    *,
    pre_makeup: Sequence[bool] | None = None,
    absent: Sequence[bool] | None = None,
    par: int | None = None,
    tie_break: Sequence[int] | None = None,
) -> list[int]:
    """League points for one game of 2-4 players, in input order.

    R5.1-R5.3 place the players by raw score and award 3-0 / 3-2-0 / 3-2-1-0
    plus the extra points for beating or keeping it close.
    R3.3: an entry with `pre_makeup` set never earns a beating point (first's
    extra point, second's extra point in a 4-player game, the tripling point);
    that point goes to nobody. Keeping-it-close points are earned normally.
    R3.4: an `absent` entry (Zero Point Rule) gets 0 points; its score is None
    or 0 when it has no pre-makeup score, counts as 0 and is placed last.
    R3.6: an `absent` entry that still has a pre-makeup score passes it as its
    score: the others are scored against it, the entry itself gets 0.
    R3.7: in a 2-player game whose absent player has no pre-makeup score the
    opponent gets 3 points, or 4 when their raw score is at least `par`.
    R5.4: equal scores raise `TiedScoresError` unless `tie_break` orders them
    (a penalty's 0 is placed like any score, R5.5); Zero Point entries share
    last place.
    """
    n = len(scores)
    if n not in BASE_POINTS:
        raise RuleError(f"A game has 2 to 4 players; got {n} scores.")
    is_pre = _check_flags("pre_makeup", pre_makeup, n)
    is_absent = _check_flags("absent", absent, n)
    values = []
    for score, gone in zip(scores, is_absent, strict=True):
        if score is None:
            if not gone:
                raise RuleError("Only an absent player can have no score for a game.")
            values.append(0)
        else:
            values.append(check_score(score))

    if n == 2 and any(gone and v == 0 for gone, v in zip(is_absent, values, strict=True)):
        return _two_player_against_absent(values, is_absent, is_pre, par)

    zero_point = [gone and v == 0 for gone, v in zip(is_absent, values, strict=True)]
    order = finishing_order(values, tie_break, zero_point)
    ordered = [values[i] for i in order]
    beating_allowed = [not is_pre[i] for i in order]
    per_place = _place_points(ordered, beating_allowed)
    points = [0] * n
    for place, index in enumerate(order):
        points[index] = 0 if is_absent[index] else per_place[place]
    return points


def _two_player_against_absent(
    values: list[int], is_absent: list[bool], is_pre: list[bool], par: int | None
) -> list[int]:
    """R3.7: the opponent of an absent player with no pre-makeup score."""
    points = [0, 0]
    for me, other in ((0, 1), (1, 0)):
        if is_absent[me]:
            continue
        if not (is_absent[other] and values[other] == 0):
            continue
        if par is None:
            raise RuleError(
                "This machine needs a par to score a 2-player game against an absent "
                "player; set the par first."
            )
        earns_fourth = values[me] >= par and not is_pre[me]
        points[me] = 4 if earns_fourth else 3
    return points


def normalize(raw: int, par: int) -> Fraction:
    """R6.1: normalized = raw × 1,000,000 / par.

    R6.1 Decision: the value is exact (a `Fraction`, never a binary float), so
    TNS sums compare exactly in R7.1, R7.3, R10.2 and R11.1. Round only to show.
    """
    check_score(raw)
    if isinstance(par, bool) or not isinstance(par, int) or par <= 0:
        raise RuleError(f"A machine's par must be a positive whole number, not {par!r}.")
    return Fraction(raw * 1_000_000, par)


def default_par(pre_makeup_scores: Sequence[int]) -> int | None:
    """R6.2: until the commissioner sets a par, it is the median of the
    machine's approved pre-makeup scores (rounded to a whole score); None when
    there are none, and the machine cannot be used in a finalized night."""
    scores = [check_score(s) for s in pre_makeup_scores]
    if not scores:
        return None
    return max(1, round(statistics.median(scores)))
