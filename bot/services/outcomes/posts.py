"""The scheduled posts of a league day: the cutoff, the grace period, the
groupings, the lock, a skipped date (R1.2, R2, R4, R8).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time

from bot.services.outcomes.night import LockedGroup, WeekView
from bot.services.outcomes.playoffs import PlayoffNightShown, PlayoffPreview, Replacement


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
    """The week's groups, games and play order (R8, R11.2); on the night that
    makes the playoff format known, the format and the field as it stands (R13.3)."""

    view: WeekView
    playoffs: PlayoffPreview | None = None


@dataclass(frozen=True)
class PlayoffTonightPost:
    """R13.4: playoff night's groupings-time post: the field, the format and
    the check-in before the grace period ends."""

    shown: PlayoffNightShown


@dataclass(frozen=True)
class PlayoffGracePost:
    """R13.5: the end of the grace period on playoff night: who replaced whom,
    and the field seeded again."""

    replacements: list[Replacement]
    shown: PlayoffNightShown


@dataclass(frozen=True)
class LockPost:
    """Picks are locked: each group's games (R4)."""

    week: int
    groups: list[LockedGroup]


@dataclass(frozen=True)
class SkippedPost:
    """The commissioner skipped this date (R1.2)."""

    day: date


PostContent = (
    CutoffPost | GracePost | GroupingsPost | LockPost | SkippedPost
    | PlayoffTonightPost | PlayoffGracePost
)  # fmt: skip


@dataclass(frozen=True)
class Post:
    """A scheduled post that is due: its claim key and what it says."""

    key: str
    kind: str  # groupings, cutoff, lock or grace
    content: PostContent
    late: bool  # posted after its time because the bot was offline then
    at: time  # when it was due
    day: date  # the league day it belongs to
