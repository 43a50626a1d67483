"""League and season setup, players and machines (R1, R3.1, R6.2, R8.2, R8.6)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import aiosqlite

from bot.database import Database
from bot.models import League, Machine, Night, Player, Season
from bot.repositories import leagues, nights, people
from bot.scoring import (
    MAX_SCORE,
    WEEKDAYS,
    RuleError,
    cut_groups,
    default_par,
    league_nights,
    seed_groups,
    weekday_number,
    with_newcomers,
)
from bot.services.context import (
    SeasonContext,
    brief,
    check_name,
    check_player_name,
    check_text,
    league_of,
    machine_named,
    player_named,
    season_of,
    stamp,
)
from bot.services.errors import BadInput, Conflict, NotFound, WrongState
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes import DateSkipped, ParSet, WithdrawnNotice

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
    "playoff_min": (1, 16),
    "playoff_max": (1, 16),
    "prize_consolation_a": (0, 100),  # R10.4: percent of the division's 2nd-place prize
    "prize_consolation_b": (0, 100),
}
PRIZE_PLACES = ("prize_places_a", "prize_places_b")  # R10.4: percents of the fund, "30,15,10"
YES_NO = ("photo_required",)  # /score needs a photo of the score display
SETTINGS = (*SETTING_LIMITS, *PRIZE_PLACES, *YES_NO)


@dataclass(frozen=True)
class SettingChanged:
    name: str
    shown: str  # the new value as the commissioner would type it


async def create_league(
    db: Database, guild_id: int, name: str, *, time_zone: str = "America/New_York", now: datetime
) -> League:
    """Start the league of a Discord server (one per server)."""
    name = check_name(name, "league", 100)
    _check_zone(time_zone)
    async with db.transaction() as conn:
        if await leagues.league_by_guild(conn, guild_id) is not None:
            raise Conflict("This server already has a league.")
        await leagues.add_league(conn, guild_id, name, time_zone, stamp(now))
        return await league_of(conn, guild_id)


def _check_zone(time_zone: str) -> None:
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadInput(
            f"{brief(time_zone)} is not a time zone; use a name like 'America/New_York'."
        ) from None


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
    db: Database, guild_id: int, name: str, value: int | str
) -> SettingChanged:
    """Change one of the season's rule settings (R1, R3.5, R7.5, R9.1, R10, R13.1).

    Whole-number settings take a number within SETTING_LIMITS; the prize places
    (R10.4) take percents of the fund, best first, e.g. "30,15,10"."""
    if name not in SETTINGS:
        raise BadInput(f"Unknown setting {brief(name)}. Settings: {', '.join(SETTINGS)}.")
    if name in YES_NO:
        stored: int | str = _yes_no(name, value)
    else:
        stored = _places(name, value) if name in PRIZE_PLACES else _whole(name, value)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        rules = ctx.rules
        if name == "playoff_min" and int(stored) > rules.playoff_max:
            raise BadInput(f"playoff_min cannot be above playoff_max ({rules.playoff_max}).")
        if name == "playoff_max" and int(stored) < rules.playoff_min:
            raise BadInput(f"playoff_max cannot be below playoff_min ({rules.playoff_min}).")
        if name == "regular_nights":
            await _resize_season(conn, ctx, int(stored))
        await leagues.set_season_setting(conn, ctx.season.id, name, stored)
        shown = ("yes" if stored else "no") if name in YES_NO else str(stored)
        return SettingChanged(name, shown)


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


async def _resize_season(conn: aiosqlite.Connection, ctx: SeasonContext, count: int) -> None:
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


async def skip_date(
    db: Database, guild_id: int, day: date, reason: str = "", *, now: datetime
) -> DateSkipped:
    """R1.2: `day` is not a league night; every later week moves one week on.

    A late notice or absence belongs to a date: those for `day` are withdrawn
    (kept, marked withdrawn) and returned so their players can be told; those
    for a later date follow that date to whichever night now carries it. A
    notice whose date is left with no night is withdrawn too (`stranded`)."""
    reason = check_text(reason, "reason", 200)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        season = ctx.season
        night = await leagues.night_by_date(conn, season.id, day)
        if night is None:
            raise NotFound(f"{day:%A %d %B %Y} is not a league night of this season.")
        if night.status != "scheduled":
            raise WrongState(
                f"Week {night.week} on {day:%d %B} has already started; it cannot be skipped."
            )
        await leagues.add_skipped_date(conn, season.id, day, reason)
        skipped = await leagues.skipped_dates(conn, season.id)
        dates = league_nights(season.start_date, season.weekday, season.regular_nights, skipped)
        current = await leagues.nights(conn, season.id)
        moved = [n for n in current if n.date != dates[n.week - 1]]
        withdrawn = await _withdraw_notices(conn, night, now)
        await leagues.move_nights(conn, [(n.id, dates[n.week - 1]) for n in moved])
        carrier = {n.date: n for n in await leagues.nights(conn, season.id)}
        kept, stranded = 0, []
        # Earliest date first: a night's own notices have left before others arrive.
        for old in sorted(moved, key=lambda n: n.date):
            if old.id == night.id:
                continue
            target = carrier.get(old.date)
            if target is None:
                stranded += await _withdraw_notices(conn, old, now)
            else:
                kept += await nights.move_notices(conn, old.id, target.id)
        done = DateSkipped(
            day, reason, await leagues.nights(conn, season.id), withdrawn, kept, stranded
        )
        # R1.2: the announcement, owed with the change; it pings the players it tells.
        await owe(conn, guild_id, ANNOUNCEMENTS, "skip", f"skip:{day.isoformat()}",
                  skip_data(done), now=now)  # fmt: skip
        return done


def skip_data(skipped: DateSkipped) -> dict[str, Any]:
    """What the skip announcement needs, frozen as JSON when it is owed (the
    notices it tells about are withdrawn by then and cannot be read back as such)."""

    def notices(found: list[WithdrawnNotice]) -> list[dict[str, Any]]:
        return [
            {"player": asdict(n.player), "kind": n.kind, "day": n.day.isoformat()} for n in found
        ]

    return {
        "day": skipped.day.isoformat(), "reason": skipped.reason, "kept": skipped.kept,
        "withdrawn": notices(skipped.withdrawn), "stranded": notices(skipped.stranded),
    }  # fmt: skip


def skip_from_data(data: dict[str, Any]) -> DateSkipped:
    """`skip_data` read back (the new calendar is not part of the announcement)."""

    def notices(found: list[dict[str, Any]]) -> list[WithdrawnNotice]:
        return [
            WithdrawnNotice(Player(**n["player"]), n["kind"], date.fromisoformat(n["day"]))
            for n in found
        ]

    return DateSkipped(
        date.fromisoformat(data["day"]), data["reason"], [], notices(data["withdrawn"]),
        data["kept"], notices(data["stranded"]),
    )  # fmt: skip


async def _withdraw_notices(
    conn: aiosqlite.Connection, night: Night, now: datetime
) -> list[WithdrawnNotice]:
    """Withdraw the live notices of `night` (given for its date, `night.date`)."""
    given = await nights.notices(conn, night.id)
    await nights.withdraw_notices_of_night(conn, night.id, stamp(now))
    withdrawn = []
    for notice in given:
        player = await people.player_by_id(conn, notice.player_id)
        assert player is not None
        withdrawn.append(WithdrawnNotice(player, notice.kind, night.date))
    return withdrawn


@dataclass(frozen=True)
class PlayerAdded:
    player: Player
    restored: bool


async def add_player(
    db: Database,
    guild_id: int,
    name: str,
    *,
    discord_id: int | None,
    skill: float | None = None,
    now: datetime,
) -> PlayerAdded:
    """Add a league player with the commissioner's skill rating (R8.2).

    A player who joins after groups were made is placed at the bottom of the
    ladder and the upcoming night's groups are recut (R8.6)."""
    name = check_player_name(name)
    if skill is not None and not 1 <= skill <= 10:
        raise BadInput("A skill rating is from 1 (novice) to 10 (expert).")
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        added = await join(conn, league, name, discord_id=discord_id, skill=skill, now=now)
        await recut_upcoming(conn, league.id)
        return added


