"""A league night as the bot shows it: picks, locked groups, the week's groups and
play order, a finalized night's results (R3-R8, R11).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from bot.models import (
    Group,
    Night,
    NightResult,
)


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
    play_order: tuple[str, ...] = ()  # game 1: the lowest rank starts (R11.2); absent left out
    absent: tuple[tuple[str, tuple[MissedGame, ...]], ...] = ()  # R3.2: each absent player's games


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
class GameFinish:
    """One player's line in a finalized game (R5), in finishing order."""

    player: str  # the player's name
    points: int
    source: str  # live, pre_makeup, zero_point or zero_point_limit (R3)


@dataclass(frozen=True)
class GameLine:
    number: int
    machine: str
    finish: list[GameFinish]  # winner first


@dataclass(frozen=True)
class GroupSummary:
    label: str
    rows: list[tuple[str, NightResult]]  # (player name, result), winner first
    games: list[GameLine]


@dataclass(frozen=True)
class NightSummary:
    night: Night
    groups: list[GroupSummary]
    payouts: dict[str, int]  # player name -> cents (R10.2)
    pot_cents: int
    next_groups: list[tuple[str, list[str]]]  # (label, player names) for next week
    divisions_formed: bool
    newly_finalized: bool = False  # False: it was final before this call


@dataclass(frozen=True)
class MissedGame:
    number: int | None  # None while the night's games are not resolved yet
    machine: str
    pre_makeup: int | None  # the pre-makeup score on the machine, if any
    counts: bool  # False: the Zero Point Rule gives 0 points (R3.4, or R3.6 past the limit)


@dataclass(frozen=True)
class WantedEvent:
    """A league night as the league's server should show it in its Events: the
    night (playoff night: `week` None), when it starts and ends in UTC, where,
    and its groupings post once it is sent (server, channel and message ids)."""

    night_id: int
    league: str
    week: int | None
    starts: datetime
    ends: datetime
    venue: str
    groupings: tuple[int, int, int] | None = None
