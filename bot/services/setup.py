"""League and season setup: the league, its season, its settings and times (R1.1,
R1.3)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

import aiosqlite

from bot.database import Database
from bot.models import League, Night, Season
from bot.repositories import leagues, playoff_nights
from bot.scoring import (
    WEEKDAYS,
    RuleError,
    league_nights,
    weekday_number,
)
from bot.services import playoffs
from bot.services.context import (
    SeasonContext,
    brief,
    check_name,
    check_zone,
    league_of,
    season_of,
    stamp,
)
from bot.services.errors import BadInput, Conflict, WrongState

SETTING_LIMITS = {  # name: (low, high) accepted from the commissioner
    "regular_nights": (1, 52),
    "games_per_night": (1, 10),
    "pre_makeup_night_limit": (0, 52),
    "bonus_start_week": (1, 52),
    "multiplier_start_week": (2, 52),
    "division_week": (2, 52),
    "division_min_players": (4, 1000),
    "two_swap_match_points": (0, 40),
    "dues_cents": (0, 100_000),
    "payout_first_percent": (50, 100),
    "playoff_divisor": (1, 20),  # R13.1
    "playoff_min": (1, 4),  # R13.1: a final group or bracket holds 4 at most
    "playoff_max": (1, 4),
    "playoff_games": (1, 10),  # R13.3: a final group's games
    "playoff_best_of": (1, 9),  # R13.3: a bracket match's games, an odd number
    "prize_consolation_a": (0, 100),  # R10.4: percent of the division's 2nd-place prize
    "prize_consolation_b": (0, 100),
}
PRIZE_PLACES = ("prize_places_a", "prize_places_b")  # R10.4: percents of the fund, "30,15,10"
YES_NO = ("photo_required",)  # /score needs a photo of the score display
CHOICES = {  # R13.3: the playoff format, as typed -> as stored
    "playoff_format": {
        "final_group": "final_group", "final group": "final_group", "group": "final_group",
        "bracket": "bracket",
    },
}  # fmt: skip
SETTINGS = (*SETTING_LIMITS, *PRIZE_PLACES, *YES_NO, *CHOICES)


@dataclass(frozen=True)
class SettingChanged:
    name: str
    shown: str  # the new value as the commissioner would type it
    announced: bool = False  # R13.3: the players were told of the playoffs' change


async def create_league(
    db: Database, guild_id: int, name: str, *, time_zone: str = "America/New_York", now: datetime
) -> League:
    """Start the league of a Discord server (one per server)."""
    name = check_name(name, "league", 100)
    check_zone(time_zone)
    async with db.transaction() as conn:
        if await leagues.league_by_guild(conn, guild_id) is not None:
            raise Conflict("This server already has a league.")
        await leagues.add_league(conn, guild_id, name, time_zone, stamp(now))
        return await league_of(conn, guild_id)


async def _left_to_play(conn: aiosqlite.Connection, season_id: int) -> str:
    """What a season has left to play, in words ('' when it is over)."""
    weeks = [n.week for n in await leagues.nights(conn, season_id) if n.status == "scheduled"]
    finale = await playoff_nights.playoff_night(conn, season_id)
    left = []
    if weeks:
        left.append(f"week {weeks[0]}" if len(weeks) == 1 else f"weeks {weeks[0]}-{weeks[-1]}")
    if finale is not None and finale.status != "finalized":
        left.append("playoff night")
    return " and ".join(left) + (" to play" if left else "")


async def start_season(
    db: Database,
    guild_id: int,
    name: str,
    start: date,
    *,
    weekday: str = "Wednesday",
    regular_nights: int = 10,
    now: datetime,
) -> tuple[Season, list[Night]]:
    """R1.1: a season of `regular_nights` nights on `weekday` from `start`.

    The previous season, if any, is closed; its history stays."""
    name = check_name(name, "season", 100)
    try:
        weekday = WEEKDAYS[weekday_number(weekday)]
    except (RuleError, ValueError):
        raise BadInput(f"{brief(weekday)} is not a weekday; use a name like 'Wednesday'.") from None
    today = now.date()
    earliest, latest = today - timedelta(days=366), today + timedelta(days=2 * 366)
    if not earliest <= start <= latest:
        raise BadInput(
            f"A season starts within a year before or two years after today, "
            f"from {earliest:%d %B %Y} to {latest:%d %B %Y}; not on {start:%d %B %Y}."
        )
    low, high = SETTING_LIMITS["regular_nights"]
    if not low <= regular_nights <= high:
        raise BadInput(f"A season has {low} to {high} regular nights, not {regular_nights}.")
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        previous = await leagues.open_season(conn, league.id)
        if previous is not None:
            playing = [n for n in await leagues.nights(conn, previous.id) if n.status == "locked"]
            if playing:
                raise WrongState(
                    f"Week {playing[0].week} of {previous.name} is being played; finalize it "
                    "before starting a new season."
                )
            if previous.name.casefold() == name.casefold():
                raise Conflict(f"The season {name!r} is already running.")
            left = await _left_to_play(conn, previous.id)
            if left:  # R13.6: closing a running season is confirmed, by /season close
                raise WrongState(
                    f"{previous.name} is still running ({left}). Close it first with /season "
                    "close, which says what that ends and asks you to confirm."
                )
            await leagues.close_season(conn, previous.id)
        for other in await leagues.season_names(conn, league.id):
            if other.casefold() == name.casefold():
                raise Conflict(f"There was already a season called {name!r}; pick another name.")
        season_id = await leagues.add_season(
            conn, league.id, name, start, weekday, regular_nights, stamp(now)
        )
        for week, day in enumerate(league_nights(start, weekday, regular_nights), start=1):
            await leagues.add_night(conn, season_id, week, day)
        season = await leagues.season_by_id(conn, season_id)
        assert season is not None
        return season, await leagues.nights(conn, season_id)


async def change_setting(
    db: Database, guild_id: int, name: str, value: int | str, *, now: datetime
) -> SettingChanged:
    """Change one of the season's rule settings (R1, R3.5, R7.5, R9.1, R10, R13.1,
    R13.3).

    Whole-number settings take a number within SETTING_LIMITS; the prize places
    (R10.4) take percents of the fund, best first, e.g. "30,15,10"; the playoff
    format one of CHOICES. A change of the playoffs made after their format was
    made known is announced (`now`: when the change is made)."""
    if name not in SETTINGS:
        raise BadInput(f"Unknown setting {brief(name)}. Settings: {', '.join(SETTINGS)}.")
    if name in YES_NO:
        stored: int | str = _yes_no(name, value)
    elif name in CHOICES:
        stored = _choice(name, value)
    else:
        stored = _places(name, value) if name in PRIZE_PLACES else _whole(name, value)
    if name == "playoff_best_of" and int(stored) % 2 == 0:
        raise BadInput(
            f"playoff_best_of must be odd (1, 3, 5, 7 or 9), not {stored}: a match must "
            "have a winner."
        )
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        rules = ctx.rules
        if name == "playoff_min" and int(stored) > rules.playoff_max:
            raise BadInput(f"playoff_min cannot be above playoff_max ({rules.playoff_max}).")
        if name == "playoff_max" and int(stored) < rules.playoff_min:
            raise BadInput(f"playoff_max cannot be below playoff_min ({rules.playoff_min}).")
        if name == "regular_nights":
            await _resize_season(conn, ctx, int(stored), now=now)
        if name in playoffs.ANNOUNCED:
            await playoffs.refuse_change_once_started(conn, ctx)
        await leagues.set_season_setting(conn, ctx.season.id, name, stored)
        changed = await season_of(conn, guild_id)
        announced = False
        if name == "regular_nights":  # R13.4: its new last night may be final already
            await playoffs.season_length_changed(conn, changed, now=now)
        if name in playoffs.ANNOUNCED:  # R13.3: a change after it was made known is told
            announced = await playoffs.setting_changed(conn, changed, now=now)
        return SettingChanged(name, _shown(name, stored), announced)


def _shown(name: str, stored: int | str) -> str:
    if name in YES_NO:
        return "yes" if stored else "no"
    return str(stored).replace("_", " ")


def _choice(name: str, value: int | str) -> str:
    typed = " ".join(str(value).split()).lower()
    options = CHOICES[name]
    if typed not in options:
        shown = " or ".join(sorted({o.replace("_", " ") for o in options.values()}))
        raise BadInput(f"{name} is {shown}.")
    return options[typed]


def _yes_no(name: str, value: int | str) -> int:
    text = str(value).strip().lower()
    if text in ("yes", "y", "true", "on", "1"):
        return 1
    if text in ("no", "n", "false", "off", "0"):
        return 0
    raise BadInput(f"{name} is yes or no.")


def _whole(name: str, value: int | str) -> int:
    low, high = SETTING_LIMITS[name]
    number: int | str | None = value
    if isinstance(value, str):
        text = value.strip()
        number = int(text) if re.fullmatch(r"-?[0-9]{1,9}", text) else None
    if isinstance(number, bool) or not isinstance(number, int) or not low <= number <= high:
        raise BadInput(f"{name} must be a whole number from {low} to {high}.")
    return number


def _places(name: str, value: int | str) -> str:
    """R10.4: 1 to 5 whole percents of the fund, best first, 100 at most in all."""
    parts = [p.strip() for p in str(value).split(",")]
    if (
        not 1 <= len(parts) <= 5
        or not all(p.isascii() and p.isdigit() and 1 <= int(p) <= 100 for p in parts)
        or sum(int(p) for p in parts) > 100
    ):
        raise BadInput(
            f"{name} is 1 to 5 percents of the prize fund, best place first, "
            "comma-separated and 100 at most in all, e.g. 30,15,10."
        )
    return ",".join(str(int(p)) for p in parts)


async def _resize_season(
    conn: aiosqlite.Connection, ctx: SeasonContext, count: int, *, now: datetime
) -> None:
    await playoffs.call_off(conn, ctx, count, now=now)
    current = await leagues.nights(conn, ctx.season.id)
    held = [n for n in current if n.status != "scheduled"]
    if held and count < held[-1].week:
        raise WrongState(f"Week {held[-1].week} has already been played; keep at least that many.")
    skipped = await leagues.skipped_dates(conn, ctx.season.id)
    dates = league_nights(ctx.season.start_date, ctx.season.weekday, count, skipped)
    for night in current[count:]:
        await leagues.delete_unplayed_night(conn, night.id)
    for week in range(len(current) + 1, count + 1):
        await leagues.add_night(conn, ctx.season.id, week, dates[week - 1])


async def set_league_time(db: Database, guild_id: int, name: str, value: time) -> League:
    """R1.3: the league's wall-clock times (play, grace, cutoff, posts)."""
    if name not in leagues.LEAGUE_TIMES:
        raise BadInput(f"Unknown time {brief(name)}. Times: {', '.join(leagues.LEAGUE_TIMES)}.")
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        await leagues.set_league_time(conn, league.id, name, value.strftime("%H:%M"))
        return await league_of(conn, guild_id)
