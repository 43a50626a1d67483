"""Divisions A and B (R9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from bot.rules.errors import RuleError
from bot.rules.groups import cut_groups
from bot.rules.ranks import P
from bot.rules.settings import DEFAULT_SETTINGS, RuleSettings

WEEK_RESULTS = ("won", "stayed", "down")


def has_divisions(n_players: int, settings: RuleSettings = DEFAULT_SETTINGS) -> bool:
    """R9.1: 8 or more players play in divisions A and B from the division week."""
    return n_players >= settings.division_min_players


def qualifies_for_a(weeks: Sequence[str]) -> bool:
    """R9.2: over the 5 weeks before the division week, W = weeks won and
    S = weeks won or not moved down; the player qualifies for A when W ≥ 2 and
    S ≥ 4. Each week is "won", "stayed" or "down"."""
    if len(weeks) > 5:
        raise RuleError(f"Division qualification looks at 5 weeks, not {len(weeks)}.")
    for week in weeks:
        if week not in WEEK_RESULTS:
            raise RuleError(f"A week's result is 'won', 'stayed' or 'down', not {week!r}.")
    won = sum(week == "won" for week in weeks)
    safe = sum(week != "down" for week in weeks)
    return won >= 2 and safe >= 4


def split_divisions(ranked: Sequence[P], qualified: Collection[P]) -> tuple[list[P], list[P]]:
    """R9.3: A holds floor(n/2) players. Too many qualifiers: the lowest-ranked
    go to B; too few: the highest-ranked others join A. Both lists come back in
    rank order (`ranked` is best first)."""
    known = set(ranked)
    if len(known) != len(ranked):
        raise RuleError("A player appears twice in the standings.")
    unknown = [p for p in qualified if p not in known]
    if unknown:
        raise RuleError(f"{', '.join(map(str, unknown))} are not in the standings.")
    seats = len(ranked) // 2
    chosen = [p for p in ranked if p in qualified][:seats]
    taken = set(chosen)
    for player in ranked:
        if len(chosen) >= seats:
            break
        if player not in taken:
            chosen.append(player)
            taken.add(player)
    in_a = set(chosen)
    return [p for p in ranked if p in in_a], [p for p in ranked if p not in in_a]


def form_divisions(
    ranked: Sequence[P],
    recent_weeks: Mapping[P, Sequence[str]],
    ladder: Sequence[P],
) -> dict[str, list[list[P]]]:
    """R9.2-R9.4: at the division week, split the league into A and B and cut
    each division's groups (R8.1, at least two per division) from the ladder
    order. `recent_weeks[p]` is p's results over the 5 weeks before."""
    if Counter(ranked) != Counter(ladder):  # the same players, keys need not sort
        raise RuleError("The standings and the groups must hold the same players.")
    qualified = {p for p in ranked if qualifies_for_a(recent_weeks.get(p, ())[-5:])}
    a, _ = split_divisions(ranked, qualified)
    in_a = set(a)
    return {
        "A": cut_groups([p for p in ladder if p in in_a], division=True),
        "B": cut_groups([p for p in ladder if p not in in_a], division=True),
    }