async def join(
    conn: aiosqlite.Connection,
    league: League,
    name: str,
    *,
    discord_id: int | None,
    skill: float | None,
    now: datetime,
    ifpa_number: int | None = None,
) -> PlayerAdded:
    """Add (or welcome back, by Discord id) one checked player in the caller's
    transaction; the caller recuts the upcoming groups once (R8.6)."""
    restored = False
    existing = (
        await people.player_by_discord(conn, league.id, discord_id)
        if discord_id is not None
        else None
    )
    if existing is not None and not existing.removed:
        raise Conflict(f"{existing.name} is already a player.")
    clash = await people.player_by_name(conn, league.id, name)
    if clash is not None:
        raise Conflict(f"There is already a player called {clash.name}; pick another name.")
    if existing is not None:
        await people.restore_player(conn, existing.id, name, skill)
        player_id, restored = existing.id, True
    else:
        player_id = await people.add_player(conn, league.id, discord_id, name, skill, stamp(now))
    if ifpa_number is not None:
        await people.set_ifpa(conn, player_id, ifpa_number)
    player = await people.player_by_id(conn, player_id)
    assert player is not None
    return PlayerAdded(player, restored)


@dataclass(frozen=True)
class PlayerRemoved:
    player: Player
    playing_week: int | None  # the night being played (picks locked) that they are in


