"""The commissioner's audit trail, the outbox's status and resend, and how the
league's nights show in Discord."""

from __future__ import annotations

from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from bot.models import (
    AuditEntry,
    League,
    Night,
    NightSetup,
    OutboxItem,
)


@dataclass(frozen=True)
class AuditTrail:
    entries: list[AuditEntry]  # newest first
    zone: ZoneInfo  # the league's, to show when each change was made (R1.3)


@dataclass(frozen=True)
class DeliveryStatus:
    """The outbox: what waits to be sent, what was refused for good."""

    waiting: list[OutboxItem]
    failed: list[OutboxItem]
    delivered: int
    schema: int  # the database's schema version
    weeks: dict[int, str] = field(default_factory=dict)  # night id -> 'week 5', for words


@dataclass(frozen=True)
class Resent:
    """`/league admin resend`: the failed posts owed again, and the week whose
    results are posted again (None: no week asked)."""

    requeued: list[OutboxItem]
    night: Night | None


@dataclass(frozen=True)
class NightShown:
    """/setup-night's answer: how the league's nights show in Discord, the
    league's times (None: the league is not named yet), the running season's
    weekday (None: no season running), and what was changed now."""

    setup: NightSetup
    league: League | None
    season_weekday: str | None
    changed: tuple[str, ...] = ()
    weekday: str = "Wednesday"  # the weekday of seasons started from now on
