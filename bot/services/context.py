"""Finding the league, season, player and night a request is about."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import aiosqlite

from bot.database import Database
from bot.models import League, Machine, Night, Player, Season, SeasonRules
from bot.repositories import leagues, nights, people, season_history
from bot.scoring import PrizeSplit, RuleError, RuleSettings, check_score
from bot.services.errors import BadInput, NotFound, NotSetUp
from bot.text import formula_like, text_problem

NO_LEAGUE = (
    "This server has no league yet. The commissioner can start one with /league season setup."
)
MAX_WEEK = 52  # the most regular nights a season may have (setup.SETTING_LIMITS)
NO_SEASON = "There is no season running. The commissioner can start one with /league season start."
NO_MORE_NIGHTS = (
    "There are no more league nights this season. "
    "The commissioner can start the next season with /league season start."
)


def not_a_week(week: object, regular_nights: int) -> str:
    """The refusal of a week number that is no night of the season."""
    return f"Week {week} is not a night of this season (1 to {regular_nights})."


@dataclass(frozen=True)
class SeasonContext:
    league: League
    season: Season
    rules: SeasonRules = field(default_factory=SeasonRules)  # R10.4, R13.1

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.league.time_zone)

    def local(self, now: datetime) -> datetime:
        """`now` (aware) in the league's wall-clock time (R1.3)."""
        return now.astimezone(self.zone)

    def settings(self) -> RuleSettings:
        s, lg = self.season, self.league
        return RuleSettings(
            regular_nights=s.regular_nights,
            weekday=s.weekday,
            time_zone=lg.time_zone,
            play_time=lg.play_time,
            grace_until=lg.grace_until,
            late_cutoff=lg.late_cutoff,
            games_per_night=s.games_per_night,
            pre_makeup_night_limit=s.pre_makeup_night_limit,
            bonus_start_week=s.bonus_start_week,
            multiplier_start_week=s.multiplier_start_week,
            two_swap_match_points=s.two_swap_match_points,
            division_min_players=s.division_min_players,
            division_week=s.division_week,
            dues_cents=s.dues_cents,
            payout_first_percent=s.payout_first_percent,
            playoff_divisor=self.rules.playoff_divisor,
            playoff_min=self.rules.playoff_min,
            playoff_max=self.rules.playoff_max,
            playoff_format=self.rules.playoff_format,
            playoff_games=self.rules.playoff_games,
            playoff_best_of=self.rules.playoff_best_of,
            prize_split=prize_split(self.rules),
        )


def prize_split(rules: SeasonRules) -> PrizeSplit:
    """R10.4: the stored split ("30,15,10" and whole percents) as the rules take it."""
    return PrizeSplit(
        places={"A": percents(rules.prize_places_a), "B": percents(rules.prize_places_b)},
        consolation={
            "A": Fraction(rules.prize_consolation_a, 100),
            "B": Fraction(rules.prize_consolation_b, 100),
        },
    )


def percents(text: str) -> tuple[int, ...]:
    """The stored text "30,15,10" as (30, 15, 10)."""
    return tuple(int(part) for part in text.split(",") if part.strip())


def check_zone(time_zone: str) -> str:
    """An IANA time zone name (R1.3), else why not."""
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadInput(
            f"{brief(time_zone)} is not a time zone; use a name like 'America/New_York'."
        ) from None
    return time_zone


def stamp(now: datetime) -> str:
    """A stored timestamp: ISO-8601 in UTC. `now` must be time-zone aware."""
    if now.tzinfo is None:
        raise ValueError("now must be time-zone aware")
    return now.astimezone(UTC).isoformat(timespec="seconds")


async def league_of(conn: aiosqlite.Connection, guild_id: int) -> League:
    league = await leagues.league_by_guild(conn, guild_id)
    if league is None:
        raise NotSetUp(NO_LEAGUE)
    return league


async def season_of(conn: aiosqlite.Connection, guild_id: int) -> SeasonContext:
    league = await league_of(conn, guild_id)
    found = await leagues.open_season_with_rules(conn, league.id)
    if found is None:
        past = await season_history.seasons(conn, league.id)
        if past:  # closed by the commissioner: its history is there to see
            name = past[-1].season.name
            raise NotSetUp(
                f"There is no season running: {name} is closed (see it with /standings "
                f"season:{name}). The commissioner starts the next with /league season start."
            )
        raise NotSetUp(NO_SEASON)
    return SeasonContext(league, *found)


async def night_season(
    conn: aiosqlite.Connection, guild_id: int, night: Night
) -> SeasonContext | None:
    """The season of `night` (running, past or closed), if it is this league's."""
    league = await league_of(conn, guild_id)
    found = await season_history.season_by_id(conn, night.season_id)
    if found is None or found.season.league_id != league.id:
        return None
    return SeasonContext(league, found.season, found.rules)


async def season_context(
    conn: aiosqlite.Connection, guild_id: int, name: str | None = None
) -> SeasonContext:
    """The running season, or the league's season called `name` (past or running)."""
    if name is None:
        return await season_of(conn, guild_id)
    league = await league_of(conn, guild_id)
    found = await season_history.season_named(conn, league.id, " ".join(name.split()))
    if found is None:
        known = ", ".join(s.season.name for s in await season_history.seasons(conn, league.id))
        raise NotFound(f"There is no season called {brief(name)}. Seasons: {known or 'none yet'}.")
    return SeasonContext(league, found.season, found.rules)


