"""Reads for statistics and season history: one season's finalized
games, groups and working machines, and the league's seasons by name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import aiosqlite

from bot.models import GameResultRow, Season, SeasonRules
from bot.repositories._rows import many, one, to_date
from bot.repositories.leagues import _season, _season_rules

SEASONS = "SELECT * FROM seasons WHERE league_id = ? ORDER BY created_at, id"
SEASON_NAMED = "SELECT * FROM seasons WHERE league_id = ? AND name = ? COLLATE NOCASE"
SEASON_BY_ID = "SELECT * FROM seasons WHERE id = ?"
GAMES_OF_SEASON = (
    "SELECT n.week, n.date, g.id AS game_id, ng.id AS group_id, g.number, m.name AS machine,"
    " r.player_id, r.score, r.source, r.points, r.par, r.place"
    " FROM game_results r JOIN games g ON g.id = r.game_id"
    " JOIN night_groups ng ON ng.id = g.group_id JOIN nights n ON n.id = ng.night_id"
    " JOIN machines m ON m.id = g.machine_id"
    " WHERE n.season_id = ? AND n.status = 'finalized' ORDER BY n.week, ng.id, g.number, r.place"
)
GROUPS_OF_SEASON = (
    "SELECT ng.id, ng.night_id, ng.pool, ng.position FROM night_groups ng"
    " JOIN nights n ON n.id = ng.night_id WHERE n.season_id = ? AND n.status = 'finalized'"
    " AND n.kind = 'regular'"  # the regular season's (playoff night is not a week of it)
)
GROUP_GAMES_OF_SEASON = (
    "SELECT ng.id, n.week, m.name FROM games g JOIN night_groups ng ON ng.id = g.group_id"
    " JOIN nights n ON n.id = ng.night_id JOIN machines m ON m.id = g.machine_id"
    " WHERE n.season_id = ? AND n.status = 'finalized' AND n.kind = 'regular'"
    " ORDER BY ng.id, g.number"
)
WORKING_OF_SEASON = (
    "SELECT nm.night_id, m.name FROM night_machines nm JOIN nights n ON n.id = nm.night_id"
    " JOIN machines m ON m.id = nm.machine_id WHERE n.season_id = ? AND n.status = 'finalized'"
)
SEASON_PLAYERS = (
    "SELECT DISTINCT gm.player_id FROM group_members gm JOIN nights n ON n.id = gm.night_id"
    " WHERE n.season_id = ?"
)


@dataclass(frozen=True)
class SeasonGame:
    """A finalized game of one player, with its night and machine."""

    week: int
    day: date
    group_id: int
    number: int
    machine: str
    result: GameResultRow


@dataclass(frozen=True)
class GroupPlace:
    group_id: int
    night_id: int
    pool: str
    position: int


@dataclass(frozen=True)
class SeasonStarted:
    season: Season
    rules: SeasonRules
    created_at: str


def _started(row: aiosqlite.Row) -> SeasonStarted:
    return SeasonStarted(_season(row), _season_rules(row), row["created_at"])


async def seasons(conn: aiosqlite.Connection, league_id: int) -> list[SeasonStarted]:
    """The league's seasons, oldest first."""
    return await many(conn, SEASONS, (league_id,), _started)


async def season_named(
    conn: aiosqlite.Connection, league_id: int, name: str
) -> SeasonStarted | None:
    return await one(conn, SEASON_NAMED, (league_id, name), _started)


async def season_by_id(conn: aiosqlite.Connection, season_id: int) -> SeasonStarted | None:
    return await one(conn, SEASON_BY_ID, (season_id,), _started)


def _game(row: aiosqlite.Row) -> SeasonGame:
    result = GameResultRow(
        row["game_id"], row["player_id"], row["score"], row["source"], row["points"],
        row["par"], row["place"],
    )  # fmt: skip
    return SeasonGame(
        row["week"], to_date(row["date"]), row["group_id"], row["number"], row["machine"], result
    )


async def games_of_season(conn: aiosqlite.Connection, season_id: int) -> list[SeasonGame]:
    return await many(conn, GAMES_OF_SEASON, (season_id,), _game)


async def groups_of_season(conn: aiosqlite.Connection, season_id: int) -> list[GroupPlace]:
    return await many(
        conn, GROUPS_OF_SEASON, (season_id,), lambda r: GroupPlace(r[0], r[1], r[2], r[3])
    )


async def group_games_of_season(
    conn: aiosqlite.Connection, season_id: int
) -> list[tuple[int, int, str]]:
    """(group id, week, machine name) of every game of the season's finalized nights."""
    return await many(conn, GROUP_GAMES_OF_SEASON, (season_id,), lambda r: (r[0], r[1], r[2]))


async def working_of_season(conn: aiosqlite.Connection, season_id: int) -> list[tuple[int, str]]:
    """(night id, machine name) of each machine working on a finalized night (R4.1)."""
    return await many(conn, WORKING_OF_SEASON, (season_id,), lambda r: (r[0], r[1]))


async def players_of_season(conn: aiosqlite.Connection, season_id: int) -> set[int]:
    """Everyone who was in a group of the season."""
    return set(await many(conn, SEASON_PLAYERS, (season_id,), lambda r: r[0]))
