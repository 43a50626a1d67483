"""Claims on scheduled posts: each key is owed to the outbox at most once.
Whether it was delivered is the outbox's record (`outbox` table, ref = key)."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.repositories._rows import one, run

POST_BY_KEY = "SELECT * FROM posts WHERE league_id = ? AND post_key = ?"
CLAIM = (
    "INSERT INTO posts (league_id, post_key, claimed_at) VALUES (?, ?, ?)"
    " ON CONFLICT (league_id, post_key) DO NOTHING"
)
RECLAIM = (
    "UPDATE posts SET status = 'claimed', claimed_at = ? WHERE league_id = ? AND post_key = ?"
    " AND status = 'failed' AND attempts < ?"
)
SKIPPED = (
    "INSERT INTO posts (league_id, post_key, claimed_at, status, last_error)"
    " VALUES (?, ?, ?, 'skipped', ?) ON CONFLICT (league_id, post_key) DO NOTHING"
)


@dataclass(frozen=True)
class PostRecord:
    id: int
    key: str
    status: str  # claimed or skipped ('sent', 'failed': rows from before the outbox)
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
    """True when this caller may owe the post: a new key, or one whose sending
    failed (before posts went through the outbox) with tries left."""
    if await run(conn, CLAIM, (league_id, key, now)) == 1:
        return True
    return await run(conn, RECLAIM, (now, league_id, key, max_attempts)) == 1


async def skipped(conn: aiosqlite.Connection, league_id: int, key: str, now: str, why: str) -> None:
    await run(conn, SKIPPED, (league_id, key, now, why[:500]))
