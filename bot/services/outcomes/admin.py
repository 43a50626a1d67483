"""The commissioner's audit trail and the outbox's status and resend."""

from __future__ import annotations

from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from bot.models import (
    AuditEntry,
    Night,
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
