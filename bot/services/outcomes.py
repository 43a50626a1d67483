"""What services return for the bot to show: frozen dataclasses, no behaviour.

Services build these and `bot/ui` renders them. This module and
`bot.services.errors` are the only parts of `bot.services` that `bot/ui` may
import (tests/test_layers.py): they hold data and error types, import nothing
of the project but `bot.models` and `bot.scoring`, and call no service.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time

from bot.models import Game, Group, Night, Player, Score


@dataclass(frozen=True)
class PickList:
    night: Night
    kind: str  # veto, repeat, none (R4.2)
    needed: int  # k = |P - games| for each group
    picks: list[str]  # the player's picks in preference order


@dataclass(frozen=True)
class LockedGroup:
    group: Group
    week: int
    label: str
    games: list[str]  # machine names, game 1 first
    kind: str
    applied: list[str]
    filled: list[str]  # applied by the bot in machine order (R4.5)
    newly_locked: bool = True  # False: the night was locked before this call
    day: date | None = None  # the night's date
    play_order: tuple[str, ...] = ()  # game 1: the lowest rank starts (R11.2)


@dataclass(frozen=True)
class GroupView:
    label: str
    players: list[str]  # ladder order
    play_order: list[str]  # game 1: the lowest rank starts, the highest plays last
    games: list[tuple[int, str]]  # (number, machine) once picks are locked


@dataclass(frozen=True)
class WeekView:
    night: Night
    groups: list[GroupView]
    pick_kind: str  # veto, repeat or none (R4.2)
    picks_needed: int
    owes_pre_makeups: dict[str, list[str]]  # player -> working machines still owed (R3.1)
    lock_time: time  # when picks lock (a league setting)
    late_cutoff: time  # the same-day late-notice cutoff (R2.1)


@dataclass(frozen=True)
class ScoreView:
    score: Score
    player: Player
    game: Game
    night: Night
    group_label: str


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: Player
    division: str  # '' before divisions, else 'A' or 'B'
    league_points: int
    tns: float
    nights: int
    multiplier: int  # carried into the next night (R7.4)


@dataclass(frozen=True)
class PlayerSeason:
    player: Player
    rank: int
    nights: int
    league_points: int
    tns: float
    multiplier: int
    pre_makeup_nights_used: int
    pre_makeup_nights_left: int
    dues_paid_cents: int
    dues_owed_cents: int  # R10.1: dues for nights held so far, less what was paid
    weeks: list[tuple[int, int, int, str]]  # (week, match points, league points, result)


@dataclass(frozen=True)
class PlayoffDivision:
    division: str
    qualifiers: list[str]
    alternates: list[str]


@dataclass(frozen=True)
class NoticeLine:
    """One late notice or absence, as the cutoff post lists it (R2.1-R2.2)."""

    player: str
    kind: str  # late or absent
    minutes: int | None


@dataclass(frozen=True)
class CutoffPost:
    """The late-notice cutoff has passed (R2.1-R2.2)."""

    week: int
    cutoff: time
    grace_until: time
    notices: list[NoticeLine]


@dataclass(frozen=True)
class GracePost:
    """The grace period is over (R2.3): who has sent no notice and no score."""

    week: int
    grace_until: time
    missing: list[str]  # player names, group by group


@dataclass(frozen=True)
class GroupingsPost:
    """The week's groups, games and play order (R8, R11.2)."""

    view: WeekView


@dataclass(frozen=True)
class LockPost:
    """Picks are locked: each group's games (R4)."""

    week: int
    groups: list[LockedGroup]


@dataclass(frozen=True)
class SkippedPost:
    """The commissioner skipped this date (R1.2)."""

    day: date


@dataclass(frozen=True)
class Post:
    """A scheduled post that is due: its claim key and what it says."""

    key: str
    kind: str  # groupings, cutoff, lock or grace
    content: CutoffPost | GracePost | GroupingsPost | LockPost | SkippedPost
    late: bool  # posted after its time (the bot was offline then)
    at: time  # when it was due
