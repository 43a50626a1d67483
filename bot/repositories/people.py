"""Players, machines and pre-makeup scores."""

from __future__ import annotations

import aiosqlite

from bot.models import Machine, Player, PreMakeup
from bot.repositories._rows import insert, many, one, run

PLAYERS = "SELECT * FROM players WHERE league_id = ? AND removed_at IS NULL ORDER BY id"
ALL_PLAYERS = "SELECT * FROM players WHERE league_id = ? ORDER BY id"
PLAYER_BY_DISCORD = "SELECT * FROM players WHERE league_id = ? AND discord_id = ?"
PLAYER_BY_NAME = (
    "SELECT * FROM players WHERE league_id = ? AND name = ? COLLATE NOCASE AND removed_at IS NULL"
)
PLAYER_BY_ID = "SELECT * FROM players WHERE id = ?"
INSERT_PLAYER = (
    "INSERT INTO players (league_id, discord_id, name, skill, joined_at) VALUES (?, ?, ?, ?, ?)"
)
REMOVE_PLAYER = "UPDATE players SET removed_at = ? WHERE id = ? AND removed_at IS NULL"
RESTORE_PLAYER = "UPDATE players SET removed_at = NULL, name = ?, skill = ? WHERE id = ?"
SET_SKILL = "UPDATE players SET skill = ? WHERE id = ?"
SET_IFPA = "UPDATE players SET ifpa_number = ? WHERE id = ?"
PLAYER_BY_IFPA = (
    "SELECT * FROM players WHERE league_id = ? AND ifpa_number = ? AND removed_at IS NULL"
)
GRANT_NIGHTS = (
    "UPDATE players SET extra_pre_makeup_nights = extra_pre_makeup_nights + ? WHERE id = ?"
)

MACHINES = "SELECT * FROM machines WHERE league_id = ? AND retired_at IS NULL ORDER BY id"
MACHINE_BY_NAME = "SELECT * FROM machines WHERE league_id = ? AND name = ? COLLATE NOCASE"
MACHINE_BY_ID = "SELECT * FROM machines WHERE id = ?"
INSERT_MACHINE = "INSERT INTO machines (league_id, name, par, added_at) VALUES (?, ?, ?, ?)"
SET_PAR = "UPDATE machines SET par = ? WHERE id = ?"
SET_WORKING = "UPDATE machines SET working = ? WHERE id = ?"

