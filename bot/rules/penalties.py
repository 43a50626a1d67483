"""Malfunctions and penalties: what a score becomes (R12.1-R12.3)."""

from __future__ import annotations

from bot.rules.errors import RuleError
from bot.rules.games import check_score

SCORE_CHANGES = ("correction", "penalty", "malfunction_replay", "slam_tilt_replay", "tilt_replay")


def changed_score(kind: str, old: int | None, new: int | None) -> int:
    """The score after a commissioner's change.

    correction: the right number; R12.1 malfunction replay: the replay's score,
    higher or lower; R12.2 penalty (death save, bang-back, slam tilt, a second
    tilt of another's ball): 0; R12.3 slam-tilt and tilt-away replays: the
    higher of the two scores."""
    if kind not in SCORE_CHANGES:
        raise RuleError(f"Unknown change {kind!r}. Use one of: {', '.join(SCORE_CHANGES)}.")
    if kind == "penalty":
        return 0
    if new is None:
        raise RuleError("Give the new score.")
    check_score(new)
    if kind in ("slam_tilt_replay", "tilt_replay") and old is not None:
        return max(old, new)
    return new
