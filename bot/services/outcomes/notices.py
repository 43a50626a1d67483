"""Late notices and absences, and a skipped date's effect on them (R1.2, R2, R3)."""

from __future__ import annotations

from dataclasses import dataclass
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
