"""How /remind answers, and how each reminder DM reads on a phone."""

from __future__ import annotations

from typing import Any

WHAT = {
    "league_day": "league day, before the late-notice cutoff: your time and group",
    "missing_scores": "after the grace period, when one of your scores is still missing",
    "waiting_scores": "after the night, scores still waiting for approval (commissioners)",
}


def choices(chosen: dict[str, bool], *, changed: bool) -> str:
    """The member's reminders, on and off."""
    head = "Your reminders are saved:" if changed else "Your reminders:"
    lines = [head]
    lines.extend(f"- {'on' if chosen[k] else 'off'}: {WHAT[k]}" for k in WHAT)
    lines.append("They come as DMs: at most three a night, and none if your DMs are closed.")
    return "\n".join(lines)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def reminder(data: dict[str, Any]) -> str:
    """A reminder DM, from what was frozen when it was owed."""
    week = int(data["week"])
    if data["kind"] == "league_day":
        with_ = f" with {_and(list(data['with']))}" if data.get("with") else ""
        return (f"**League night tonight** · week {week} at {data['play']}, {data['group']}"
                f"{with_}.\nRunning late or can't come? Tell us by {data['cutoff']} with one "
                "tap:")  # fmt: skip
    if data["kind"] == "missing_scores":
        games = [f"game {number} ({machine})" for number, machine in data["games"]]
        return (f"**Week {week}** · your score is not in yet for {_and(games)}. Send it with "
                "/score in the league's server.")  # fmt: skip
    count = int(data["count"])
    scores = "1 score is" if count == 1 else f"{count} scores are"
    return f"**Week {week}** · {scores} still waiting for approval in the approvals channel."