async def player_of(conn: aiosqlite.Connection, league: League, discord_id: int) -> Player:
    player = await people.player_by_discord(conn, league.id, discord_id)
    if player is None or player.removed:
        raise NotFound("You are not a player in this league. Ask the commissioner to add you.")
    return player


def brief(text: str, limit: int = 40) -> str:
    """What the user typed, quoted, for a refusal: a long value is cut, not echoed whole."""
    text = text.strip()
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


async def player_named(conn: aiosqlite.Connection, league: League, name: str) -> Player:
    player = await people.player_by_name(conn, league.id, name.strip())
    if player is None:
        raise NotFound(f"There is no player called {brief(name)} in this league.")
    return player


async def player_of_night(
    conn: aiosqlite.Connection, league: League, night: Night, name: str
) -> Player:
    """A player by name for one night's business (scores, attendance, ties, dues): a
    current player, or one removed since who is in that night's groups, because the
    night they were in still counts (their scores, their absence, their dues)."""
    player = await people.player_by_name(conn, league.id, name.strip())
    if player is not None:
        return player
    wanted = " ".join(name.split()).casefold()
    members = {p for g in await nights.groups(conn, night.id) for p in g.members}
    for former in await people.players(conn, league.id, removed=True):
        if former.removed and former.id in members and former.name.casefold() == wanted:
            return former
    raise NotFound(f"There is no player called {brief(name)} in this league.")


async def machine_named(conn: aiosqlite.Connection, league: League, name: str) -> Machine:
    machine = await people.machine_by_name(conn, league.id, name.strip())
    if machine is None:
        known = ", ".join(m.name for m in await people.machines(conn, league.id)) or "none yet"
        raise NotFound(f"There is no machine called {brief(name)}. Machines: {known}.")
    return machine


async def night_on_or_after(
    conn: aiosqlite.Connection, ctx: SeasonContext, day: date, *, unfinished: bool = False
) -> Night:
    """The first league night of the season on or after `day` (with
    `unfinished`, the first that is not finalized yet)."""
    for night in await leagues.nights(conn, ctx.season.id):
        if night.date >= day and not (unfinished and night.status == "finalized"):
            return night
    raise NotFound(NO_MORE_NIGHTS)


async def night_on(conn: aiosqlite.Connection, ctx: SeasonContext, day: date) -> Night:
    night = await leagues.night_by_date(conn, ctx.season.id, day)
    if night is None:
        upcoming = [n for n in await leagues.nights(conn, ctx.season.id) if n.date >= day]
        hint = f" The next one is {upcoming[0].date:%A %d %B}." if upcoming else ""
        raise NotFound(f"There is no league night on {day:%A %d %B %Y}.{hint}")
    return night


def check_week(week: int, ctx: SeasonContext) -> int:
    """A week number of the season, 1 to its last night (else `NotFound`)."""
    if isinstance(week, bool) or not isinstance(week, int) or not 1 <= week <= MAX_WEEK:
        shown = week if isinstance(week, int) else brief(str(week))
        raise NotFound(not_a_week(shown, ctx.season.regular_nights))
    return week


async def night_of_week(conn: aiosqlite.Connection, ctx: SeasonContext, week: int) -> Night:
    check_week(week, ctx)
    night = await leagues.night_by_week(conn, ctx.season.id, week)
    if night is None:
        raise NotFound(not_a_week(week, ctx.season.regular_nights))
    return night


def check_text(value: str, name: str, limit: int) -> str:
    """A note or reason as typed, trimmed; "" when none was given. Refused when
    it is too long, or holds nothing that shows or a control character
    (`bot.text`): line breaks and tabs are kept."""
    value = value.strip()
    if len(value) > limit:
        raise BadInput(f"The {name} is too long: {len(value):,} characters, at most {limit}.")
    if value and (problem := text_problem(value, line_breaks=True)):
        raise BadInput(f"The {name} {problem}; type it again.")
    return value


def check_name(value: str, what: str, limit: int = 64) -> str:
    """A name as typed, its runs of spaces made one. Refused when empty, too
    long, or when it holds nothing that shows or a control character."""
    value = " ".join(value.split())
    if not value:
        raise BadInput(f"Give the {what} a name.")
    if len(value) > limit:
        raise BadInput(f"The {what}'s name is too long (at most {limit} characters).")
    if problem := text_problem(value):
        raise BadInput(f"The {what}'s name {problem}; type it again.")
    return value


FORMULA_NAME = (
    "A player's name cannot start with =, +, - or @: a spreadsheet opening the "
    "league's export would run it as a formula. Give another name."
)


def check_player_name(value: str) -> str:
    """`check_name` for a player, who also may not be called like a spreadsheet
    formula (`=HYPERLINK(…)`, `+1+1`, `@SUM(…)`): names go into every export."""
    name = check_name(value, "player")
    if formula_like(name):
        raise BadInput(FORMULA_NAME)
    return name


def valid_score(score: int) -> int:
    """A raw score the rules accept (0 … 10^13), else `BadInput` with the rules' words."""
    try:
        return check_score(score)
    except RuleError as error:
        raise BadInput(str(error)) from None


def shown_names(players: list[Player]) -> dict[int, str]:
    """Every player's shown name; a removed player sharing a current player's name
    is "Name (removed)", so two people never read as one."""
    current = {p.name.casefold() for p in players if not p.removed}
    return {
        p.id: f"{p.name} (removed)" if p.removed and p.name.casefold() in current else p.name
        for p in players
    }


async def season_names(db: Database, guild_id: int) -> list[str]:
    """The league's seasons, newest first (for autocomplete)."""
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
        return [s.season.name for s in reversed(await season_history.seasons(conn, league.id))]
