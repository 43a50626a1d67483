"""The audit trail's changes as short lines for a phone, newest first (R12.4);
`bot.components.paging` pages them."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from bot.ui.render import keep_whole

if TYPE_CHECKING:
    from bot.models import AuditEntry
    from bot.services.outcomes.admin import AuditTrail

KINDS = {
    "correction": "correction",
    "penalty": "penalty",
    "malfunction_replay": "malfunction replay",
    "slam_tilt_replay": "slam-tilt replay",
    "tilt_replay": "tilt replay",
}


def entry_lines(item: AuditEntry, trail: AuditTrail) -> list[str]:
    """One change in four short lines: when and by whom, whose score, the change, why."""
    c = item.change
    when = datetime.fromisoformat(c.changed_at).astimezone(trail.zone)
    old = f"{c.old_score:,}" if c.old_score is not None else "none"
    return [
        f"{when:%a %d %b %H:%M} · <@{c.changed_by}>",
        f"**{keep_whole(item.player)}**, week {item.week} game {item.game}",
        f"{old} → {c.new_score:,} ({KINDS.get(c.kind, c.kind)})",
        f"“{c.reason}”",
    ]
