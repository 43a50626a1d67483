"""Group sizes, week-1 seeding and weekly movement (R8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic

from bot.rules.errors import RuleError
from bot.rules.ranks import P

UNRATED_SKILL = 5.5  # R8.2 Decision: unrated players sit where 5.5 would


def group_sizes(n: int, *, division: bool = False) -> list[int]:
    """R8.1: groups of 3, top first; n mod 3 = 1 makes the bottom group 4,
    n mod 3 = 2 adds a bottom group of 2. A division always has at least two
    groups where it can (n = 4 gives 2 + 2); a pool of 3 stays one group."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise RuleError(f"A number of players must be a whole number, not {n!r}.")
    if n == 0:
        return []
    if n == 1:
        raise RuleError("One player cannot make a group; a group needs 2 to 4 players.")
    if division and n == 4:
        return [2, 2]
    sizes = [3] * (n // 3)
    if n % 3 == 1:
        sizes[-1] = 4
    elif n % 3 == 2:
        sizes.append(2)
    return sizes


def cut_groups(ladder: Sequence[P], *, division: bool = False) -> list[list[P]]:
    """R8.1/R8.6: cut a ladder (best first) into groups from the top."""
    _check_unique(ladder)
    groups: list[list[P]] = []
    start = 0
    for size in group_sizes(len(ladder), division=division):
        groups.append(list(ladder[start : start + size]))
        start += size
    return groups


def skill_order(players: Sequence[tuple[P, float | None]]) -> list[P]:
    """R8.2: players by the commissioner's skill rating (10 = expert) high to
    low; unrated players form one block where 5.5 would sit; ties keep
    sign-up order (the order given)."""
    _check_unique([name for name, _ in players])
    for name, skill in players:
        if skill is not None and not 1 <= skill <= 10:
            raise RuleError(f"{name}'s skill rating must be 1 to 10, not {skill}.")

    def key(item: tuple[int, tuple[P, float | None]]) -> tuple[float, int]:
        index, (_, skill) = item
        return (-(UNRATED_SKILL if skill is None else skill), index)

    return [name for _, (name, _) in sorted(enumerate(players), key=key)]


def seed_groups(
    players: Sequence[tuple[P, float | None]], *, division: bool = False
) -> list[list[P]]:
    """R8.2: week 1 groups, cut from the skill order (R8.1 sizes)."""
    return cut_groups(skill_order(players), division=division)


@dataclass(frozen=True)
class Movement(Generic[P]):
    """What R8.3-R8.5 decided for one night."""

    groups: list[list[P]]  # next week's groups, top first, each in ladder order
    moved_up: frozenset[P]
    moved_down: frozenset[P]


def next_groups(
    groups: Sequence[Sequence[P]],
    finish: Sequence[Sequence[P]],
    match_points: Mapping[P, int],
    *,
    two_swap_match_points: int = 10,
) -> list[list[P]]:
    """R8.3-R8.5: next week's groups, top first. See `movement`."""
    return movement(
        groups, finish, match_points, two_swap_match_points=two_swap_match_points
    ).groups


def movement(
    groups: Sequence[Sequence[P]],
    finish: Sequence[Sequence[P]],
    match_points: Mapping[P, int],
    *,
    two_swap_match_points: int = 10,
) -> Movement[P]:
    """R8.3-R8.5: who moves where after a night.

    `finish[i]` holds group i's present players, winner first; a player of
    `groups[i]` missing from it took no part and keeps their group (R8.4).
    R8.3: each group's winner swaps with the loser of the group above; the top
    group's winner and the bottom group's loser stay.
    R8.4 Decision: a group with one present player sends them up and nobody
    down; a boundary swaps only when both sides have a mover.
    R8.5: a 4-player group swaps two with the group above when its first two
    scored at least 10 MP and the upper group's last two (never its winner)
    scored no more than 10 MP.
    Within a new group the ladder order is: players who came down, those who
    stayed (finishing order, then those who took no part), players who came up.
    """
    _check_movement(groups, finish)
    g = len(groups)
    ups: list[list[P]] = [[] for _ in range(g)]  # players leaving group i upward
    downs: list[list[P]] = [[] for _ in range(g)]  # players leaving group i downward
    for i in range(g - 1):
        upper, lower = list(finish[i]), list(finish[i + 1])
        if len(upper) < 2 or not lower:
            continue  # no mover on one side: this boundary does not swap (R8.4)
        count = 1
        if (
            len(groups[i + 1]) == 4
            and len(upper) >= 3  # the upper group's winner never moves down
            and len(lower) >= 3  # the 4-player group's loser never moves up
            and all(match_points.get(p, 0) >= two_swap_match_points for p in lower[:2])
            and all(match_points.get(p, 0) <= two_swap_match_points for p in upper[-2:])
        ):
            count = 2  # R8.5
        downs[i] = upper[-count:]
        ups[i + 1] = lower[:count]
    new_groups = []
    for i in range(g):
        leaving = set(ups[i]) | set(downs[i])
        came_down = downs[i - 1] if i > 0 else []
        came_up = ups[i + 1] if i + 1 < g else []
        stayed = [p for p in finish[i] if p not in leaving]
        absent = [p for p in groups[i] if p not in finish[i]]
        new_groups.append([*came_down, *stayed, *absent, *came_up])
    return Movement(
        groups=new_groups,
        moved_up=frozenset(p for group in ups for p in group),
        moved_down=frozenset(p for group in downs for p in group),
    )


def with_newcomers(ladders: Mapping[str, Sequence[P]], active: Sequence[P]) -> dict[str, list[P]]:
    """R8.6: the ladders (pool -> players, best first) with the league's
    current players: players no longer active leave their ladder, and active
    players in no ladder join the bottom of one, in the order `active` gives
    (sign-up order). **Decision:** with divisions they join division B's
    ladder; otherwise the one ladder (pool "" when there is none yet)."""
    keep = set(active)
    result = {pool: [p for p in ladder if p in keep] for pool, ladder in ladders.items()}
    placed = {p for ladder in result.values() for p in ladder}
    bottom = "B" if "B" in result else next(iter(result), "")
    result.setdefault(bottom, []).extend(p for p in active if p not in placed)
    return result


def _check_unique(players: Sequence[P]) -> None:
    seen: set[P] = set()
    for player in players:
        if player in seen:
            raise RuleError(f"{player} is listed twice.")
        seen.add(player)


def _check_movement(groups: Sequence[Sequence[P]], finish: Sequence[Sequence[P]]) -> None:
    if len(finish) != len(groups):
        raise RuleError(
            f"Give a finishing order for each of the {len(groups)} groups, not {len(finish)}."
        )
    _check_unique([p for group in groups for p in group])
    for number, (group, order) in enumerate(zip(groups, finish, strict=True), start=1):
        _check_unique(order)
        for player in order:
            if player not in group:
                raise RuleError(f"{player} is not in group {number}.")
