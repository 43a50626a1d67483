"""League nights and late notices (R1, R2).

Pure date arithmetic: `now` is always passed in, never read.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from datetime import date, datetime, time, timedelta

from bot.rules.errors import RuleError

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def weekday_number(name: str) -> int:
    """A weekday by name (R1.1), Monday = 0."""
    try:
        return WEEKDAYS.index(name.strip().capitalize())
    except ValueError:
        raise RuleError(f"{name!r} is not a weekday; use a name like 'Wednesday'.") from None


def league_nights(
    start: date, weekday: str, count: int, skipped: Collection[date] = ()
) -> list[date]:
    """R1.1-R1.2: the dates of the regular season's `count` nights.

    The first night is the first league weekday on or after `start`; a skipped
    date is not a night and moves every later week by one."""
    if count < 1:
        raise RuleError("A season has at least one league night.")
    target = weekday_number(weekday)
    day = start + timedelta(days=(target - start.weekday()) % 7)
    nights: list[date] = []
    while len(nights) < count:
        if day not in skipped:
            nights.append(day)
        day += timedelta(days=7)
    return nights


def playoff_night(nights: list[date], skipped: Collection[date] = ()) -> date:
    """R1.1: playoffs are on the league weekday right after the last regular night."""
    day = nights[-1] + timedelta(days=7)
    while day in skipped:
        day += timedelta(days=7)
    return day


def notice_timing(now: datetime, night: date, cutoff: time = time(15, 0)) -> str:
    """R2.1: "advance" before league day, "on_time" on league day before the
    cutoff, "after_cutoff" from then on. `now` is in the league's local time."""
    if now.date() < night:
        return "advance"
    if now.date() > night:
        raise RuleError(f"The league night of {night:%d %B %Y} is over.")
    return "on_time" if now.time() < cutoff else "after_cutoff"


# A league night's times in the order they come (R1.3, R2.1, R4.3): the
# groupings, the late-notice cutoff, picks locking, play, the grace end.
NIGHT_TIMES = ("groupings_time", "late_cutoff", "picks_lock_time", "play_time", "grace_until")


def times_out_of_order(times: dict[str, time]) -> tuple[str, str] | None:
    """R1.3: the first two of a night's times (NIGHT_TIMES) out of their order,
    else None. Picks may lock as play starts; the grace ends after it starts."""
    for early, late in itertools.pairwise(NIGHT_TIMES):
        if times[early] > times[late] or (late == "grace_until" and times[early] == times[late]):
            return early, late
    return None
