"""Season standings, ranks, play order (R11) and playoffs (R13)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic

from bot.rules.errors import RuleError
from bot.rules.exact import exact
from bot.rules.groups import UNRATED_SKILL
from bot.rules.playoffs import FIELD_SIZES
from bot.rules.ranks import P, lowest_rank_first
from bot.rules.settings import DEFAULT_SETTINGS, RuleSettings


@dataclass(frozen=True)
class SeasonLine(Generic[P]):
    """One player's season so far: the facts R11.1 orders by."""

    player: P
    league_points: int  # game points plus multiplied bonus points
    tns: Fraction  # season total normalized score, exact (R6.1 Decision)
    skill: float | None  # the commissioner's rating, 1-10
    signup: int  # sign-up order, lower signed up earlier


@dataclass(frozen=True)
class Standing(Generic[P]):
    rank: int
    line: SeasonLine[P]


def season_standings(lines: Sequence[SeasonLine[P]]) -> list[Standing[P]]:
    """R11.1: by total league points, then season TNS, then skill rating
    (unrated as 5.5, R8.2), then sign-up order. Rank 1 is best."""
    if len({line.player for line in lines}) != len(lines):
        raise RuleError("A player appears twice in the standings.")

    def key(line: SeasonLine[P]) -> tuple[int, Fraction, float, int]:
        skill = UNRATED_SKILL if line.skill is None else line.skill
        return (-line.league_points, -exact(line.tns), -skill, line.signup)

    return [Standing(rank, line) for rank, line in enumerate(sorted(lines, key=key), start=1)]


def first_game_order(group: Iterable[P], ranks: Mapping[P, int]) -> list[P]:
    """R11.2: game 1's play order: the lowest rank starts, the highest plays
    last; an unranked player (`bot.rules.ranks.UNRANKED`) starts before them."""
    return lowest_rank_first(group, ranks)


def next_game_order(previous_finish: Sequence[str]) -> list[str]:
    """R11.2: later games: last place of the previous game starts, its winner
    plays last."""
    return list(reversed(previous_finish))


def playoff_spots(division_size: int, settings: RuleSettings = DEFAULT_SETTINGS) -> int:
    """R13.1 Decision: division size ÷ 3, rounded down, clamped to 2..4 (the
    settings' bounds); never more than 4, what a final group or bracket holds."""
    spots = division_size // settings.playoff_divisor
    return min(max(FIELD_SIZES), max(settings.playoff_min, min(settings.playoff_max, spots)))


@dataclass(frozen=True)
class PlayoffField(Generic[P]):
    qualifiers: list[P]
    alternates: list[P]  # first alternate first


def playoff_field(
    division_standings: Sequence[P], settings: RuleSettings = DEFAULT_SETTINGS
) -> PlayoffField[P]:
    """R13.1: the top players of a division qualify; the next are alternates."""
    spots = playoff_spots(len(division_standings), settings)
    return PlayoffField(list(division_standings[:spots]), list(division_standings[spots:]))


def replace_no_shows(field: PlayoffField[P], unavailable: Collection[P]) -> list[P]:
    """R13.2: each qualifier who is absent after the grace period or cannot
    come is replaced by the first available alternate, in order."""
    alternates = [p for p in field.alternates if p not in unavailable]
    final = []
    for player in field.qualifiers:
        if player not in unavailable:
            final.append(player)
        elif alternates:
            final.append(alternates.pop(0))
    return final
