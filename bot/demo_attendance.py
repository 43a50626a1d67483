"""The demo night's attendance in one tap: a player taps "Running late…" under
the groupings post and fills in its form, and the commissioner checks the
players in on the night's attendance board as they arrive."""

from __future__ import annotations

from datetime import datetime
from typing import Any

# The night is bot.demo_night's LeagueNight, which calls these (typed loosely:
# naming it here would make the two modules import each other).
LeagueNight = Any


async def late_in_one_tap(night: LeagueNight, name: str, minutes: str, note: str) -> None:
    """`name` taps "Running late…" on the groupings post and fills in the form."""
    groupings = night.standin.channel_messages(night.world.announcements)[0]
    opened = await night.click(night.member(name), groupings, "Running late…")
    late = {"About how many minutes late?": minutes, "Note (optional)": note}
    night.t.answered(await night.fill(night.member(name), opened, late))
    await night.delivered()
    night.flush()


ARRIVED = ("Ann", "Bob", "Cat", "Eve", "Fay")  # the demo's players there by 19:05


async def check_in(night: LeagueNight, when: datetime, names: tuple[str, ...] = ARRIVED) -> None:
    """The commissioner picks the players who came in the board's menu; the
    board, edited, shows the night's attendance."""
    night.standin.set_time(when)
    night.t.heading(when, "players arrive: the commissioner checks them in")
    board = next(
        m
        for m in night.standin.channel_messages(night.world.approvals)
        if (m.get("embeds") or [{}])[0].get("title", "").startswith("Attendance")
    )
    menu = board["components"][0]["components"][0]
    here = [o["value"] for o in menu["options"] if o["label"] in names]
    await night.click(night.world.commissioner, board, "Check in…", here)
    night.t.posted(night.world.approvals, night.standin.message(int(board["id"])) or board)