PRE_MAKEUPS = "SELECT * FROM pre_makeups WHERE season_id = ? AND status = 'approved'"
LIVE_PRE_MAKEUP = (
    "SELECT * FROM pre_makeups WHERE season_id = ? AND player_id = ? AND machine_id = ?"
    " AND status <> 'rejected'"
)
PRE_MAKEUP_BY_ID = "SELECT * FROM pre_makeups WHERE id = ?"
APPROVED_FOR_MACHINE = (
    "SELECT score FROM pre_makeups WHERE machine_id = ? AND season_id = ? AND status = 'approved'"
)
INSERT_PRE_MAKEUP = (
    "INSERT INTO pre_makeups (season_id, player_id, machine_id, score, submitted_by, submitted_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
WITNESSES = "SELECT player_id FROM pre_makeup_witnesses WHERE pre_makeup_id = ? ORDER BY player_id"
INSERT_WITNESS = "INSERT INTO pre_makeup_witnesses (pre_makeup_id, player_id) VALUES (?, ?)"
DECIDE_PRE_MAKEUP = (
    "UPDATE pre_makeups SET status = ?, decided_by = ?, decided_at = ?, reason = ?"
    " WHERE id = ? AND status = 'pending'"
)


def _player(row: aiosqlite.Row) -> Player:
    return Player(
        id=row["id"],
        league_id=row["league_id"],
        discord_id=row["discord_id"],
        name=row["name"],
        skill=row["skill"],
        extra_pre_makeup_nights=row["extra_pre_makeup_nights"],
        removed=row["removed_at"] is not None,
        joined_at=row["joined_at"],
        ifpa_number=row["ifpa_number"],
    )


def _machine(row: aiosqlite.Row) -> Machine:
    return Machine(
        id=row["id"],
        league_id=row["league_id"],
        name=row["name"],
        par=row["par"],
        working=bool(row["working"]),
        added_at=row["added_at"],
    )


def _pre_makeup(row: aiosqlite.Row) -> PreMakeup:
    return PreMakeup(
        id=row["id"],
        season_id=row["season_id"],
        player_id=row["player_id"],
        machine_id=row["machine_id"],
        score=row["score"],
        status=row["status"],
        submitted_by=row["submitted_by"],
        decided_by=row["decided_by"],
        approval_message_id=row["approval_message_id"],
        reason=row["reason"],
        card_id=row["card_id"],
    )


async def players(
    conn: aiosqlite.Connection, league_id: int, *, removed: bool = False
) -> list[Player]:
    return await many(conn, ALL_PLAYERS if removed else PLAYERS, (league_id,), _player)


async def player_by_discord(
    conn: aiosqlite.Connection, league_id: int, discord_id: int
) -> Player | None:
    return await one(conn, PLAYER_BY_DISCORD, (league_id, discord_id), _player)


async def player_by_name(conn: aiosqlite.Connection, league_id: int, name: str) -> Player | None:
    return await one(conn, PLAYER_BY_NAME, (league_id, name), _player)


async def player_by_id(conn: aiosqlite.Connection, player_id: int) -> Player | None:
    return await one(conn, PLAYER_BY_ID, (player_id,), _player)


async def add_player(
    conn: aiosqlite.Connection,
    league_id: int,
    discord_id: int | None,
    name: str,
    skill: float | None,
    now: str,
) -> int:
    return await insert(conn, INSERT_PLAYER, (league_id, discord_id, name, skill, now))


async def restore_player(
    conn: aiosqlite.Connection, player_id: int, name: str, skill: float | None
) -> None:
    await run(conn, RESTORE_PLAYER, (name, skill, player_id))


async def remove_player(conn: aiosqlite.Connection, player_id: int, now: str) -> bool:
    return await run(conn, REMOVE_PLAYER, (now, player_id)) == 1


async def set_skill(conn: aiosqlite.Connection, player_id: int, skill: float | None) -> None:
    await run(conn, SET_SKILL, (skill, player_id))


async def set_ifpa(conn: aiosqlite.Connection, player_id: int, number: int | None) -> None:
    await run(conn, SET_IFPA, (number, player_id))


async def player_by_ifpa(conn: aiosqlite.Connection, league_id: int, number: int) -> Player | None:
    return await one(conn, PLAYER_BY_IFPA, (league_id, number), _player)


async def grant_pre_makeup_nights(conn: aiosqlite.Connection, player_id: int, nights: int) -> None:
    await run(conn, GRANT_NIGHTS, (nights, player_id))


async def machines(conn: aiosqlite.Connection, league_id: int) -> list[Machine]:
    return await many(conn, MACHINES, (league_id,), _machine)


async def machine_by_name(conn: aiosqlite.Connection, league_id: int, name: str) -> Machine | None:
    return await one(conn, MACHINE_BY_NAME, (league_id, name), _machine)


async def machine_by_id(conn: aiosqlite.Connection, machine_id: int) -> Machine | None:
    return await one(conn, MACHINE_BY_ID, (machine_id,), _machine)


async def add_machine(
    conn: aiosqlite.Connection, league_id: int, name: str, par: int | None, now: str
) -> int:
    return await insert(conn, INSERT_MACHINE, (league_id, name, par, now))


async def set_par(conn: aiosqlite.Connection, machine_id: int, par: int | None) -> None:
    await run(conn, SET_PAR, (par, machine_id))


async def set_working(conn: aiosqlite.Connection, machine_id: int, working: bool) -> None:
    await run(conn, SET_WORKING, (int(working), machine_id))


async def approved_pre_makeups(conn: aiosqlite.Connection, season_id: int) -> list[PreMakeup]:
    return await many(conn, PRE_MAKEUPS, (season_id,), _pre_makeup)


async def live_pre_makeup(
    conn: aiosqlite.Connection, season_id: int, player_id: int, machine_id: int
) -> PreMakeup | None:
    return await one(conn, LIVE_PRE_MAKEUP, (season_id, player_id, machine_id), _pre_makeup)


async def pre_makeup_by_id(conn: aiosqlite.Connection, pre_makeup_id: int) -> PreMakeup | None:
    return await one(conn, PRE_MAKEUP_BY_ID, (pre_makeup_id,), _pre_makeup)


async def approved_scores_for_machine(
    conn: aiosqlite.Connection, machine_id: int, season_id: int
) -> list[int]:
    return await many(conn, APPROVED_FOR_MACHINE, (machine_id, season_id), lambda row: row[0])


async def add_pre_makeup(
    conn: aiosqlite.Connection,
    season_id: int,
    player_id: int,
    machine_id: int,
    score: int,
    submitted_by: int,
    witnesses: list[int],
    now: str,
) -> int:
    params = (season_id, player_id, machine_id, score, submitted_by, now)
    new_id = await insert(conn, INSERT_PRE_MAKEUP, params)
    for witness in witnesses:
        await run(conn, INSERT_WITNESS, (new_id, witness))
    return new_id


async def decide_pre_makeup(
    conn: aiosqlite.Connection,
    pre_makeup_id: int,
    status: str,
    by: int,
    now: str,
    reason: str | None = None,
) -> bool:
    return await run(conn, DECIDE_PRE_MAKEUP, (status, by, now, reason, pre_makeup_id)) == 1


async def witnesses(conn: aiosqlite.Connection, pre_makeup_id: int) -> list[int]:
    """The player ids of who was present when a pre-makeup score was played (R3.1)."""
    return [row[0] for row in await conn.execute_fetchall(WITNESSES, (pre_makeup_id,))]
