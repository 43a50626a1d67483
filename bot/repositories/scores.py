"""Scores of a night's games and their audit trail (R12.4)."""

from __future__ import annotations

import aiosqlite

from bot.models import Score, ScoreChange
from bot.repositories._rows import insert, many, one, run, scalar

LIVE_SCORES_OF_GROUP = (
    "SELECT s.* FROM scores s JOIN games g ON g.id = s.game_id"
    " WHERE g.group_id = ? AND s.status IN ('pending', 'approved') ORDER BY g.number, s.id"
)
LIVE_SCORES_OF_NIGHT = (
    "SELECT s.* FROM scores s JOIN games g ON g.id = s.game_id"
    " JOIN night_groups n ON n.id = g.group_id"
    " WHERE n.night_id = ? AND s.status IN ('pending', 'approved') ORDER BY s.id"
)
LIVE_SCORE = (
    "SELECT * FROM scores WHERE game_id = ? AND player_id = ? AND status IN ('pending', 'approved')"
)
COUNT_OF_GROUP = (
    "SELECT count(*) FROM scores s JOIN games g ON g.id = s.game_id WHERE g.group_id = ?"
)
SCORE_BY_ID = "SELECT * FROM scores WHERE id = ?"
SCORES_OF_PLAYER_NIGHT = (
    "SELECT s.* FROM scores s JOIN games g ON g.id = s.game_id"
    " JOIN night_groups n ON n.id = g.group_id"
    " WHERE n.night_id = ? AND s.player_id = ? AND s.status IN ('pending', 'approved', 'rejected')"
    " ORDER BY g.number, s.id"
)
PENDING_OF_NIGHT = (
    "SELECT s.* FROM scores s JOIN games g ON g.id = s.game_id"
    " JOIN night_groups n ON n.id = g.group_id"
    " WHERE n.night_id = ? AND s.status = 'pending' ORDER BY s.id"
)
INSERT_SCORE = (
    "INSERT INTO scores (game_id, player_id, score, status, submitted_by, submitted_at,"
    " decided_by, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
DECIDE = (
    "UPDATE scores SET status = ?, decided_by = ?, decided_at = ?, reason = ?"
    " WHERE id = ? AND status = 'pending'"
)
SUPERSEDE = "UPDATE scores SET status = 'superseded' WHERE id = ? AND status = 'approved'"
INSERT_CHANGE = (
    "INSERT INTO score_changes (game_id, player_id, old_score, new_score, kind, reason,"
    " changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
CHANGES_OF_SEASON = (
    "SELECT c.* FROM score_changes c JOIN games g ON g.id = c.game_id"
    " JOIN night_groups n ON n.id = g.group_id JOIN nights t ON t.id = n.night_id"
    " WHERE t.season_id = ? ORDER BY c.id"
)


def _score(row: aiosqlite.Row) -> Score:
    return Score(
        id=row["id"],
        game_id=row["game_id"],
        player_id=row["player_id"],
        score=row["score"],
        status=row["status"],
        submitted_by=row["submitted_by"],
        decided_by=row["decided_by"],
        approval_message_id=row["approval_message_id"],
        photo_url=row["photo_url"],
        reason=row["reason"],
    )


def score_change(row: aiosqlite.Row) -> ScoreChange:
    """A `score_changes` row (R12.4) as a record."""
    return ScoreChange(
        id=row["id"],
        game_id=row["game_id"],
        player_id=row["player_id"],
        old_score=row["old_score"],
        new_score=row["new_score"],
        kind=row["kind"],
        reason=row["reason"],
        changed_by=row["changed_by"],
        changed_at=row["changed_at"],
    )


async def live_scores_of_group(conn: aiosqlite.Connection, group_id: int) -> list[Score]:
    return await many(conn, LIVE_SCORES_OF_GROUP, (group_id,), _score)


async def live_scores_of_night(conn: aiosqlite.Connection, night_id: int) -> list[Score]:
    return await many(conn, LIVE_SCORES_OF_NIGHT, (night_id,), _score)


async def live_score(conn: aiosqlite.Connection, game_id: int, player_id: int) -> Score | None:
    return await one(conn, LIVE_SCORE, (game_id, player_id), _score)


async def scores_of_player_night(
    conn: aiosqlite.Connection, night_id: int, player_id: int
) -> list[Score]:
    """A player's submitted scores of a night, waiting, approved or rejected, by game."""
    return await many(conn, SCORES_OF_PLAYER_NIGHT, (night_id, player_id), _score)


async def score_by_id(conn: aiosqlite.Connection, score_id: int) -> Score | None:
    return await one(conn, SCORE_BY_ID, (score_id,), _score)


async def pending_of_night(conn: aiosqlite.Connection, night_id: int) -> list[Score]:
    return await many(conn, PENDING_OF_NIGHT, (night_id,), _score)


async def add_score(
    conn: aiosqlite.Connection,
    game_id: int,
    player_id: int,
    score: int,
    submitted_by: int,
    now: str,
    *,
    approved_by: int | None = None,
) -> int:
    status = "pending" if approved_by is None else "approved"
    decided_at = None if approved_by is None else now
    params = (game_id, player_id, score, status, submitted_by, now, approved_by, decided_at)
    return await insert(conn, INSERT_SCORE, params)


async def decide(
    conn: aiosqlite.Connection,
    score_id: int,
    status: str,
    by: int,
    now: str,
    reason: str | None = None,
) -> bool:
    """Approve or reject a pending score; False when it was already decided."""
    return await run(conn, DECIDE, (status, by, now, reason, score_id)) == 1


async def supersede(conn: aiosqlite.Connection, score_id: int) -> bool:
    return await run(conn, SUPERSEDE, (score_id,)) == 1


async def record_change(
    conn: aiosqlite.Connection,
    game_id: int,
    player_id: int,
    old: int | None,
    new: int,
    kind: str,
    reason: str,
    by: int,
    now: str,
) -> int:
    params = (game_id, player_id, old, new, kind, reason, by, now)
    return await insert(conn, INSERT_CHANGE, params)


async def changes_of_season(conn: aiosqlite.Connection, season_id: int) -> list[ScoreChange]:
    return await many(conn, CHANGES_OF_SEASON, (season_id,), score_change)


async def count_of_group(conn: aiosqlite.Connection, group_id: int) -> int:
    """Scores ever submitted in a group's games, whatever their state."""
    return int(await scalar(conn, COUNT_OF_GROUP, (group_id,)))
