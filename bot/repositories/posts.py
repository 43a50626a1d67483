"""Claims on scheduled and result posts: each key is posted at most once."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.repositories._rows import many, one, run

POST_BY_KEY = "SELECT * FROM posts WHERE league_id = ? AND post_key = ?"
CLAIM = (
    "INSERT INTO posts (league_id, post_key, claimed_at) VALUES (?, ?, ?)"
    " ON CONFLICT (league_id, post_key) DO NOTHING"
)
RECLAIM = (
    "UPDATE posts SET status = 'claimed', claimed_at = ? WHERE league_id = ? AND post_key = ?"
    " AND status = 'failed' AND attempts < ?"
)
SENT = (
    "UPDATE posts SET status = 'sent', attempts = attempts + 1, channel_id = ?, message_id = ?,"
    " last_error = NULL WHERE league_id = ? AND post_key = ?"
)
FAILED = (
    "UPDATE posts SET status = 'failed', attempts = attempts + 1, channel_id = ?, last_error = ?"
    " WHERE league_id = ? AND post_key = ?"
)
SKIPPED = (
    "INSERT INTO posts (league_id, post_key, claimed_at, status, last_error)"
    " VALUES (?, ?, ?, 'skipped', ?) ON CONFLICT (league_id, post_key) DO NOTHING"
)
UNREPORTED = (
    "SELECT * FROM posts WHERE league_id = ? AND status = 'failed' AND attempts >= ?"
    " AND last_error NOT LIKE 'reported: %' ORDER BY id"
)
MARK_REPORTED = "UPDATE posts SET last_error = 'reported: ' || last_error WHERE id = ?"


@dataclass(frozen=True)
class PostRecord:
    id: int
    key: str
    status: str  # claimed, sent, failed, skipped
    attempts: int
    channel_id: int | None
    message_id: int | None
    last_error: str | None


def _post(row: aiosqlite.Row) -> PostRecord:
    return PostRecord(
        id=row["id"],
        key=row["post_key"],
        status=row["status"],
        attempts=row["attempts"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        last_error=row["last_error"],
    )


async def post_by_key(conn: aiosqlite.Connection, league_id: int, key: str) -> PostRecord | None:
    return await one(conn, POST_BY_KEY, (league_id, key), _post)


async def claim(
    conn: aiosqlite.Connection, league_id: int, key: str, now: str, max_attempts: int
) -> bool:
    """True when this caller may send the post: a new key, or a failed one with tries left."""
    if await run(conn, CLAIM, (league_id, key, now)) == 1:
        return True
    return await run(conn, RECLAIM, (now, league_id, key, max_attempts)) == 1


async def sent(
    conn: aiosqlite.Connection, league_id: int, key: str, channel_id: int, message_id: int
) -> None:
    await run(conn, SENT, (channel_id, message_id, league_id, key))


async def failed(
    conn: aiosqlite.Connection, league_id: int, key: str, channel_id: int, error: str
) -> None:
    await run(conn, FAILED, (channel_id, error[:500], league_id, key))


async def skipped(conn: aiosqlite.Connection, league_id: int, key: str, now: str, why: str) -> None:
    await run(conn, SKIPPED, (league_id, key, now, why[:500]))


async def unreported_failures(
    conn: aiosqlite.Connection, league_id: int, max_attempts: int
) -> list[PostRecord]:
    return await many(conn, UNREPORTED, (league_id, max_attempts), _post)


async def mark_reported(conn: aiosqlite.Connection, post_id: int) -> None:
    await run(conn, MARK_REPORTED, (post_id,))
