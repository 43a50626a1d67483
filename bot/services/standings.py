"""Standings, a player's season and the playoff field (R3.5, R7.4, R11, R13)."""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import FieldEntry
from bot.repositories import (
    leagues,
    nights,
    people,
    playoff_nights,
    results,
    scores,
    season_history,
)
from bot.scoring import ZERO, playoff_field, pre_makeup_nights_left, replace_no_shows
from bot.services.context import (
    NO_LEAGUE,
    NO_SEASON,
    SeasonContext,
    league_of,
    night_season,
    player_of,
    season_context,
    season_of,
)
from bot.services.errors import BadInput, NotFound, NotSetUp
from bot.services.outcomes.scores import TonightScore
from bot.services.outcomes.standings import (
    PlayerSeason,
    PlayoffDivision,
    PlayoffStanding,
    PointsByWeek,
    StandingRow,
)
from bot.services.season import SeasonTotals, ranking, season_totals, totals
from bot.services.stakes import stakes_of

NO_DIVISIONS = "There are no divisions yet; they start at the division week."


async def _divisions(conn: aiosqlite.Connection, ctx: SeasonContext) -> dict[int, str]:
    """Each player's division: the pool of their latest stored group."""
    return await nights.pools_of_season(conn, ctx.season.id)


async def rows_of(
    conn: aiosqlite.Connection, ctx: SeasonContext, sums: SeasonTotals | None = None
) -> list[StandingRow]:
    """R11.1: the standings of `ctx`'s season. A running season ranks the league's
    players; a past one everyone who was in one of its groups (removed since too).
    `sums`: the season's totals, when the caller has them already."""
    if ctx.season.status == "open":
        players = await people.players(conn, ctx.league.id)
    else:
        members = await season_history.players_of_season(conn, ctx.season.id)
        players = [p for p in await people.players(conn, ctx.league.id, removed=True)
                   if p.id in members]  # fmt: skip
    if sums is None:
        sums = await season_totals(conn, ctx)
    division = await _divisions(conn, ctx)
    return [
        StandingRow(
            rank=rank,
            player=p,
            division=division.get(p.id, ""),
            league_points=sums.league_points.get(p.id, 0),
            tns=sums.tns.get(p.id, ZERO),
            nights=sums.nights.get(p.id, 0),
            multiplier=sums.multiplier.get(p.id, 1),
        )
        for rank, p in enumerate(ranking(players, sums), start=1)
    ]


async def check_standings(
    db: Database, guild_id: int, division: str | None = None, season: str | None = None
) -> str | None:
    """Every refusal `standings` can give, in one quick statement, so a caller
    can refuse privately before it acknowledges publicly (a named `season` is
    looked up in a read of its own). Returns that season's name as stored."""
    wanted = _division(division)
    if season is not None:
        async with db.read() as conn:
            ctx = await season_context(conn, guild_id, season)
            if wanted and not await leagues.has_divisions(conn, ctx.season.id):
                raise BadInput(NO_DIVISIONS)
        return ctx.season.name
    async with db.read(snapshot=False) as conn:
        league, open_season, divisions = await leagues.season_state(conn, guild_id)
    if not league:
        raise NotSetUp(NO_LEAGUE)
    if not open_season:
        raise NotSetUp(NO_SEASON)
    if wanted and not divisions:
        raise BadInput(NO_DIVISIONS)
    return None


async def standings(
    db: Database, guild_id: int, division: str | None = None, season: str | None = None
) -> list[StandingRow]:
    """R11.1: the season standings, or one division's (ranks within it); of the
    running season, or of the past `season` by name."""
    wanted = _division(division)
    async with db.read() as conn:
        ctx = await season_context(conn, guild_id, season)
        if wanted and not await leagues.has_divisions(conn, ctx.season.id):
            raise BadInput(NO_DIVISIONS)
        rows = await rows_of(conn, ctx)
    return _within(rows, wanted)


def _within(rows: list[StandingRow], wanted: str) -> list[StandingRow]:
    """One division's rows, ranked within it ('' : every row as it is)."""
    if not wanted:
        return rows
    mine = [r for r in rows if r.division == wanted]
    return [StandingRow(i, r.player, r.division, r.league_points, r.tns, r.nights, r.multiplier)
            for i, r in enumerate(mine, start=1)]  # fmt: skip


