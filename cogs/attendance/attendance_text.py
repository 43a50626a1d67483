"""Message text for a player taking back their late notice or absence (R2)."""

from __future__ import annotations

from cogs.attendance.attendance_outcomes import NoticeWithdrawn

KINDS = {"late": "late notice", "absent": "absence"}


def withdrawn(taken: NoticeWithdrawn) -> str:
    """The player's reply."""
    return (
        f"Your {KINDS[taken.kind]} for week {taken.night.week} "
        f"({taken.night.date:%A %d %B}) is taken back: you are expected as usual."
    )


def withdrawn_for_commissioner(taken: NoticeWithdrawn) -> str:
    """The approvals channel, where the notice itself was posted."""
    return f"{taken.player.name}: took back their {KINDS[taken.kind]} for week {taken.night.week}"
