"""The standings, a player's season and the playoff field (R6, R7, R11, R13)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from bot.models import Player
from bot.scoring import ARace, NextMultiplier, PlayoffRace
from bot.services.outcomes.scores import TonightScore


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: Player
    division: str  # '' before divisions, else 'A' or 'B'
    league_points: int
    tns: Fraction  # exact (R6.1 Decision); round only to show
    nights: int
    multiplier: int  # carried into the next night (R7.4)


@dataclass(frozen=True)
class PlayoffStanding:
    """A player's part in their season's playoffs (R13.1, R13.5, R13.6)."""

    day: date  # playoff night
    role: str  # qualifier (in the field, also after stepping in), alternate, or replaced
    place: int | None  # the playoff place, once the playoffs are decided
    decided: bool


@dataclass(frozen=True)
class Stakes:
    """What rides on the next league night (week `week`) for one player."""

    week: int
    division: str  # the player's division once divisions are formed, else ''
    a_race: ARace | None  # before the division week, in the weeks that count
    playoffs: PlayoffRace | None  # over the season's last weeks, in the division
    multiplier: NextMultiplier | None


@dataclass(frozen=True)
class PlayerSeason:
    player: Player
    rank: int
    nights: int
    league_points: int
    multiplier: int
    pre_makeup_nights_used: int
    pre_makeup_nights_left: int
    dues_paid_cents: int
    dues_owed_cents: int  # R10.1: dues for nights held so far, less what was paid
    weeks: list[tuple[int, int, int, str]]  # (week, match points, league points, result)
    tonight: list[TonightScore] = field(default_factory=list)  # today's night, if any
    playoffs: PlayoffStanding | None = None  # once playoff night is set
    past: str | None = None  # a past (or closed) season's name: no next night to speak of
    stakes: Stakes | None = None  # what rides on the running season's next night
    coming_night: int | None = None  # the id of the next league night not over (its buttons)


@dataclass(frozen=True)
class PlayoffDivision:
    division: str
    qualifiers: list[str]
    alternates: list[str]


@dataclass(frozen=True)
class PointsByWeek:
    """The standings and each player's league points by finalized week."""

    rows: list[StandingRow]
    weeks: list[int]
    points: dict[int, dict[int, int]]  # player id -> week -> league points