async def remove_player(db: Database, guild_id: int, name: str, *, now: datetime) -> PlayerRemoved:
    """R12.4: remove a player from the league; their history stays.

    A player in the night being played stays in it: their scores and absence
    count for that night, which the commissioner can still finalize (scores
    changed, absence marked by name); `playing_week` says which night that is.
    From the next night on they are in no group."""
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        player = await player_named(conn, league, name)
        await people.remove_player(conn, player.id, stamp(now))
        await recut_upcoming(conn, league.id)
        removed = await people.player_by_id(conn, player.id)
        assert removed is not None
        playing = None
        season = await leagues.open_season(conn, league.id)
        for night in await leagues.nights(conn, season.id) if season is not None else []:
            if night.status == "locked" and any(
                player.id in g.members for g in await nights.groups(conn, night.id)
            ):
                playing = night.week
        return PlayerRemoved(removed, playing)


async def set_skill(db: Database, guild_id: int, name: str, skill: float | None) -> Player:
    """R8.2: the commissioner's skill rating, 1-10, or none."""
    if skill is not None and not 1 <= skill <= 10:
        raise BadInput("A skill rating is from 1 (novice) to 10 (expert).")
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        player = await player_named(conn, league, name)
        await people.set_skill(conn, player.id, skill)
        await recut_upcoming(conn, league.id)  # week 1 is cut by skill (R8.2)
        changed = await people.player_by_id(conn, player.id)
        assert changed is not None
        return changed


IFPA_DIGITS = 7  # IFPA numbers run past 100,000; seven digits leave room


def parse_ifpa(text: str) -> int | None:
    """An IFPA number as typed ("12345", "#12345"); "none" or nothing clears it."""
    value = text.strip().lstrip("#").strip()
    if value.casefold() in ("", "none", "-"):
        return None
    if not re.fullmatch(rf"[0-9]{{1,{IFPA_DIGITS}}}", value) or int(value) == 0:
        raise BadInput(
            f"{brief(text)} is not an IFPA number: up to {IFPA_DIGITS} digits, "
            "as on the player's IFPA page, or 'none' to clear it."
        )
    return int(value)


async def set_ifpa(db: Database, guild_id: int, name: str, number: str) -> Player:
    """A player's IFPA number, for the final standings export."""
    value = parse_ifpa(number)
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        player = await player_named(conn, league, name)
        if value is not None:
            holder = await people.player_by_ifpa(conn, league.id, value)
            if holder is not None and holder.id != player.id:
                raise Conflict(f"{holder.name} already has IFPA number {value}.")
        await people.set_ifpa(conn, player.id, value)
        changed = await people.player_by_id(conn, player.id)
        assert changed is not None
        return changed


