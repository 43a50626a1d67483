"""What a player's next weeks can still change, for /me: the race for
division A (R9.2), the race for the playoffs (R13.1) and next week's
multiplier (R7.4). Pure: the services bring the results and standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.rules.divisions import WEEK_RESULTS
from bot.rules.errors import RuleError
from bot.rules.match import multiplier_after
from bot.rules.settings import DEFAULT_SETTINGS, RuleSettings

WINDOW = 5  # R9.2: the weeks before the division week that count
WINS_FOR_A, SAFE_FOR_A = 2, 4  # R9.2: W ≥ 2 and S ≥ 4


@dataclass(frozen=True)
class ARace:
    """R9.2 for one player before the division week. `state` is "qualified"
    (W ≥ 2 and S ≥ 4 already), "out" (no result of the weeks left can get
    there) or "open"; then `wins` more group wins and `safe` more weeks not
    moved down (a win counts as one) are needed in the `left` weeks left."""

    state: Literal["qualified", "open", "out"]
    wins: int
    safe: int
    left: int


def a_race_weeks(division_week: int) -> range:
    """R9.2: the weeks that count for A, the 5 before the division week (fewer
    when it comes earlier)."""
    return range(max(1, division_week - WINDOW), division_week)


def a_race(results: Sequence[str], left: int) -> ARace:
    """R9.2: where a player stands for A with `results` ("won", "stayed" or
    "down") of the window's weeks played so far and `left` weeks of it to play."""
    if left < 0 or len(results) + left > WINDOW:
        raise RuleError(f"The race for A looks at {WINDOW} weeks, not {len(results) + left}.")
    if any(result not in WEEK_RESULTS for result in results):
        raise RuleError("A week's result is 'won', 'stayed' or 'down'.")
    won = sum(result == "won" for result in results)
    safe = sum(result != "down" for result in results)
    wins, more_safe = max(0, WINS_FOR_A - won), max(0, SAFE_FOR_A - safe)
    if wins == 0 and more_safe == 0:
        return ARace("qualified", 0, 0, left)
    if max(wins, more_safe) > left:  # each week left gives at most one of each
        return ARace("out", wins, more_safe, left)
    return ARace("open", wins, more_safe, left)


@dataclass(frozen=True)
class PlayoffRace:
    """R13.1 as the standings are now: the player's place in their division,
    the number of playoff spots, and the points to the line: ahead of the first
    player out when in (None: nobody below), behind the last spot when out."""

    place: int  # 1 = first in the division
    spots: int
    margin: int | None


def playoff_race(points: Sequence[int], place: int, spots: int) -> PlayoffRace:
    """R13.1: `points` are the division's league points in standing order (R11.1),
    `place` the player's (1-based), `spots` the qualifiers the division sends."""
    if not 1 <= place <= len(points):
        raise RuleError(f"Place {place} is not in a division of {len(points)}.")
    if spots < 1:
        raise RuleError("A division sends at least one player to the playoffs.")
    mine = points[place - 1]
    if place <= spots:
        below = points[spots] if spots < len(points) else None
        return PlayoffRace(place, spots, None if below is None else mine - below)
    return PlayoffRace(place, spots, points[spots - 1] - mine)


@dataclass(frozen=True)
class NextMultiplier:
    """R7.4: the multiplier a player takes into next week after winning,
    staying in the middle of, or losing their group this week."""

    win: int
    stay: int
    lose: int


def next_multipliers(
    week: int, current: int, last_week: int, settings: RuleSettings = DEFAULT_SETTINGS
) -> NextMultiplier | None:
    """R7.4: what week `week`'s result makes next week's multiplier (None when
    nothing rides on it: the multiplier has not started by next week, or
    `week` is the season's last)."""
    if week >= last_week or week + 1 < settings.multiplier_start_week:
        return None
    return NextMultiplier(
        win=multiplier_after(week, current, won=True, lost=False, settings=settings),
        stay=multiplier_after(week, current, won=False, lost=False, settings=settings),
        lose=multiplier_after(week, current, won=False, lost=True, settings=settings),
    )
