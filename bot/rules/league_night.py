"""A whole league night: every group scored, movement, week results, payouts.

Composes R7 (group results), R8.3-R8.5 (movement within each pool: the whole
league, or one division, R9.4), R9.2 (each player's week for qualification)
and R10.2-R10.3 (the weekly payout).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic

from bot.rules.errors import RuleError
from bot.rules.groups import movement
from bot.rules.money import payout_candidate, weekly_payout
from bot.rules.night import GroupNight, GroupResult, score_group_night
from bot.rules.ranks import P


@dataclass(frozen=True)
class NightOutcome(Generic[P]):
    groups: tuple[GroupResult[P], ...]
    next_groups: dict[str, list[list[P]]]  # per pool, top group first
    week_result: dict[P, str]  # R9.2: "won", "stayed" or "down"
    moved_up: frozenset[P]
    moved_down: frozenset[P]
    movement: dict[P, str]  # R8.3-R8.5: "up", "down" or "stays"
    payouts: dict[P, int]  # R10.2, cents


def score_night(
    nights: Sequence[GroupNight[P]],
    *,
    pools: Sequence[str] | None = None,
    pot_cents: int = 0,
) -> NightOutcome[P]:
    """Score every group of a night and decide next week's groups.

    `nights` are the night's groups, top first within each pool; `pools[i]`
    names group i's pool ("" for a league without divisions, else "A"/"B").
    Players who took no part keep their place (R3.8, R8.4).
    """
    pools = list(pools) if pools is not None else [""] * len(nights)
    if len(pools) != len(nights):
        raise RuleError("Name a pool (division) for every group of the night.")
    if len({night.week for night in nights}) > 1:
        raise RuleError("All groups of a night must have the same week number.")
    results = tuple(score_group_night(night) for night in nights)
    first_percent = nights[0].settings.payout_first_percent if nights else 75
    two_swap = nights[0].settings.two_swap_match_points if nights else 10
    next_groups: dict[str, list[list[P]]] = {}
    up: set[P] = set()
    down: set[P] = set()
    for pool in dict.fromkeys(pools):
        members = [r for r, name in zip(results, pools, strict=True) if name == pool]
        moved = movement(
            [list(r.players) for r in members],
            [[p for p in r.order if p in r.took_part] for r in members],
            {p: mp for r in members for p, mp in r.match_points.items()},
            two_swap_match_points=two_swap,
        )
        next_groups[pool] = moved.groups
        up |= moved.moved_up
        down |= moved.moved_down
    week_result = {}
    for result in results:
        for player in result.players:
            if player == result.winner:
                week_result[player] = "won"
            else:
                week_result[player] = "down" if player in down else "stayed"
    where = {
        p: "up" if p in up else "down" if p in down else "stays" for r in results for p in r.players
    }
    candidates = [
        c
        for r in results
        if (c := payout_candidate(list(r.order), r.tlp, r.tns, set(r.absent))) is not None
    ]
    return NightOutcome(
        groups=results,
        next_groups=next_groups,
        week_result=week_result,
        moved_up=frozenset(up),
        moved_down=frozenset(down),
        movement=where,
        payouts=weekly_payout(pot_cents, candidates, first_percent=first_percent),
    )
