"""Playoff formats (R13.3): the final group's places, and a bracket's matches,
games, machine picks and places.

Players are any hashable keys, given in seed order (seed 1 first: the
regular-season standing, R11.1). Nothing here knows the league night; the
services feed it the scores as they are approved.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from bot.rules.errors import RuleError

P = TypeVar("P", bound=Hashable)

FIELD_SIZES = range(2, 5)  # R13.1: 2 to 4 players a division
FORMATS = ("final_group", "bracket")  # R13.3 Decision: the league's choice, a setting
FORMAT_WEEK = 8  # R13.3: the format is made known by the 8th regular night


def format_week(regular_nights: int) -> int:
    """R13.3: the regular night whose groupings announce the playoff format: the
    8th, or the last of a shorter season."""
    if regular_nights < 1:
        raise RuleError(f"A season has at least one regular night, not {regular_nights}.")
    return min(FORMAT_WEEK, regular_nights)


def final_group_places(
    players: Sequence[P], points: Mapping[P, int], normalized: Mapping[P, Fraction]
) -> list[P]:
    """R13.3, final group: places by playoff points (the sum of the game points,
    R5), then by the total of the normalized scores over those games (R6), then
    by regular-season standing: `players` in seed order, best first."""
    seed = {player: index for index, player in enumerate(players)}
    return sorted(
        players, key=lambda p: (-points.get(p, 0), -normalized.get(p, Fraction(0)), seed[p])
    )


@dataclass(frozen=True)
class Match(Generic[P]):
    """Two players of a bracket: `high` is the better seed."""

    high: P
    low: P


def first_matches(seeds: Sequence[P]) -> list[Match[P]]:
    """R13.3, bracket: the first matches by seed. 4 players: 1 v 4 and 2 v 3;
    3: 2 v 3 (seed 1 waits for the final); 2: the final, 1 v 2."""
    if len(seeds) not in FIELD_SIZES:
        raise RuleError(f"A playoff bracket is for 2 to 4 players, not {len(seeds)}.")
    if len(seeds) == 4:
        return [Match(seeds[0], seeds[3]), Match(seeds[1], seeds[2])]
    if len(seeds) == 3:
        return [Match(seeds[1], seeds[2])]
    return [Match(seeds[0], seeds[1])]


def wins_needed(best_of: int) -> int:
    """Games to win a match of `best_of` games (an odd number, R13.3)."""
    if best_of < 1 or best_of % 2 == 0:
        raise RuleError(f"A match is best of an odd number of games, not {best_of}.")
    return best_of // 2 + 1


def game_winner(high_score: int, low_score: int) -> int | None:
    """R13.3: a game goes to the higher raw score: 0 for the match's `high`
    player, 1 for its `low`; None for an exact tie, which is replayed."""
    if high_score == low_score:
        return None
    return 0 if high_score > low_score else 1


def match_winner(games: Sequence[tuple[int, int]], best_of: int) -> int | None:
    """The match's winner (0: `high`, 1: `low`) once one has won enough games,
    else None. Each game is (high's raw score, low's); a tie counts for nobody."""
    needed = wins_needed(best_of)
    won = [0, 0]
    for high_score, low_score in games:
        winner = game_winner(high_score, low_score)
        if winner is not None:
            won[winner] += 1
            if won[winner] == needed:
                return winner
    return None


def next_picker(games: Sequence[tuple[int, int]]) -> int:
    """R13.3: who picks the next game's machine (0: `high`, 1: `low`). The
    higher seed picks game 1; then the loser of the game before (a tie is
    replayed on the same machine, so its picker picks again)."""
    picker = 0
    for high_score, low_score in games:
        winner = game_winner(high_score, low_score)
        if winner is not None:
            picker = 1 - winner
    return picker


def machines_left(machines: Sequence[str], played: Sequence[str]) -> list[str]:
    """R13.3: the playoff machines a match may still pick: none twice in a match."""
    return [m for m in machines if m not in played]


def bracket_places(seeds: Sequence[P], decided: Mapping[Match[P], P]) -> list[P] | None:
    """R13.3 and R13.6: the field's places once every match is decided, else
    None. 4 players: the final's winner and loser, then the winner and loser of
    the match for third; 3: the final's winner and loser, then the loser of 2 v 3;
    2: the final's winner and loser. `decided` maps each match to its winner."""
    first = first_matches(seeds)
    if any(match not in decided for match in first):
        return None
    if len(seeds) == 2:
        (final,) = first
        return [decided[final], _loser(final, decided[final])]
    if len(seeds) == 3:
        (semi,) = first
        final = Match(seeds[0], decided[semi])
        if final not in decided:
            return None
        return [decided[final], _loser(final, decided[final]), _loser(semi, decided[semi])]
    one, two = first
    final = _seeded(seeds, decided[one], decided[two])
    third = _seeded(seeds, _loser(one, decided[one]), _loser(two, decided[two]))
    if final not in decided or third not in decided:
        return None
    return [
        decided[final],
        _loser(final, decided[final]),
        decided[third],
        _loser(third, decided[third]),
    ]


