"""How a server's league nights show in Discord, set by a server administrator
with /setup-night: the weekday of the seasons started from now on, the
league's times (R1.3), the venue of the nights' scheduled events in Discord,
a thread per group on league night, and the division roles (R9).

The weekday belongs to a season (its nights are dates): a season running on
another weekday keeps its dates, and the next one starts on the new weekday."""

from __future__ import annotations

from dataclasses import replace
from datetime import time

from bot.database import Database
from bot.models import League, NightSetup, Season
from bot.repositories import leagues, server_setups
from bot.scoring import NIGHT_TIMES, WEEKDAYS, times_out_of_order, weekday_number
from bot.services.context import brief, check_text
from bot.services.errors import BadInput, NotSetUp
from bot.services.outcomes.admin import NightShown

NOT_SET_UP = "Set the league up first with /setup (its channels and commissioner role)."
NO_LEAGUE_YET = (
    "The league's times are set once it is named: a commissioner names it with "
    "/league season setup. Nothing was changed."
)
NO_VENUE = ("none", "off", "no", "-")  # typed as the venue: no events in Discord
DEFAULT_WEEKDAY = "Wednesday"


async def of(db: Database, guild_id: int) -> NightShown:
    async with db.read() as conn:
        setup = await server_setups.night_of(conn, guild_id)
        if setup is None:
            raise NotSetUp(NOT_SET_UP)
        league = await leagues.league_by_guild(conn, guild_id)
        season = await leagues.open_season(conn, league.id) if league is not None else None
    return _shown(setup, league, season)


async def shown(db: Database, guild_id: int) -> NightShown | None:
    """`of`, or None when the server is not set up with /setup (an older .env)."""
    try:
        return await of(db, guild_id)
    except NotSetUp:
        return None


async def setup_of(db: Database, guild_id: int) -> NightSetup | None:
    async with db.read() as conn:
        return await server_setups.night_of(conn, guild_id)


async def weekday_of(db: Database, guild_id: int) -> str:
    """The weekday a new season takes when none is given."""
    async with db.read() as conn:
        setup = await server_setups.night_of(conn, guild_id)
    return _shown(setup, None, None).weekday if setup is not None else DEFAULT_WEEKDAY


def check_venue(value: str) -> str | None:
    """The venue as typed (None: 'none', no events). Refused when too long for
    Discord's event location (100) or when it holds nothing that shows."""
    text = check_text(value, "venue", 100)
    if not text:
        raise BadInput("Give the venue, e.g. 'Pinball Pub, 12 Main St', or 'none'.")
    return None if text.casefold() in NO_VENUE else " ".join(text.split())


# The night's times as a refusal names them.
TIME_WORDS = {
    "groupings_time": "the groupings", "late_cutoff": "the late-notice cutoff",
    "picks_lock_time": "picks lock", "play_time": "play", "grace_until": "the grace end",
}  # fmt: skip


def check_order(times: dict[str, time]) -> None:
    """R1.3: the night's times in their order, else refused, naming the first two."""
    wrong = times_out_of_order(times)
    if wrong is not None:
        early, late = wrong
        first = TIME_WORDS[early]
        raise BadInput(
            f"{first[0].upper()}{first[1:]} ({times[early]:%H:%M}) must come before "
            f"{TIME_WORDS[late]} ({times[late]:%H:%M}). Nothing was changed."
        )


def check_weekday(value: str) -> str:
    try:
        return WEEKDAYS[weekday_number(value)]
    except (ValueError, LookupError):
        raise BadInput(f"{brief(value)} is not a weekday; use a name like 'Wednesday'.") from None


async def change(
    db: Database,
    guild_id: int,
    *,
    weekday: str | None = None,
    times: dict[str, time] | None = None,
    venue: str | None = None,
    group_threads: bool | None = None,
    division_roles: bool | None = None,
) -> NightShown:
    """Change what was given, all or nothing: `times` by name (leagues.LEAGUE_TIMES)
    need a named league; `venue` as typed ('none': no events)."""
    times = times or {}
    unknown = set(times) - set(leagues.LEAGUE_TIMES)
    if unknown:
        raise BadInput(f"Unknown time {brief(sorted(unknown)[0])}.")
    day = check_weekday(weekday) if weekday is not None else None
    place = check_venue(venue) if venue is not None else None
    async with db.transaction() as conn:
        before = await server_setups.night_of(conn, guild_id)
        if before is None:
            raise NotSetUp(NOT_SET_UP)
        league = await leagues.league_by_guild(conn, guild_id)
        if times and league is None:
            raise BadInput(NO_LEAGUE_YET)
        after = replace(
            before,
            weekday=day if day is not None else before.weekday,
            venue=(place if venue is not None else before.venue),
            group_threads=before.group_threads if group_threads is None else group_threads,
            division_roles=before.division_roles if division_roles is None else division_roles,
        )
        if league is not None and times:
            check_order({n: times.get(n, getattr(league, n)) for n in NIGHT_TIMES})
        await server_setups.set_night(conn, after)
        for name, value in times.items():
            assert league is not None
            await leagues.set_league_time(conn, league.id, name, value.strftime("%H:%M"))
        league = await leagues.league_by_guild(conn, guild_id)
        season = await leagues.open_season(conn, league.id) if league is not None else None
    changed = tuple(
        name
        for name, given in (("weekday", weekday), ("venue", venue), ("group_threads",
                            group_threads), ("division_roles", division_roles))
        if given is not None
    ) + tuple(times)  # fmt: skip
    return _shown(after, league, season, changed)


def _shown(
    setup: NightSetup, league: League | None, season: Season | None, changed: tuple[str, ...] = ()
) -> NightShown:
    running = season.weekday if season is not None else None
    return NightShown(setup, league, running, changed, setup.weekday or DEFAULT_WEEKDAY)
