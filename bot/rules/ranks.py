"""Ranks as the rules use them (R4.3, R11.1, R11.2), and what "unranked" means.

A player's rank is their place in the season standings before the night is
played (R11.1), 1 = best. The rules take any hashable player key (the bot
passes player ids); a mapping `ranks` gives each ranked player's rank.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

UNRANKED = math.inf
"""The rank of a player missing from `ranks` (e.g. removed from the league since).

**Decision:** an unranked player counts below every ranked player; several
unranked players keep the order they were given in."""


def rank_of(player: P, ranks: Mapping[P, int]) -> float:
    """The player's rank, or UNRANKED when `ranks` does not hold them."""
    return ranks.get(player, UNRANKED)


def lowest_rank_first(players: Iterable[P], ranks: Mapping[P, int]) -> list[P]:
    """Players from the lowest rank (largest number) to the highest (rank 1),
    unranked players first (UNRANKED); equal ranks keep the order given.

    R4.3 takes picks in this order and R11.2's game 1 is played in it."""
    return sorted(players, key=lambda p: -rank_of(p, ranks))