async def points_by_week(
    db: Database, guild_id: int, division: str | None = None, season: str | None = None
) -> PointsByWeek:
    """R11.1 standings (as `standings`) and the league points each player made in
    each finalized week of the current season (or of `season` by name), read in
    one transaction."""
    wanted = _division(division)
    async with db.read() as conn:
        ctx = await season_context(conn, guild_id, season)
        if wanted and not await leagues.has_divisions(conn, ctx.season.id):
            raise BadInput(NO_DIVISIONS)
        rows = await rows_of(conn, ctx)
        history = await results.results_of_season(conn, ctx.season.id)
    points: dict[int, dict[int, int]] = {}
    for result in history:
        week = points.setdefault(result.player_id, {})
        week[result.week] = week.get(result.week, 0) + result.league_points
    weeks = sorted({r.week for r in history})
    return PointsByWeek(_within(rows, wanted), weeks, points)


def _division(division: str | None) -> str:
    """'' for the whole league, else 'A' or 'B'."""
    if division is None:
        return ""
    wanted = division.strip().upper()
    if wanted not in ("A", "B"):
        raise BadInput("A division is A or B.")
    return wanted


async def player_season(
    db: Database,
    guild_id: int,
    *,
    discord_id: int,
    now: datetime | None = None,
    season: str | None = None,
) -> PlayerSeason:
    """R3.5, R7.4, R10.1, R11.1: a player's season (the running one, or the one
    called `season`, past or running); with `now`, also the scores they
    submitted for a league night held that day and where each stands."""
    async with db.read() as conn:
        ctx = await season_context(conn, guild_id, season)
        running = await leagues.open_season_with_rules(conn, ctx.league.id)
        past = None if running is not None and running[0].id == ctx.season.id else ctx.season.name
        player = await player_of(conn, ctx.league, discord_id)
        season_results = await results.results_of_season(conn, ctx.season.id)
        sums = totals(season_results)
        rows = await rows_of(conn, ctx, sums)
        row = next((r for r in rows if r.player.id == player.id), None)
        history = [r for r in season_results if r.player_id == player.id]
        used = sums.pre_makeup_nights.get(player.id, 0)
        limit = ctx.season.pre_makeup_night_limit + player.extra_pre_makeup_nights
        paid = await results.dues_of_player(conn, ctx.season.id, player.id)
        held = len({r.night_id for r in history})
        tonight = await _tonight(conn, ctx, player.id, now) if now and past is None else []
        playoffs = await playoff_standing(conn, ctx, player.id)
        if past is not None and playoffs is not None and not playoffs.decided:
            playoffs = None  # the season closed before its playoffs were played
        if past is not None and not history and playoffs is None:
            raise NotFound(f"{player.name} played no night in {ctx.season.name}.")
        ahead = None if past else await stakes_of(conn, ctx, player.id, by_division(rows), history)
        coming = await _coming_night(conn, ctx, now) if now and past is None else None
        return PlayerSeason(
            player=player,
            rank=row.rank if row else 0,
            nights=sums.nights.get(player.id, 0),
            league_points=sums.league_points.get(player.id, 0),
            multiplier=sums.multiplier.get(player.id, 1),
            pre_makeup_nights_used=used,
            pre_makeup_nights_left=pre_makeup_nights_left(used, limit),
            dues_paid_cents=paid,
            dues_owed_cents=max(0, held * ctx.season.dues_cents - paid),
            weeks=[(r.week, r.match_points, r.league_points, r.week_result) for r in history],
            tonight=tonight,
            playoffs=playoffs,
            past=past,
            stakes=ahead,
            coming_night=coming,
        )


async def _coming_night(
    conn: aiosqlite.Connection, ctx: SeasonContext, now: datetime
) -> int | None:
    """The id of the season's next league night (today's included) not over yet."""
    today = ctx.local(now).date()
    for night in await leagues.nights(conn, ctx.season.id):
        if night.kind == "regular" and night.date >= today and night.status != "finalized":
            return night.id
    return None


def in_field(entries: list[FieldEntry]) -> set[int]:
    """R13.5: the players of a playoff field who play: the qualifiers not
    replaced, and the alternates who replaced one."""
    stepped_in = {e.replaced_by for e in entries if e.replaced_by is not None}
    return {e.player_id for e in entries if e.qualified and e.replaced_by is None} | stepped_in


