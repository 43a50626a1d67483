"""The audit trail as short lines, newest first, within one Discord message (R12.4)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from bot.ui.render import MESSAGE_LIMIT, keep_whole

if TYPE_CHECKING:
    from bot.models import AuditEntry
    from bot.services.outcomes import AuditTrail

KINDS = {
    "correction": "correction",
    "penalty": "penalty",
    "malfunction_replay": "malfunction replay",
    "slam_tilt_replay": "slam-tilt replay",
    "tilt_replay": "tilt replay",
}


def entry(item: AuditEntry, trail: AuditTrail) -> str:
    when, player, change, reason = entry_lines(item, trail)
    return f"{when} · {player}: {change}: {reason}"


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


def audit_trail(trail: AuditTrail, limit: int = MESSAGE_LIMIT) -> str:
    """As many of the newest changes as fit in one message; says how many are left out."""
    lines = ["**Score changes**, newest first"]
    size = len(lines[0])
    for shown, item in enumerate(trail.entries):
        line = entry(item, trail)
        left = len(trail.entries) - shown
        note = f"…and {left - 1} older. Narrow it with week or player." if left > 1 else ""
        if size + 1 + len(line) + (1 + len(note) if note else 0) > limit:
            lines.append(f"…and {left} older. Narrow it with week or player.")
            break
        lines.append(line)
        size += 1 + len(line)
    return "\n".join(lines)
