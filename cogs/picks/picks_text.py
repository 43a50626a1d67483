"""What a player reads about their picks (R4)."""

from __future__ import annotations

from bot.services.outcomes.night import PickList


def pick_list(picks: PickList) -> str:
    if not picks.picks:
        return f"Your picks for week {picks.night.week} are empty."
    word = "vetoes" if picks.kind == "veto" else "repeats"
    listed = ", ".join(f"{n}. {m}" for n, m in enumerate(picks.picks, start=1))
    return (
        f"Your {word} for week {picks.night.week}, in order: {listed}.\n"
        f"Each group applies {picks.needed}; lowest-ranked players pick first."
    )