async def playoff_standing(
    conn: aiosqlite.Connection, ctx: SeasonContext, player_id: int
) -> PlayoffStanding | None:
    """The player's part in `ctx`'s playoffs: in the field, an alternate, replaced
    (R13.5), and their place once decided (R13.6); None outside the field or
    before playoff night is set."""
    night = await playoff_nights.playoff_night(conn, ctx.season.id)
    if night is None:
        return None
    entries = await playoff_nights.field(conn, night.id)
    entry = next((e for e in entries if e.player_id == player_id), None)
    if entry is None:
        return None
    if entry.replaced_by is not None:
        role = "replaced"
    else:
        role = "qualifier" if player_id in in_field(entries) else "alternate"
    return PlayoffStanding(night.date, role, entry.place, night.status == "finalized")


async def _tonight(
    conn: aiosqlite.Connection, ctx: SeasonContext, player_id: int, now: datetime
) -> list[TonightScore]:
    today = ctx.local(now).date()
    night = await leagues.night_by_date(conn, ctx.season.id, today)
    if night is None:  # R13.4: playoff night's scores too
        finale = await playoff_nights.playoff_night(conn, ctx.season.id)
        night = finale if finale is not None and finale.date == today else None
    if night is None:
        return []
    games = {g.id: g for gs in (await nights.games_of_night(conn, night.id)).values() for g in gs}
    return [
        TonightScore(games[s.game_id].number, games[s.game_id].machine, s.score, s.status, s.reason)
        for s in await scores.scores_of_player_night(conn, night.id, player_id)
        if s.game_id in games
    ]


async def playoffs(
    db: Database, guild_id: int, unavailable: list[str] | None = None
) -> list[PlayoffDivision]:
    """R13.1-R13.2: each division's qualifiers by standings and its alternates;
    `unavailable` qualifiers are replaced by the first alternates."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        return await field_of(conn, ctx, unavailable)


async def field_of(
    conn: aiosqlite.Connection, ctx: SeasonContext, unavailable: list[str] | None = None
) -> list[PlayoffDivision]:
    """`playoffs` within a read the caller holds."""
    settings = ctx.settings()
    missing = {n.casefold() for n in unavailable or []}
    out = []
    for division, ranked in by_division(await rows_of(conn, ctx)).items():
        names = [r.player.name for r in ranked]
        field = playoff_field(names, settings)
        gone = [n for n in names if n.casefold() in missing]
        qualifiers = replace_no_shows(field, gone) if gone else field.qualifiers
        alternates = [n for n in field.alternates if n not in qualifiers and n not in gone]
        out.append(PlayoffDivision(division, qualifiers, alternates))
    return out


def by_division(rows: list[StandingRow]) -> dict[str, list[StandingRow]]:
    """The standings of each division ('' without divisions), A before B. With
    divisions, a player in no group yet sits at the bottom of B (R8.6)."""
    divided = any(row.division for row in rows)
    found: dict[str, list[StandingRow]] = {}
    for row in rows:
        if row.division or not divided:
            found.setdefault(row.division, []).append(row)
    if divided:
        found.setdefault("B", []).extend(row for row in rows if not row.division)
    return dict(sorted(found.items()))


async def playoff_podium(
    db: Database, guild_id: int, season: str | None = None
) -> dict[str, list[str]]:
    """R13.6: each division's playoff places (names, champion first) once its
    season's playoff night is decided; of the running season or the past
    `season` by name. Empty before."""
    async with db.read() as conn:
        ctx = await season_context(conn, guild_id, season)
        night = await playoff_nights.playoff_night(conn, ctx.season.id)
        if night is None or night.status != "finalized":
            return {}
        names = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
        placed = [e for e in await playoff_nights.field(conn, night.id) if e.place is not None]
    podium: dict[str, list[str]] = {}
    for entry in sorted(placed, key=lambda e: (e.pool, e.place or 0)):
        podium.setdefault(entry.pool, []).append(names[entry.player_id])
    return podium


async def season_id(db: Database, guild_id: int, season: str | None = None) -> int:
    """The id of the running season, or of the past `season` by name."""
    async with db.read() as conn:
        return (await season_context(conn, guild_id, season)).season.id


async def season_of_night(db: Database, guild_id: int, night_id: int) -> tuple[int, str] | None:
    """The id and name of night `night_id`'s season (running, past or closed)."""
    async with db.read() as conn:
        night = await leagues.night_by_id(conn, night_id)
        ctx = await night_season(conn, guild_id, night) if night is not None else None
    return None if ctx is None else (ctx.season.id, ctx.season.name)


async def season_name(db: Database, guild_id: int, season_id: int) -> str:
    """The name of the league's season `season_id` (a paged list's season)."""
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
        found = await season_history.season_by_id(conn, season_id)
    if found is None or found.season.league_id != league.id:
        raise NotFound("That season is no longer kept.")
    return found.season.name
