"""Reads for a season's export: flat records, one per CSV line.

Unlike the other repositories these return plain records (`dict` by column)
rather than dataclasses: each query's columns are the export's, and the
service only names, converts and orders them; a dataclass per query would
repeat every column list a third time.
"""

from __future__ import annotations

from typing import Any

import aiosqlite

from bot.repositories._rows import many

Record = dict[str, Any]

# Where a game was played: its night, pool (division), group and machine.
_GAME = (
    " JOIN games g ON g.id = {alias}.game_id JOIN night_groups ng ON ng.id = g.group_id"
    " JOIN nights n ON n.id = ng.night_id JOIN machines m ON m.id = g.machine_id"
)
_PLACE = "n.week, n.date, ng.pool, ng.position AS grp, g.number AS game, m.name AS machine"
_ORDER = " ORDER BY n.week, ng.pool, ng.position, g.number"

NIGHTS = (
    "SELECT n.week, n.date, n.status, n.pot_cents, n.locked_at, n.finalized_at, n.finalized_by,"
    " (SELECT group_concat(name, '; ') FROM (SELECT m.name FROM night_machines nm"
    "  JOIN machines m ON m.id = nm.machine_id WHERE nm.night_id = n.id ORDER BY m.id)) AS working"
    " FROM nights n WHERE n.season_id = ? AND n.kind = 'regular' ORDER BY n.week"
)
SKIPPED = "SELECT date, reason FROM skipped_dates WHERE season_id = ? ORDER BY date"
GAMES = (
    f"SELECT {_PLACE}, g.group_id, g.filled FROM games g"
    " JOIN night_groups ng ON ng.id = g.group_id JOIN nights n ON n.id = ng.night_id"
    " JOIN machines m ON m.id = g.machine_id WHERE n.season_id = ?" + _ORDER
)
GROUP_MEMBERS = (
    "SELECT gm.group_id, gm.player_id FROM group_members gm JOIN nights n ON n.id = gm.night_id"
    " WHERE n.season_id = ? ORDER BY gm.group_id, gm.ladder"
)
# Every live score entered, in any state; the points of an approved one once final.
LIVE_SCORES = (
    f"SELECT {_PLACE}, s.id AS score_id, s.player_id, s.score, s.status, s.reason,"
    " s.submitted_by, s.submitted_at, s.decided_by, s.decided_at, s.photo_url,"
    " r.points, r.par, r.place"
    " FROM scores s" + _GAME.format(alias="s") + " LEFT JOIN game_results r"
    " ON r.game_id = s.game_id AND r.player_id = s.player_id AND r.source = 'live'"
    " AND s.status = 'approved'"
    " WHERE n.season_id = ?" + _ORDER + ", s.id"
)
# A finalized game's score that was not entered live: a pre-makeup or the Zero Point Rule.
STAND_IN_SCORES = (
    f"SELECT {_PLACE}, r.player_id, r.score, r.source, r.points, r.par, r.place,"
    " pm.reason, pm.submitted_by, pm.submitted_at, pm.decided_by, pm.decided_at"
    " FROM game_results r" + _GAME.format(alias="r") + " LEFT JOIN pre_makeups pm"
    " ON r.source = 'pre_makeup' AND pm.season_id = n.season_id AND pm.player_id = r.player_id"
    " AND pm.machine_id = g.machine_id AND pm.status = 'approved'"
    " WHERE n.season_id = ? AND r.source <> 'live'" + _ORDER + ", r.place"
)
PRE_MAKEUPS = (
    "SELECT m.name AS machine, pm.player_id, pm.score, pm.status, pm.reason, pm.submitted_by,"
    " pm.submitted_at, pm.decided_by, pm.decided_at FROM pre_makeups pm"
    " JOIN machines m ON m.id = pm.machine_id WHERE pm.season_id = ? ORDER BY pm.id"
)
DUES = (
    "SELECT n.week, n.date, d.player_id, d.cents, d.recorded_by, d.recorded_at FROM dues d"
    " JOIN nights n ON n.id = d.night_id WHERE n.season_id = ? ORDER BY n.week, d.id"
)
FUND_ADDITIONS = (
    "SELECT cents, note, recorded_by, recorded_at FROM fund_additions WHERE season_id = ?"
    " ORDER BY id"
)
PAYOUTS = (
    "SELECT n.week, n.date, r.player_id, r.payout_cents, n.finalized_by, n.finalized_at"
    " FROM night_results r JOIN nights n ON n.id = r.night_id"
    " WHERE n.season_id = ? AND r.payout_cents > 0 ORDER BY n.week, r.payout_cents DESC"
)
REMOVED_AT = "SELECT id, removed_at FROM players WHERE league_id = ? AND removed_at IS NOT NULL"
GUILDS = "SELECT guild_id FROM leagues ORDER BY id"


def _record(row: aiosqlite.Row) -> Record:
    return dict(zip(row.keys(), row, strict=True))


async def nights(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, NIGHTS, (season_id,), _record)


async def skipped(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, SKIPPED, (season_id,), _record)


async def games(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, GAMES, (season_id,), _record)


async def group_members(conn: aiosqlite.Connection, season_id: int) -> dict[int, list[int]]:
    members: dict[int, list[int]] = {}
    for row in await conn.execute_fetchall(GROUP_MEMBERS, (season_id,)):
        members.setdefault(row[0], []).append(row[1])
    return members


async def live_scores(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, LIVE_SCORES, (season_id,), _record)


async def stand_in_scores(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, STAND_IN_SCORES, (season_id,), _record)


async def pre_makeups(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, PRE_MAKEUPS, (season_id,), _record)


async def dues(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, DUES, (season_id,), _record)


async def fund_additions(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, FUND_ADDITIONS, (season_id,), _record)


async def payouts(conn: aiosqlite.Connection, season_id: int) -> list[Record]:
    return await many(conn, PAYOUTS, (season_id,), _record)


async def removed_at(conn: aiosqlite.Connection, league_id: int) -> dict[int, str]:
    return {row[0]: row[1] for row in await conn.execute_fetchall(REMOVED_AT, (league_id,))}


async def guilds(conn: aiosqlite.Connection) -> list[int]:
    """Every league's Discord server id (a database normally holds one league)."""
    return [int(row[0]) for row in await conn.execute_fetchall(GUILDS)]
