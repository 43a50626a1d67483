"""The demo night in Discord's own terms: a player taps "Running late…" under
the groupings post and fills in its form, the commissioner checks the players
in on the night's attendance board as they arrive, and each group has its
thread once picks lock."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.transcript import first_lines, indent, printed
from standin import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS

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


async def group_threads_on(night: LeagueNight) -> None:
    """Koi, who runs the server, turns on a thread per group (the bot was
    invited with the permissions it needs), on the demo's own night only."""
    if not night.group_threads:
        return
    night.standin.grant_bot(night.world.guild, CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    await night.run(night.world.commissioner, "setup-night", {"group_threads": True}, quiet=True)
    night.t.say("Koi turns on a thread per group (/setup-night group_threads:True; not shown)")


async def lock(night: LeagueNight, when: datetime) -> None:
    """Picks lock: the lock post, and with a thread per group, Group 2's thread."""
    if not night.group_threads:
        await night.scheduled("lock", when, most=10)
        return
    await night.scheduled("lock", when, most=1)  # its groups are in their threads now
    group_thread(night, "Group 2", most=7)


def group_thread(night: LeagueNight, label: str, most: int) -> None:
    """The first message of group `label`'s thread, made when picks locked."""
    thread = next(t for t in night.standin.threads(night.world.announcements)
                  if t["name"].endswith(f"· {label}"))  # fmt: skip
    first = night.standin.channel_messages(int(thread["id"]))[0]
    night.t.say(indent(f"#{thread['name']} (thread) bot: {first_lines(printed(first), most)}"))