def later_matches(seeds: Sequence[P], decided: Mapping[Match[P], P]) -> list[Match[P]]:
    """The matches the first ones make, once they are decided: the final (and, of
    4 players, the match for third), the better seed first in each."""
    first = first_matches(seeds)
    if len(seeds) == 2 or any(match not in decided for match in first):
        return []
    if len(seeds) == 3:
        return [Match(seeds[0], decided[first[0]])]
    one, two = first
    return [
        _seeded(seeds, decided[one], decided[two]),
        _seeded(seeds, _loser(one, decided[one]), _loser(two, decided[two])),
    ]


ROUNDS = ("semifinal", "final", "third")  # a bracket's rounds, in the order they are played


def bracket_matches(
    seeds: Sequence[P], decided: Mapping[Match[P], P]
) -> list[tuple[str, int, Match[P]]]:
    """R13.3: every match the bracket holds so far, each with its round and slot:
    the first matches, then the final (and, of 4 players, the match for third)
    once the first ones are decided. A field of one plays no match."""
    if len(seeds) < 2:
        return []
    first = first_matches(seeds)
    later = later_matches(seeds, decided)
    if len(seeds) == 2:
        return [("final", 1, first[0])]
    named = [("semifinal", slot, match) for slot, match in enumerate(first, start=1)]
    return named + [
        (round_, 1, match) for round_, match in zip(("final", "third"), later, strict=False)
    ]


def decided_after(games: Sequence[tuple[int, int]], best_of: int) -> int | None:
    """How many of a match's games it took to decide it (None: not decided): a
    match is over once one player has won enough, so no game follows that one."""
    for played in range(1, len(games) + 1):
        if match_winner(games[:played], best_of) is not None:
            return played
    return None


def _loser(match: Match[P], winner: P) -> P:
    return match.low if winner == match.high else match.high


def _seeded(seeds: Sequence[P], a: P, b: P) -> Match[P]:
    return Match(a, b) if seeds.index(a) < seeds.index(b) else Match(b, a)


def replacements(
    qualifiers: Sequence[P], alternates: Sequence[P], missing: Collection[P], ready: Collection[P]
) -> list[tuple[P, P | None]]:
    """R13.5: at the end of the grace period each `missing` qualifier (not checked
    in, or with an absence notice) is replaced by the next alternate in standings
    order who is `ready` (checked in, no absence notice): (who is out, who takes
    the place). None: no alternate is left, and the field plays one short.
    `qualifiers` and `alternates` are in standings order."""
    waiting = [a for a in alternates if a in ready]
    out: list[tuple[P, P | None]] = []
    for player in qualifiers:
        if player in missing:
            out.append((player, waiting.pop(0) if waiting else None))
    return out


def seeded(players: Iterable[P], standing: Mapping[P, int]) -> list[P]:
    """R13.5: the field seeded again by regular-season standing (1 is the best)."""
    return sorted(players, key=lambda p: standing[p])


def season_places(
    playoff_places: Sequence[P], replaced: Collection[P], standings: Sequence[P]
) -> list[P]:
    """R13.6: a division's final places: the field by its playoff places, then the
    qualifiers replaced under R13.5, then everyone else in standings order
    (`standings`: the division's, best first)."""
    first = list(playoff_places) + [
        p for p in standings if p in replaced and p not in playoff_places
    ]
    return first + [p for p in standings if p not in first]


def prize_order(places: Sequence[P], replaced: Collection[P]) -> list[P]:
    """R13.6 Decision: a replaced qualifier forfeits any end-of-season prize, as
    an absent player forfeits a weekly one (R10.3): the prize goes to the next place."""
    return [p for p in places if p not in replaced]
