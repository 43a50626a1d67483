"""Leagues, seasons, skipped dates and nights."""

from __future__ import annotations

from datetime import date

import aiosqlite

from bot.models import League, Night, NightState, Season, SeasonNights, SeasonRules
from bot.repositories._rows import insert, many, one, run, scalar, to_date, to_time

SEASON_SETTINGS = (
    "regular_nights",
    "games_per_night",
    "pre_makeup_night_limit",
    "bonus_start_week",
    "multiplier_start_week",
    "division_week",
    "division_min_players",
    "two_swap_match_points",
    "dues_cents",
    "payout_first_percent",
)
# R10.4, R13.1 (migration 0003): read with the season into `SeasonRules`.
SEASON_RULES = (
    "playoff_divisor",
    "playoff_min",
    "playoff_max",
    "prize_places_a",
    "prize_places_b",
    "prize_consolation_a",
    "prize_consolation_b",
    "photo_required",
    "playoff_format",  # R13.3 (migration 0014)
    "playoff_games",
    "playoff_best_of",
)
LEAGUE_TIMES = ("play_time", "grace_until", "late_cutoff", "groupings_time", "picks_lock_time")

LEAGUE_BY_GUILD = "SELECT * FROM leagues WHERE guild_id = ?"
INSERT_LEAGUE = "INSERT INTO leagues (guild_id, name, time_zone, created_at) VALUES (?, ?, ?, ?)"
OPEN_SEASON = "SELECT * FROM seasons WHERE league_id = ? AND status = 'open'"
SEASON_BY_ID = "SELECT * FROM seasons WHERE id = ?"
HAS_DIVISIONS = (
    "EXISTS (SELECT 1 FROM night_groups g JOIN nights n ON n.id = g.night_id"
    " WHERE n.season_id = {season} AND g.pool <> '')"
)
SEASON_STATE = (
    "SELECT s.id, " + HAS_DIVISIONS.format(season="s.id") + " FROM leagues l"
    " LEFT JOIN seasons s ON s.league_id = l.id AND s.status = 'open' WHERE l.guild_id = ?"
)
SEASON_HAS_DIVISIONS = "SELECT " + HAS_DIVISIONS.format(season="?")
# One row per night of the open season (one row of NULLs for a league without
# one; no row without a league), each with the league's current player count.
SEASON_NIGHTS = (
    "SELECT l.time_zone, s.id AS season_id, s.regular_nights, n.week, n.date, n.status,"
    " EXISTS (SELECT 1 FROM night_groups g WHERE g.night_id = n.id) AS grouped,"
    " (SELECT count(*) FROM players p WHERE p.league_id = l.id AND p.removed_at IS NULL)"
    " AS players"
    " FROM leagues l"
    " LEFT JOIN seasons s ON s.league_id = l.id AND s.status = 'open'"
    " LEFT JOIN nights n ON n.season_id = s.id AND n.kind = 'regular'"
    " WHERE l.guild_id = ? ORDER BY n.week"
)
INSERT_SEASON = (
    "INSERT INTO seasons (league_id, name, start_date, weekday, regular_nights, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
SEASON_NAMES = "SELECT name FROM seasons WHERE league_id = ?"
GUILD_OF_NIGHT = (
    "SELECT l.guild_id FROM nights n JOIN seasons s ON s.id = n.season_id"
    " JOIN leagues l ON l.id = s.league_id WHERE n.id = ?"
)
DELETE_NIGHT = (
    "DELETE FROM group_members WHERE night_id = ?1;"
    "DELETE FROM night_groups WHERE night_id = ?1;"
    "DELETE FROM picks WHERE night_id = ?1;"
    "DELETE FROM notices WHERE night_id = ?1;"
    "DELETE FROM checkins WHERE night_id = ?1;"
    "DELETE FROM attendance_boards WHERE night_id = ?1;"
    "DELETE FROM reminders_sent WHERE night_id = ?1;"
    "DELETE FROM nights WHERE id = ?1 AND status = 'scheduled'"
)
REOPEN_NIGHT = (
    "UPDATE nights SET status = 'locked', finalized_at = NULL, finalized_by = NULL"
    " WHERE id = ? AND status = 'finalized'"
)
CLOSE_SEASON = "UPDATE seasons SET status = 'closed' WHERE id = ?"
OPEN_AGAIN = "UPDATE seasons SET status = 'open' WHERE id = ? AND status = 'closed'"
SKIPPED = "SELECT date FROM skipped_dates WHERE season_id = ? ORDER BY date"
INSERT_SKIPPED = "INSERT INTO skipped_dates (season_id, date, reason) VALUES (?, ?, ?)"
# The regular season's nights (R1.1); playoff night is read by bot/repositories/playoff_nights.py.
NIGHTS = "SELECT * FROM nights WHERE season_id = ? AND kind = 'regular' ORDER BY week"
NIGHT_BY_DATE = "SELECT * FROM nights WHERE season_id = ? AND date = ? AND kind = 'regular'"
NIGHT_BY_WEEK = "SELECT * FROM nights WHERE season_id = ? AND week = ? AND kind = 'regular'"
NIGHT_BY_ID = "SELECT * FROM nights WHERE id = ?"
INSERT_NIGHT = "INSERT INTO nights (season_id, week, date) VALUES (?, ?, ?)"
MOVE_NIGHT = "UPDATE nights SET date = ? WHERE id = ?"
PARK_NIGHT = "UPDATE nights SET date = date(date, '+' || ? || ' years') WHERE id = ?"
LOCK_NIGHT = (
    "UPDATE nights SET status = 'locked', locked_at = ? WHERE id = ? AND status = 'scheduled'"
)
FINALIZE_NIGHT = (
    "UPDATE nights SET status = 'finalized', finalized_at = ?, finalized_by = ?, pot_cents = ?"
    " WHERE id = ? AND status <> 'finalized'"
)


def _season_rules(row: aiosqlite.Row) -> SeasonRules:
    stored = {name: row[name] for name in SEASON_RULES}
    stored["photo_required"] = bool(stored["photo_required"])
    return SeasonRules(**stored)


def _league(row: aiosqlite.Row) -> League:
    return League(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        time_zone=row["time_zone"],
        **{name: to_time(row[name]) for name in LEAGUE_TIMES},
    )


def _season(row: aiosqlite.Row) -> Season:
    return Season(
        id=row["id"],
        league_id=row["league_id"],
        name=row["name"],
        start_date=to_date(row["start_date"]),
        weekday=row["weekday"],
        status=row["status"],
        **{name: row[name] for name in SEASON_SETTINGS},
    )


def night_row(row: aiosqlite.Row) -> Night:
    return Night(
        id=row["id"],
        season_id=row["season_id"],
        week=row["week"],
        date=to_date(row["date"]),
        status=row["status"],
        pot_cents=row["pot_cents"],
        kind=row["kind"],
    )


async def league_by_guild(conn: aiosqlite.Connection, guild_id: int) -> League | None:
    return await one(conn, LEAGUE_BY_GUILD, (guild_id,), _league)


async def add_league(
    conn: aiosqlite.Connection, guild_id: int, name: str, time_zone: str, now: str
) -> int:
    return await insert(conn, INSERT_LEAGUE, (guild_id, name, time_zone, now))


async def set_league_time(
    conn: aiosqlite.Connection, league_id: int, name: str, value: str
) -> None:
    if name not in LEAGUE_TIMES:
        raise KeyError(name)
    await run(conn, f"UPDATE leagues SET {name} = ? WHERE id = ?", (value, league_id))


async def season_state(conn: aiosqlite.Connection, guild_id: int) -> tuple[bool, bool, bool]:
    """In one statement: (the guild has a league, it has an open season, that
    season has divisions)."""
    row = await one(conn, SEASON_STATE, (guild_id,), tuple)
    if row is None:
        return False, False, False
    return True, row[0] is not None, bool(row[1])


async def season_nights(conn: aiosqlite.Connection, guild_id: int) -> SeasonNights | None:
    """In one statement: the open season's nights, week order (None: no league)."""
    rows = list(await conn.execute_fetchall(SEASON_NIGHTS, (guild_id,)))
    if not rows:
        return None
    first = rows[0]
    nights = tuple(
        NightState(r["week"], to_date(r["date"]), r["status"], bool(r["grouped"]))
        for r in rows
        if r["week"] is not None
    )
    return SeasonNights(first["time_zone"], first["season_id"], first["regular_nights"] or 0,
                        nights, first["players"])  # fmt: skip


async def has_divisions(conn: aiosqlite.Connection, season_id: int) -> bool:
    """Whether any group of the season was cut into a division (R9)."""
    return bool(await scalar(conn, SEASON_HAS_DIVISIONS, (season_id,)))


async def open_season(conn: aiosqlite.Connection, league_id: int) -> Season | None:
    return await one(conn, OPEN_SEASON, (league_id,), _season)


async def open_season_with_rules(
    conn: aiosqlite.Connection, league_id: int
) -> tuple[Season, SeasonRules] | None:
    """The open season and its R10.4/R13.1 settings, from one row."""
    return await one(conn, OPEN_SEASON, (league_id,), lambda r: (_season(r), _season_rules(r)))


async def season_by_id(conn: aiosqlite.Connection, season_id: int) -> Season | None:
    return await one(conn, SEASON_BY_ID, (season_id,), _season)


async def add_season(
    conn: aiosqlite.Connection,
    league_id: int,
    name: str,
    start: date,
    weekday: str,
    regular_nights: int,
    now: str,
) -> int:
    params = (league_id, name, start.isoformat(), weekday, regular_nights, now)
    return await insert(conn, INSERT_SEASON, params)


async def set_season_setting(
    conn: aiosqlite.Connection, season_id: int, name: str, value: int | str
) -> None:
    if name not in SEASON_SETTINGS and name not in SEASON_RULES:
        raise KeyError(name)
    await run(conn, f"UPDATE seasons SET {name} = ? WHERE id = ?", (value, season_id))


async def close_season(conn: aiosqlite.Connection, season_id: int) -> None:
    await run(conn, CLOSE_SEASON, (season_id,))


async def open_season_again(conn: aiosqlite.Connection, season_id: int) -> None:
    """A closed season running again (the league's newest: one open at most)."""
    await run(conn, OPEN_AGAIN, (season_id,))


async def skipped_dates(conn: aiosqlite.Connection, season_id: int) -> list[date]:
    return await many(conn, SKIPPED, (season_id,), lambda row: to_date(row[0]))


async def add_skipped_date(
    conn: aiosqlite.Connection, season_id: int, day: date, reason: str
) -> None:
    await run(conn, INSERT_SKIPPED, (season_id, day.isoformat(), reason))


async def nights(conn: aiosqlite.Connection, season_id: int) -> list[Night]:
    return await many(conn, NIGHTS, (season_id,), night_row)


async def night_by_date(conn: aiosqlite.Connection, season_id: int, day: date) -> Night | None:
    return await one(conn, NIGHT_BY_DATE, (season_id, day.isoformat()), night_row)


async def night_by_week(conn: aiosqlite.Connection, season_id: int, week: int) -> Night | None:
    return await one(conn, NIGHT_BY_WEEK, (season_id, week), night_row)


async def guild_of_night(conn: aiosqlite.Connection, night_id: int) -> int | None:
    """The server whose league holds night `night_id`."""
    found = await scalar(conn, GUILD_OF_NIGHT, (night_id,))
    return int(found) if found is not None else None


async def night_by_id(conn: aiosqlite.Connection, night_id: int) -> Night | None:
    return await one(conn, NIGHT_BY_ID, (night_id,), night_row)


async def add_night(conn: aiosqlite.Connection, season_id: int, week: int, day: date) -> int:
    return await insert(conn, INSERT_NIGHT, (season_id, week, day.isoformat()))


async def move_nights(conn: aiosqlite.Connection, moves: list[tuple[int, date]]) -> None:
    """Give nights new dates; parked first so UNIQUE(season, date) holds throughout."""
    for night_id, _ in moves:
        await run(conn, PARK_NIGHT, (1000, night_id))
    for night_id, day in moves:
        await run(conn, MOVE_NIGHT, (day.isoformat(), night_id))


async def lock_night(conn: aiosqlite.Connection, night_id: int, now: str) -> bool:
    return await run(conn, LOCK_NIGHT, (now, night_id)) == 1


async def finalize_night(
    conn: aiosqlite.Connection, night_id: int, now: str, by: int, pot_cents: int
) -> bool:
    return await run(conn, FINALIZE_NIGHT, (now, by, pot_cents, night_id)) == 1


async def season_names(conn: aiosqlite.Connection, league_id: int) -> list[str]:
    return await many(conn, SEASON_NAMES, (league_id,), lambda row: row[0])


async def delete_unplayed_night(conn: aiosqlite.Connection, night_id: int) -> None:
    """Drop a night that was never played (the season was shortened)."""
    for statement in DELETE_NIGHT.split(";"):
        await run(conn, statement, (night_id,))


async def reopen_night(conn: aiosqlite.Connection, night_id: int) -> None:
    """A finalized night whose scores changed goes back to locked until finalized again."""
    await run(conn, REOPEN_NIGHT, (night_id,))
