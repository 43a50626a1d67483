"""A playoff bracket: its machines, matches and games (migrations/0016_playoff_bracket.sql)."""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from bot.models import BracketGame, BracketMatch
from bot.repositories._rows import insert, many, run, run_many

MACHINES = "SELECT machine_id FROM playoff_machines WHERE night_id = ? ORDER BY rowid"
ADD_MACHINE = "INSERT INTO playoff_machines (night_id, machine_id) VALUES (?, ?)"
MATCHES = (
    "SELECT * FROM playoff_matches WHERE night_id = ? ORDER BY pool,"
    " CASE round WHEN 'semifinal' THEN 0 WHEN 'final' THEN 1 ELSE 2 END, slot"
)
GAMES = (
    "SELECT g.* FROM playoff_games g JOIN playoff_matches m ON m.id = g.match_id"
    " WHERE m.night_id = ? ORDER BY g.match_id, g.game"
)
ADD_MATCH = (
    "INSERT INTO playoff_matches (night_id, pool, round, slot, high_id, low_id)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
DELETE_MATCH = "DELETE FROM playoff_matches WHERE id = ?"
DELETE_PICKS = "DELETE FROM playoff_games WHERE match_id = ? AND high_score IS NULL"
PICK = (
    "INSERT INTO playoff_games (match_id, game, machine_id, picked_by) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (match_id, game) DO UPDATE SET machine_id = excluded.machine_id,"
    " picked_by = excluded.picked_by"
    " WHERE high_score IS NULL"
)
PLAY = (
    "UPDATE playoff_games SET high_score = ?, low_score = ?, played_at = ?"
    " WHERE match_id = ? AND game = ? AND high_score IS NULL"
)
CHANGE = (
    "UPDATE playoff_games SET high_score = ?, low_score = ?"
    " WHERE match_id = ? AND game = ? AND high_score IS NOT NULL"
)
AUDIT = (
    "INSERT INTO playoff_game_changes (match_id, game, old_high, old_low, new_high, new_low,"
    " changed_by, changed_at, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


async def machines(conn: aiosqlite.Connection, night_id: int) -> list[int]:
    """The bracket's machines (ids), in the order named."""
    return await many(conn, MACHINES, (night_id,), lambda row: int(row["machine_id"]))


async def set_machines(conn: aiosqlite.Connection, night_id: int, ids: Sequence[int]) -> None:
    await run_many(conn, ADD_MACHINE, [(night_id, m) for m in ids])


def _game(row: aiosqlite.Row) -> BracketGame:
    return BracketGame(
        row["game"], row["machine_id"], row["picked_by"], row["high_score"], row["low_score"]
    )


async def matches(conn: aiosqlite.Connection, night_id: int) -> list[BracketMatch]:
    """Every match of the night with its games, by division, then round."""
    games: dict[int, list[BracketGame]] = {}
    for row in await conn.execute_fetchall(GAMES, (night_id,)):
        games.setdefault(row["match_id"], []).append(_game(row))
    return await many(
        conn,
        MATCHES,
        (night_id,),
        lambda row: BracketMatch(
            row["id"],
            row["pool"],
            row["round"],
            row["slot"],
            row["high_id"],
            row["low_id"],
            tuple(games.get(row["id"], [])),
        ),
    )


async def add_match(
    conn: aiosqlite.Connection,
    night_id: int,
    pool: str,
    round_: str,
    slot: int,
    high_id: int,
    low_id: int,
) -> int:
    return await insert(conn, ADD_MATCH, (night_id, pool, round_, slot, high_id, low_id))


async def delete_match(conn: aiosqlite.Connection, match_id: int) -> None:
    """A later match made by a result since corrected, before any game of it was played."""
    await run(conn, DELETE_PICKS, (match_id,))
    await run(conn, DELETE_MATCH, (match_id,))


async def drop_picks(conn: aiosqlite.Connection, match_id: int) -> None:
    """A match's machine picked for a game not played yet, forgotten (a correction
    may have changed who picks it)."""
    await run(conn, DELETE_PICKS, (match_id,))


async def pick(
    conn: aiosqlite.Connection, match_id: int, game: int, machine_id: int, picked_by: int
) -> None:
    """The machine of a game not played yet (a second pick replaces the first)."""
    await run(conn, PICK, (match_id, game, machine_id, picked_by))


async def play(
    conn: aiosqlite.Connection, match_id: int, game: int, high: int, low: int, at: str
) -> bool:
    """Both raw scores of a picked game; False when it was played already."""
    return await run(conn, PLAY, (high, low, at, match_id, game)) == 1


async def change(
    conn: aiosqlite.Connection,
    match_id: int,
    old: BracketGame,
    high: int,
    low: int,
    by: int,
    at: str,
    reason: str,
) -> None:
    """R12.4: a played game's scores corrected, with who, when, old and new, and why."""
    await run(conn, CHANGE, (high, low, match_id, old.number))
    await run(
        conn,
        AUDIT,
        (match_id, old.number, old.high_score, old.low_score, high, low, by, at, reason),
    )
