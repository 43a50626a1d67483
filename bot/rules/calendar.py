"""League nights and late notices (R1, R2).

Pure date arithmetic: `now` is always passed in, never read.
"""

from __future__ import annotations

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