async def grant_pre_makeup_nights(db: Database, guild_id: int, name: str, nights: int) -> Player:
    """R3.5: the commissioner may grant a player more pre-makeup nights."""
    if not 1 <= nights <= 10:
        raise BadInput("Grant 1 to 10 extra pre-makeup nights at a time.")
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        player = await player_named(conn, league, name)
        await people.grant_pre_makeup_nights(conn, player.id, nights)
        changed = await people.player_by_id(conn, player.id)
        assert changed is not None
        return changed


async def recut_upcoming(conn: aiosqlite.Connection, league_id: int) -> None:
    """R8.6: recut the next unplayed night's stored groups from the ladder order."""
    season = await leagues.open_season(conn, league_id)
    if season is None:
        return
    upcoming = [n for n in await leagues.nights(conn, season.id) if n.status == "scheduled"]
    if not upcoming:
        return
    night = upcoming[0]
    stored = await nights.groups(conn, night.id)
    if not stored:
        return  # week 1 is seeded by skill when it is first asked for (R8.2)
    players = await people.players(conn, league_id)
    if night.week == 1:  # R8.2: week 1 is cut by skill, whoever joined when
        cut = seed_groups([(p.id, p.skill) for p in players]) if len(players) > 1 else []
        await nights.replace_groups(conn, night.id, {"": cut})
        return
    pools: dict[str, list[int]] = {}
    for group in stored:
        pools.setdefault(group.pool, []).extend(group.members)
    pools = with_newcomers(pools, [p.id for p in players])
    if set(pools) == {""} and len(pools[""]) < 2:
        pools = {}  # R8.1: one player left has nobody to play; cut when others join
    await nights.replace_groups(
        conn,
        night.id,
        {pool: cut_groups(ladder, division=pool != "") for pool, ladder in pools.items() if ladder},
    )


async def add_machine(
    db: Database, guild_id: int, name: str, *, par: int | None = None, now: datetime
) -> Machine:
    """A machine joins the league's order (R4.5). Added mid-season, every
    player owes a pre-makeup score on it (R3.1)."""
    name = check_name(name, "machine")
    _check_par(par)
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        if await people.machine_by_name(conn, league.id, name) is not None:
            raise Conflict(f"There is already a machine called {name}.")
        machine_id = await people.add_machine(conn, league.id, name, par, stamp(now))
        machine = await people.machine_by_id(conn, machine_id)
        assert machine is not None
        return machine


def _check_par(par: int | None) -> None:
    if par is not None and not 1 <= par <= MAX_SCORE:
        raise BadInput("A par is a score from 1 to 10,000,000,000,000.")


async def set_par(db: Database, guild_id: int, machine: str, par: int | None) -> ParSet:
    """R6.1-R6.2: the raw score worth 1,000,000 normalized points; None goes
    back to the median of approved pre-makeup scores. Returns the par that
    applies now (`effective`): the one set, or today's median (None: no
    approved pre-makeup yet, so the machine cannot be in a finalized night)."""
    _check_par(par)
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        found = await machine_named(conn, league, machine)
        await people.set_par(conn, found.id, par)
        changed = await people.machine_by_id(conn, found.id)
        assert changed is not None
        season = await leagues.open_season(conn, league.id)
        if par is not None or season is None:
            return ParSet(changed, par)
        scores = await people.approved_scores_for_machine(conn, found.id, season.id)
        return ParSet(changed, default_par(scores))


async def set_working(db: Database, guild_id: int, machine: str, working: bool) -> Machine:
    """R4.1: a machine out of order does not count among the P working machines."""
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        found = await machine_named(conn, league, machine)
        await people.set_working(conn, found.id, working)
        changed = await people.machine_by_id(conn, found.id)
        assert changed is not None
        return changed


async def roster(db: Database, guild_id: int) -> tuple[list[Player], list[Machine]]:
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
        return await people.players(conn, league.id), await people.machines(conn, league.id)
