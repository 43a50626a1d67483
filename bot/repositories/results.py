"""A finalized night's stored results, dues and the prize fund."""

from __future__ import annotations

import aiosqlite

from bot.models import GameResultRow, NightResult
from bot.repositories._rows import (
    fraction_of,
    fraction_text,
    insert,
    many,
    run,
    run_many,
    scalar,
)

RESULT_COLUMNS = (
    "night_id, player_id, group_id, place, attendance, took_part, match_points, tns,"
    " tns_exact, bonus_base, multiplier, bonus, league_points, tlp, week_result,"
    " used_pre_makeup_night, next_multiplier, payout_cents, movement"
)
INSERT_RESULT = f"INSERT INTO night_results ({RESULT_COLUMNS}) VALUES ({', '.join('?' * 19)})"
RESULTS_OF_SEASON = (
    "SELECT r.*, n.week FROM night_results r JOIN nights n ON n.id = r.night_id"
    " WHERE n.season_id = ? AND n.status = 'finalized' ORDER BY n.week, r.group_id, r.place"
)
RESULTS_OF_NIGHT = (
    "SELECT r.*, n.week FROM night_results r JOIN nights n ON n.id = r.night_id"
    " WHERE r.night_id = ? ORDER BY r.group_id, r.place"
)
INSERT_GAME_RESULT = (
    "INSERT INTO game_results (game_id, player_id, score, source, points, normalized, par,"
    " place) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
DELETE_RESULTS = "DELETE FROM night_results WHERE night_id = ?"
PARS_OF_NIGHT = (
    "SELECT r.game_id, max(r.par) FROM game_results r JOIN games g ON g.id = r.game_id"
    " JOIN night_groups n ON n.id = g.group_id WHERE n.night_id = ? AND r.par IS NOT NULL"
    " GROUP BY r.game_id"
)
DELETE_GAME_RESULTS = (
    "DELETE FROM game_results WHERE game_id IN (SELECT g.id FROM games g"
    " JOIN night_groups n ON n.id = g.group_id WHERE n.night_id = ?)"
)
GAME_RESULTS_OF_NIGHT = (
    "SELECT r.game_id, r.player_id, r.score, r.source, r.points, r.par, r.place FROM game_results r"
    " JOIN games g ON g.id = r.game_id JOIN night_groups n ON n.id = g.group_id"
    " WHERE n.night_id = ? ORDER BY g.group_id, g.number, r.place"
)
DUES_PAID = "SELECT count(*) FROM dues WHERE night_id = ? AND player_id = ?"
DUES_OF_NIGHT = "SELECT coalesce(sum(cents), 0) FROM dues WHERE night_id = ?"
DUES_OF_PLAYER = (
    "SELECT coalesce(sum(d.cents), 0) FROM dues d JOIN nights n ON n.id = d.night_id"
    " WHERE n.season_id = ? AND d.player_id = ?"
)
DUES_OF_PLAYER_TO_WEEK = (
    "SELECT coalesce(sum(d.cents), 0) FROM dues d JOIN nights n ON n.id = d.night_id"
    " WHERE n.season_id = ? AND d.player_id = ? AND n.week <= ?"
)
INSERT_DUES = (
    "INSERT INTO dues (night_id, player_id, cents, recorded_by, recorded_at) VALUES (?, ?, ?, ?, ?)"
)
FUND_ADDITIONS = "SELECT coalesce(sum(cents), 0) FROM fund_additions WHERE season_id = ?"
INSERT_FUND = (
    "INSERT INTO fund_additions (season_id, cents, note, recorded_by, recorded_at)"
    " VALUES (?, ?, ?, ?, ?)"
)


def _result(row: aiosqlite.Row) -> NightResult:
    return NightResult(
        night_id=row["night_id"],
        week=row["week"],
        player_id=row["player_id"],
        group_id=row["group_id"],
        place=row["place"],
        attendance=row["attendance"],
        took_part=bool(row["took_part"]),
        match_points=row["match_points"],
        tns=fraction_of(row["tns_exact"]),
        bonus_base=row["bonus_base"],
        multiplier=row["multiplier"],
        bonus=row["bonus"],
        league_points=row["league_points"],
        tlp=row["tlp"],
        week_result=row["week_result"],
        used_pre_makeup_night=bool(row["used_pre_makeup_night"]),
        next_multiplier=row["next_multiplier"],
        payout_cents=row["payout_cents"],
        movement=row["movement"],
    )


def _result_row(r: NightResult) -> tuple[object, ...]:
    return (
        r.night_id, r.player_id, r.group_id, r.place, r.attendance, int(r.took_part),
        r.match_points, float(r.tns), fraction_text(r.tns), r.bonus_base, r.multiplier, r.bonus,
        r.league_points, r.tlp, r.week_result, int(r.used_pre_makeup_night), r.next_multiplier,
        r.payout_cents, r.movement,
    )  # fmt: skip


async def add_results(conn: aiosqlite.Connection, rows: list[NightResult]) -> None:
    await run_many(conn, INSERT_RESULT, [_result_row(r) for r in rows])


async def add_game_results(conn: aiosqlite.Connection, rows: list[GameResultRow]) -> None:
    """Store a finalized night's game results with the par each was scored with
    (R6.3), so the exact normalized score is always `score × 1,000,000 / par`."""
    values = [
        (r.game_id, r.player_id, r.score, r.source, r.points, float(r.normalized), r.par, r.place)
        for r in rows
    ]
    await run_many(conn, INSERT_GAME_RESULT, values)


async def results_of_season(conn: aiosqlite.Connection, season_id: int) -> list[NightResult]:
    return await many(conn, RESULTS_OF_SEASON, (season_id,), _result)


async def results_of_night(conn: aiosqlite.Connection, night_id: int) -> list[NightResult]:
    return await many(conn, RESULTS_OF_NIGHT, (night_id,), _result)


def _game_result(row: aiosqlite.Row) -> GameResultRow:
    return GameResultRow(
        game_id=row["game_id"],
        player_id=row["player_id"],
        score=row["score"],
        source=row["source"],
        points=row["points"],
        par=row["par"],
        place=row["place"],
    )


async def game_results_of_night(conn: aiosqlite.Connection, night_id: int) -> list[GameResultRow]:
    """A finalized night's game results, game by game in finishing order; each
    normalized score exact from the par it was scored with (R6.1, R6.3)."""
    return await many(conn, GAME_RESULTS_OF_NIGHT, (night_id,), _game_result)


async def pars_of_night(conn: aiosqlite.Connection, night_id: int) -> dict[int, int]:
    """Game id -> the par a finalized night's game was scored with (R6.3)."""
    return dict(await many(conn, PARS_OF_NIGHT, (night_id,), tuple))


async def clear_results(conn: aiosqlite.Connection, night_id: int) -> None:
    await run(conn, DELETE_GAME_RESULTS, (night_id,))
    await run(conn, DELETE_RESULTS, (night_id,))


async def dues_of_night(conn: aiosqlite.Connection, night_id: int) -> int:
    return int(await scalar(conn, DUES_OF_NIGHT, (night_id,)))


async def dues_of_player(conn: aiosqlite.Connection, season_id: int, player_id: int) -> int:
    return int(await scalar(conn, DUES_OF_PLAYER, (season_id, player_id)))


async def add_dues(
    conn: aiosqlite.Connection, night_id: int, player_id: int, cents: int, by: int, now: str
) -> int:
    return await insert(conn, INSERT_DUES, (night_id, player_id, cents, by, now))


async def fund_additions(conn: aiosqlite.Connection, season_id: int) -> int:
    return int(await scalar(conn, FUND_ADDITIONS, (season_id,)))


async def add_to_fund(
    conn: aiosqlite.Connection, season_id: int, cents: int, note: str, by: int, now: str
) -> int:
    return await insert(conn, INSERT_FUND, (season_id, cents, note, by, now))


async def dues_paid(conn: aiosqlite.Connection, night_id: int, player_id: int) -> bool:
    return bool(await scalar(conn, DUES_PAID, (night_id, player_id)))


async def dues_of_player_to_week(
    conn: aiosqlite.Connection, season_id: int, player_id: int, week: int
) -> int:
    """What a player paid in dues this season for the nights up to `week`."""
    return int(await scalar(conn, DUES_OF_PLAYER_TO_WEEK, (season_id, player_id, week)))
