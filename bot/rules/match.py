"""The weekly match: order, bonus points and the multiplier (R7)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from numbers import Rational

from bot.rules.errors import RuleError
from bot.rules.exact import exact
from bot.rules.games import BASE_POINTS
from bot.rules.settings import DEFAULT_SETTINGS, RuleSettings


def _check_match(match_points: Sequence[int], tns: Sequence[Rational], n_extra: int) -> int:
    n = len(match_points)
    if n not in BASE_POINTS:
        raise RuleError(f"A match has 2 to 4 players; got {n}.")
    if len(tns) != n or n_extra not in (0, n):
        raise RuleError("Give match points, TNS (and ranks) for every player of the group.")
    if any(mp < 0 for mp in match_points) or any(t < 0 for t in tns):
        raise RuleError("Match points and normalized scores cannot be negative.")
    return n


def match_order(
    match_points: Sequence[int],
    tns: Sequence[Rational],
    *,
    ranks: Sequence[int] | None = None,
    took_part: Sequence[bool] | None = None,
) -> list[int]:
    """R7.1: indices from winner to loser.

    By match points; ties by TNS (Case 1); still tied, by season rank (1 is
    best). R7.2 Decision: players who took no part that night come after all
    who did, whatever their numbers.
    """
    n = _check_match(match_points, tns, len(ranks) if ranks is not None else 0)
    ranks = list(ranks) if ranks is not None else list(range(1, n + 1))
    part = list(took_part) if took_part is not None else [True] * n
    if len(part) != n:
        raise RuleError("Say for every player of the group whether they took part.")
    t = [exact(x) for x in tns]  # R6.1: a TNS tie is an exact tie (Case 1 then goes to rank)
    return sorted(range(n), key=lambda i: (not part[i], -match_points[i], -t[i], ranks[i], i))


def _case2_close_point(lower: list[int], m: list[int], t: list[Fraction]) -> int:
    """R7.3: who of the two places in `lower` takes an exactly-equal extra point
    when the player above does not win it on TNS.

    Tied on MP: the one placed lower (they were ordered by TNS, Case 1).
    Otherwise the one with the higher TNS (equal TNS: the one placed lower).
    """
    upper, low = lower
    if m[upper] == m[low]:
        return low
    return upper if t[upper] > t[low] else low


def match_bonus(
    match_points: Sequence[int],
    tns: Sequence[Rational],
    *,
    ranks: Sequence[int] | None = None,
    took_part: Sequence[bool] | None = None,
) -> list[int]:
    """R7.2-R7.3: base bonus points (before the multiplier), in input order.

    The match is scored like a game of the group's size with match points in
    place of raw scores: 3-0 (+1 for tripling, else to second), 3-2-0 / 3-2-1-0
    (+1 to first for beating second and third combined, else to third; in a
    4-player match +1 to second for beating third and fourth, else to fourth),
    and in a 4-player match one more point to the winner when
    MP1 > MP2 + MP3 + MP4.
    Case 2 (R7.3): an exact equality is settled by TNS: the player above wins
    it when their TNS beats the others' combined; otherwise it goes to whichever
    of the two below has the higher TNS, or to the one placed lower when those
    two are tied on MP. The Decision applies the same test to every "more than
    combined" comparison of a 4-player match.
    R7.2 Decision: a player who took no part never receives bonus points.
    """
    order = match_order(match_points, tns, ranks=ranks, took_part=took_part)
    n = len(order)
    m = [match_points[i] for i in order]
    t = [exact(tns[i]) for i in order]  # R6.1: exact, so Case 2's equalities hold
    bonus = list(BASE_POINTS[n])
    if n == 2:
        bonus[0 if m[0] >= 3 * m[1] else 1] += 1
    else:
        bonus[_beats(0, [1, 2], m, t)] += 1
        if n == 4:
            bonus[_beats(1, [2, 3], m, t)] += 1
            rest = m[1] + m[2] + m[3]
            if m[0] > rest or (m[0] == rest and t[0] > t[1] + t[2] + t[3]):
                bonus[0] += 1
    part = list(took_part) if took_part is not None else [True] * n
    result = [0] * n
    for place, index in enumerate(order):
        result[index] = bonus[place] if part[index] else 0
    return result


def _beats(top: int, below: list[int], m: list[int], t: list[Fraction]) -> int:
    """Which place takes the 'beats the two below combined' point (R7.2, R7.3)."""
    combined = m[below[0]] + m[below[1]]
    if m[top] > combined:
        return top
    if m[top] < combined:
        return below[1]
    if t[top] > t[below[0]] + t[below[1]]:
        return top
    return _case2_close_point(below, m, t)


def next_multiplier(current: int, *, won: bool, lost: bool, low: int = 0, high: int = 3) -> int:
    """R7.4: +1 after winning the group, -1 after being its loser, clamped."""
    if won and lost:
        raise RuleError("A player cannot both win and lose their group.")
    if not low <= current <= high:
        raise RuleError(f"A bonus multiplier is between {low} and {high}, not {current}.")
    return max(low, min(high, current + (1 if won else 0) - (1 if lost else 0)))


def multiplier_after(
    week: int,
    current: int,
    *,
    won: bool,
    lost: bool,
    settings: RuleSettings = DEFAULT_SETTINGS,
) -> int:
    """R7.4: the multiplier a player carries into the night after `week`.

    Before the multiplier week everyone plays at ×1. The night before it
    (week 6 by default) starts everyone at ×1, so winners enter at ×2 and
    losers at ×0; from then on the multiplier carries over.
    """
    following = week + 1
    low, high = settings.multiplier_min, settings.multiplier_max
    if following < settings.multiplier_start_week:
        return 1
    start = 1 if following == settings.multiplier_start_week else current
    return next_multiplier(start, won=won, lost=lost, low=low, high=high)


def bonus_applies(week: int, settings: RuleSettings = DEFAULT_SETTINGS) -> bool:
    """R7.2: bonus points start in week 3 (a setting, R7.5)."""
    return week >= settings.bonus_start_week


def tns_decided(match_points: Sequence[int], took_part: Sequence[bool], *, bonus: bool) -> set[int]:
    """Places (0 = winner, in finishing order) whose TNS broke a tie, so a
    result shows it exactly then.

    R7.1 Case 1: players who took part and have the same MP were ordered by
    TNS. R7.3 Case 2 and its Decision (bonus weeks only): an exact equality
    "MP above = MP of the ones below combined" was settled by TNS, so every
    player of that comparison is shown. A player who took no part (MP 0, R7.2
    Decision) is in the match, but is placed last whatever the numbers.
    """
    m = list(match_points)
    shown: set[int] = set()
    for i in range(len(m)):
        for j in range(i + 1, len(m)):
            if took_part[i] and took_part[j] and m[i] == m[j]:
                shown |= {i, j}
    if bonus and len(m) >= 3:
        tests = [(0, [1, 2])]
        if len(m) == 4:
            tests += [(1, [2, 3]), (0, [1, 2, 3])]
        for top, below in tests:
            if m[top] == sum(m[b] for b in below):
                shown |= {top, *below}
    return {i for i in shown if took_part[i]}
