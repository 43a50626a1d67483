"""A season's statistics from its finalized nights: pure, exact.

What counts (the commissioner's decisions, written down once):
- A *played* game is one the player scored on the league night itself
  (source 'live'). Pre-makeup scores (R3) and Zero Point Rule games (R3.4,
  R3.6) count for game points and the night's results, but not for raw or
  normalized score statistics, high scores or machine averages: those are
  about what was played on the machine that night.
- *Nights played*: nights the player took part in (R8.4: present, or absent
  with a pre-makeup score used).
- *Average game points*: game points (R5) per game over the games the player
  took part in (played, or covered by a pre-makeup score).
- *Group wins*: nights the player finished first in their group (R7, took part).
- *Moves up / down*: R8.3-R8.5 applied to each finalized night (the same
  movement the bot used for the next week's groups). The top group's winner
  and the bottom group's loser do not move (R8.3).
- *Record against an opponent*: over the games both played (live), a win when
  the player took more game points in that game, a loss when fewer, a tie when
  the same (wins-losses-ties).
- *Most improved*: the biggest rise in average normalized score per played game
  (R6.1) from the first half of the regular season (weeks 1 .. n // 2) to the
  second (the rest). Normalized scores do not depend on the group a player was
  in, while game points fall as a player moves up; so this rewards playing
  better, not being in an easier group. Needs a played game in each half.
- A machine is *vetoed* in a group's night when it was working that night (R4.1)
  and the group did not play it (R4.2, P > 5); *repeated* once for every play
  beyond the first in the same group's night (R4.2, P < 5).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Generic, TypeVar

from bot.rules.groups import movement

P = TypeVar("P", bound=Hashable)

COUNTED = ("live", "pre_makeup")  # a game the player took part in (R3)
HIGH_SCORES = 5


@dataclass(frozen=True)
class GamePlayed(Generic[P]):
    """One player's finalized game (R5, R6.3)."""

    week: int
    day: date
    game: int  # any key unique to the game (a group's game of a night)
    machine: str
    player: P
    score: int
    source: str  # live, pre_makeup, zero_point, zero_point_limit
    points: int
    normalized: Fraction


@dataclass(frozen=True)
class NightPlace(Generic[P]):
    """One player's finalized night: their group and where they finished (R7)."""

    week: int
    player: P
    pool: str  # '' or the division
    group: int  # 1 is the top group of the pool
    place: int
    took_part: bool
    match_points: int


@dataclass(frozen=True)
class GroupMachines:
    """What one group played on one night, and the machines working that night (R4.1)."""

    week: int
    working: frozenset[str]
    played: tuple[str, ...]  # game 1 first, a repeated machine more than once


@dataclass(frozen=True)
class Record:
    wins: int = 0
    losses: int = 0
    ties: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.ties


@dataclass(frozen=True)
class MachineLine:
    """A player's numbers on one machine (played games only)."""

    machine: str
    games: int
    best: int
    average_normalized: Fraction


@dataclass(frozen=True)
class PlayerStats(Generic[P]):
    player: P
    nights: int
    games: int  # games taken part in (played or pre-makeup)
    average_points: Fraction | None  # None: no game yet
    group_wins: int
    moves_up: int
    moves_down: int
    machines: tuple[MachineLine, ...]  # by machine name
    records: tuple[tuple[P, Record], ...]  # by most games, then opponent


@dataclass(frozen=True)
class HighScore(Generic[P]):
    player: P
    score: int
    week: int
    day: date


@dataclass(frozen=True)
class MachineStats(Generic[P]):
    machine: str
    games: int  # times played on league nights (each group's game once)
    high_scores: tuple[HighScore[P], ...]  # best first, at most five
    average: Fraction | None  # average raw score of the played games
    vetoed: int
    repeated: int


@dataclass(frozen=True)
class Improvement(Generic[P]):
    player: P
    before: Fraction  # average normalized score, first half
    after: Fraction  # second half

    @property
    def rise(self) -> Fraction:
        return self.after - self.before


def _mean(values: Sequence[int | Fraction]) -> Fraction | None:
    return Fraction(sum(values, Fraction(0)), len(values)) if values else None


def moves(
    places: Sequence[NightPlace[P]], *, two_swap_match_points: int = 10
) -> dict[P, tuple[int, int]]:
    """R8.3-R8.5 per night and pool: each player's (moves up, moves down)."""
    ups: dict[P, int] = defaultdict(int)
    downs: dict[P, int] = defaultdict(int)
    for (_week, player), moved in night_moves(
        places, two_swap_match_points=two_swap_match_points
    ).items():
        if moved == "up":
            ups[player] += 1
        elif moved == "down":
            downs[player] += 1
    return {p: (ups.get(p, 0), downs.get(p, 0)) for p in {x.player for x in places}}


