"""Which games a group plays: vetoes and repeats (R4)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.rules.errors import RuleError
from bot.rules.ranks import P, lowest_rank_first


@dataclass(frozen=True)
class PickResolution:
    """The outcome of R4.4-R4.5 for one group."""

    games: list[str]  # the night's games in machine order (R4.6)
    kind: str  # "veto", "repeat" or "none"
    applied: list[str]  # machines vetoed or repeated, in the order applied
    filled: list[str]  # the ones the bot applied in machine order (R4.5)


def pick_kind(working: int, games: int = 5) -> str:
    """R4.2: P > 5 means vetoes, P < 5 repeats, P = 5 nothing to choose."""
    if working > games:
        return "veto"
    return "repeat" if working < games else "none"


def pick_order(players: Iterable[P], ranks: Mapping[P, int]) -> list[P]:
    """R4.3: a group's players are taken lowest rank first; a player with no
    rank (`bot.rules.ranks.UNRANKED`) is taken before every ranked player."""
    return lowest_rank_first(players, ranks)


def resolve_picks(
    machines: Sequence[str], picks: Sequence[Sequence[str]], games: int = 5
) -> PickResolution:
    """R4.1-R4.6: resolve a group's picks into its games.

    `machines`: the working machines in league order; `picks[i]`: player i's
    picks in preference order, players lowest rank first. k = |P - 5| picks
    are applied round by round: machines picked by two or more players in a
    round first (the one whose lowest-ranked picker is lower goes first), then
    single picks, lowest rank first, skipping machines already applied.
    Decision: a machine can be applied at most ceil(k / P) times, so when
    5 - P > P a machine repeats more than twice (R4.2).
    R4.5 Decision: when picks run out the rest are applied in machine order.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RuleError(f"A night has a positive number of games, not {games!r}.")
    if not machines:
        raise RuleError("No machine is working; mark at least one machine as working.")
    if len(set(machines)) != len(machines):
        raise RuleError("A machine is listed twice among the working machines.")
    working = set(machines)
    for player_picks in picks:
        for machine in player_picks:
            if machine not in working:
                raise RuleError(f"{machine} is not a working machine tonight; pick another.")
    p = len(machines)
    kind = pick_kind(p, games)
    k = abs(p - games)
    cap = math.ceil(k / p) if k else 0
    applied: list[str] = []

    def apply(machine: str) -> None:
        if len(applied) < k and applied.count(machine) < cap:
            applied.append(machine)

    rounds = max((len(x) for x in picks), default=0)
    for r in range(rounds):
        this_round = [(i, x[r]) for i, x in enumerate(picks) if r < len(x)]
        pickers: dict[str, list[int]] = {}
        for i, machine in this_round:
            pickers.setdefault(machine, []).append(i)
        shared = [m for m, who in pickers.items() if len(who) > 1]
        for machine in sorted(shared, key=lambda m: pickers[m][0]):
            apply(machine)
        for _, machine in this_round:
            if len(pickers[machine]) == 1:
                apply(machine)
    filled: list[str] = []
    while len(applied) < k:
        for machine in machines:
            before = len(applied)
            apply(machine)
            if len(applied) > before:
                filled.append(machine)
    played = []
    for machine in machines:
        times = 1 + applied.count(machine) if kind == "repeat" else int(machine not in applied)
        played.extend([machine] * times)
    return PickResolution(games=played, kind=kind, applied=applied, filled=filled)


def resolve_games(
    machines: Sequence[str], picks: Sequence[Sequence[str]], games: int = 5
) -> list[str]:
    """R4: the night's games in machine order; see `resolve_picks`."""
    return resolve_picks(machines, picks, games).games


def filled_game_numbers(resolution: PickResolution) -> set[int]:
    """R4.5: the numbers (1-based) of the games that exist only because the bot
    filled a repeat in machine order (the last copies of each filled machine);
    vetoes filled by the bot remove games, so they number none."""
    if resolution.kind != "repeat":
        return set()
    games, remaining, numbers = resolution.games, list(resolution.filled), set()
    for number in range(len(games), 0, -1):
        if games[number - 1] in remaining:
            remaining.remove(games[number - 1])
            numbers.add(number)
    return numbers
