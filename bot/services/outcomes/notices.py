"""Late notices and absences, and a skipped date's effect on them (R1.2, R2, R3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, time

from bot.models import (
    Night,
    Notice,
    Player,
)
from bot.services.outcomes.night import MissedGame


@dataclass(frozen=True)
class NoticeGiven:
    notice: Notice
    player: Player
    night: Night
    late_cutoff: time  # R2.1, the league's setting
    grace_until: time  # R2.2, the league's setting
    missed: list[MissedGame]  # the games missed if absent: game by game (R3.2, R3.4)
    pre_makeup_nights_left: int  # R3.5, before this night
    zero_point_everywhere: bool  # R3.6: no pre-makeup nights left
    lock_time: time  # when the night's games are set (a league setting)


@dataclass(frozen=True)
class NoticeWithdrawn:
    player: Player
    night: Night
    kind: str  # late, absent


@dataclass(frozen=True)
class WithdrawnNotice:
    """A late notice or absence withdrawn because its date has no league night."""

    player: Player
    kind: str  # late, absent
    day: date  # the date it was given for


@dataclass(frozen=True)
class DateSkipped:
    """What skipping a date did (R1.2), for the commissioner and the players."""

    day: date
    reason: str
    nights: list[Night]  # the season's nights with their new dates
    withdrawn: list[WithdrawnNotice]  # given for the skipped date
    kept: int  # live notices for later dates, still with their dates
    stranded: list[WithdrawnNotice]  # for a later date left with no night (not expected)


@dataclass(frozen=True)
class NoticeRecord:
    """A late notice or absence as stored, for the commissioner's post about it."""

    notice: Notice
    player: Player
    night: Night


@dataclass(frozen=True)
class BoardLine:
    """One player on a night's attendance board."""

    player_id: int
    name: str
    group: str  # the group's label ("Group 2", "A1")
    minutes: int | None = None  # a late notice's minutes
    by: time | None = None  # a late notice's arrival time: the play time plus its minutes
    note: str = ""


@dataclass(frozen=True)
class AttendanceBoard:
    """R2: a league night's attendance for the commissioner, as it stands: who
    is in (checked in, or has a score that night), late, out, and who has said
    nothing; the check-in menus' players. `open` until the night is finalized."""

    night: Night
    in_: list[BoardLine]
    late: list[BoardLine]
    out: list[BoardLine]
    silent: list[BoardLine]
    undoable: list[BoardLine]  # checked in with no score yet: a check-in can be undone
    open: bool
    message_id: int | None

    @property
    def checkable(self) -> list[BoardLine]:
        """Who may still be checked in: the late, the silent, then the out."""
        return [*self.late, *self.silent, *self.out]


@dataclass(frozen=True)
class CheckedIn:
    """The players a check-in (or its undoing) changed, and those it left alone."""

    night: Night
    done: list[str]
    already: list[str]
    undo: bool = False
    not_tonight: list[str] = field(default_factory=list)  # picked, but in none of tonight's groups