def night_moves(
    places: Sequence[NightPlace[P]], *, two_swap_match_points: int = 10
) -> dict[tuple[int, P], str]:
    """R8.3-R8.5 per night and pool: (week, player) -> "up", "down" or "stays",
    the movement the bot used for the next week's groups."""
    nights: dict[tuple[int, str], list[NightPlace[P]]] = defaultdict(list)
    for line in places:
        nights[(line.week, line.pool)].append(line)
    out: dict[tuple[int, P], str] = {}
    for (week, _pool), lines in nights.items():
        positions = sorted({line.group for line in lines})
        groups = [
            sorted((x for x in lines if x.group == g), key=lambda x: x.place) for g in positions
        ]
        moved = movement(
            [[x.player for x in g] for g in groups],
            [[x.player for x in g if x.took_part] for g in groups],
            {x.player: x.match_points for x in lines},
            two_swap_match_points=two_swap_match_points,
        )
        for line in lines:
            out[(week, line.player)] = (
                "up"
                if line.player in moved.moved_up
                else "down"
                if line.player in moved.moved_down
                else "stays"
            )
    return out


def records(player: P, games: Sequence[GamePlayed[P]]) -> dict[P, Record]:
    """Wins-losses-ties by game points against each opponent, over games both played."""
    by_game: dict[int, dict[P, int]] = defaultdict(dict)
    for g in games:
        if g.source == "live":
            by_game[g.game][g.player] = g.points
    tally: dict[P, list[int]] = defaultdict(lambda: [0, 0, 0])
    for points in by_game.values():
        if player not in points:
            continue
        mine = points[player]
        for other, theirs in points.items():
            if other != player:
                tally[other][0 if mine > theirs else 1 if mine < theirs else 2] += 1
    return {other: Record(*counts) for other, counts in tally.items()}


def player_stats(
    player: P,
    places: Sequence[NightPlace[P]],
    games: Sequence[GamePlayed[P]],
    *,
    two_swap_match_points: int = 10,
) -> PlayerStats[P]:
    """Everything `/stats` shows for one player, from the season's nights and games."""
    mine = [x for x in places if x.player == player]
    counted = [g for g in games if g.player == player and g.source in COUNTED]
    played = [g for g in counted if g.source == "live"]
    lines = []
    for machine in sorted({g.machine for g in played}, key=str.casefold):
        on = [g for g in played if g.machine == machine]
        average = _mean([g.normalized for g in on])
        assert average is not None
        lines.append(MachineLine(machine, len(on), max(g.score for g in on), average))
    up, down = moves(places, two_swap_match_points=two_swap_match_points).get(player, (0, 0))
    met = records(player, games)
    return PlayerStats(
        player=player,
        nights=sum(x.took_part for x in mine),
        games=len(counted),
        average_points=_mean([g.points for g in counted]),
        group_wins=sum(x.took_part and x.place == 1 for x in mine),
        moves_up=up,
        moves_down=down,
        machines=tuple(lines),
        records=tuple(sorted(met.items(), key=lambda kv: (-kv[1].games, str(kv[0]).casefold()))),
    )


def machine_stats(
    machine: str, games: Sequence[GamePlayed[P]], group_nights: Sequence[GroupMachines]
) -> MachineStats[P]:
    """Everything `/machine` shows: high scores (ties: the earlier night first), the
    average raw score, and how often groups vetoed or repeated it (R4.2)."""
    played = [g for g in games if g.machine == machine and g.source == "live"]
    best = sorted(played, key=lambda g: (-g.score, g.week, str(g.player).casefold()))
    vetoed = sum(machine in n.working and machine not in n.played for n in group_nights)
    repeated = sum(max(0, n.played.count(machine) - 1) for n in group_nights)
    return MachineStats(
        machine=machine,
        games=len({g.game for g in played}),
        high_scores=tuple(HighScore(g.player, g.score, g.week, g.day) for g in best[:HIGH_SCORES]),
        average=_mean([g.score for g in played]),
        vetoed=vetoed,
        repeated=repeated,
    )


def most_improved(games: Sequence[GamePlayed[P]], regular_nights: int) -> Improvement[P] | None:
    """The biggest rise in average normalized score per played game from the first
    half of the regular season to the second; None when nobody rose. Ties: the
    higher second-half average, then the name."""
    half = regular_nights // 2
    if half < 1:
        return None
    first: dict[P, list[Fraction]] = defaultdict(list)
    second: dict[P, list[Fraction]] = defaultdict(list)
    for g in games:
        if g.source != "live" or g.week > regular_nights:
            continue
        (first if g.week <= half else second)[g.player].append(g.normalized)
    rises = []
    for player in first.keys() & second.keys():
        before, after = _mean(first[player]), _mean(second[player])
        assert before is not None and after is not None
        if after > before:
            rises.append(Improvement(player, before, after))
    if not rises:
        return None
    return min(rises, key=lambda i: (-i.rise, -i.after, str(i.player).casefold()))
