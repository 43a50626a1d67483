"""A group's thread on league night, as its players read it on a phone: its
name, its first message (the group's games, play order and the pre-makeup
scores its absent players stand on) and each score as it is approved."""

from __future__ import annotations

from bot.services.outcomes.night import LockedGroup
from bot.services.outcomes.scores import ScoreView
from bot.ui.fit import cut_line
from bot.ui.render import group_lines

NAME_MAX = 100  # Discord's longest thread name


def thread_name(group: LockedGroup) -> str:
    return cut_line(f"Week {group.week} · {group.label}", NAME_MAX)


def opening(group: LockedGroup) -> str:
    lines = group_lines(group)
    lines[0] = lines[0].replace(f"**{group.label}**: ", "**Tonight's games:** ", 1)
    lines.append("Scores show up here as the commissioner approves them. /score works here too.")
    return "\n".join(line.removeprefix("  ") for line in lines)


def approved(view: ScoreView, *, corrected: bool = False) -> str:
    """A score as it is approved, or as the commissioner corrected it (R12)."""
    mark = "✏️ Corrected:" if corrected else "✅"
    return (f"{mark} {view.player.name} · Game {view.game.number} · {view.game.machine}: "
            f"{view.score.score:,}")  # fmt: skip
