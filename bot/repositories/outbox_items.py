"""The outbox: messages owed, in the order they became owed (migrations/0004_outbox.sql)."""

from __future__ import annotations

import aiosqlite

from bot.models import OutboxItem
from bot.outbox_kinds import EDITS, Kind
from bot.repositories._rows import insert, many, one, run, scalar

OWE = "INSERT INTO outbox (guild_id, target, kind, ref, data, created_at) VALUES (?, ?, ?, ?, ?, ?)"
# One waiting edit per message (an approval or match card), one waiting alert per destination:
# a second one is the same work (they are worded when sent).
OWE_COALESCED = (
    "INSERT INTO outbox (guild_id, target, kind, ref, data, created_at) VALUES (?, ?, ?, ?, ?, ?)"
    " ON CONFLICT DO NOTHING"
)
ITEM = "SELECT * FROM outbox WHERE id = ?"
# What may go out now, one item per lane. A destination's posts go out in the
# order owed: a post waits for every earlier unfinished post to its destination.
# A message's edits go out in the order owed, after its post: an edit waits for
# every earlier unfinished edit of the same message and for any unfinished post
# of it (one owed again after a deletion included). Posts never wait for edits,
# nor one message's edits for another's.
EDIT = "(" + ", ".join(f"'{kind.value}'" for kind in EDITS) + ")"  # an SQL list
ALERT = Kind.ALERT.value
UNFINISHED = (
    "e.guild_id = o.guild_id AND e.target = o.target AND e.status IN ('pending', 'sending')"
)
# Every server's outbox at once: lanes are per server (`UNFINISHED` compares them).
HEADS = (
    "SELECT * FROM outbox o WHERE status IN ('pending', 'sending') AND CASE"
    f" WHEN kind IN {EDIT} THEN NOT EXISTS (SELECT 1 FROM outbox e WHERE {UNFINISHED}"
    f" AND e.ref = o.ref AND (e.kind NOT IN {EDIT} OR e.id < o.id))"
    f" ELSE NOT EXISTS (SELECT 1 FROM outbox e WHERE {UNFINISHED} AND e.kind NOT IN {EDIT}"
    " AND e.id < o.id) END ORDER BY id"
)
CLAIM = (
    "UPDATE outbox SET status = 'sending', attempts = attempts + 1"
    " WHERE id = ? AND status = 'pending'"
)
# The try a stop cut off is not counted: the backoff after a 429 or 5xx grows with
# Discord's refusals, not with how often the bot was killed mid-send.
RECOVER = (
    "UPDATE outbox SET status = 'pending', attempts = max(attempts - 1, 0) WHERE status = 'sending'"
)
# A coalesced item (an edit, an alert) cut off mid-send or to be retried, while a
# later one of the same work waits: only one may wait (the unique indexes), and the
# later one is worded when sent, so it does this one's work. This one is dropped.
TWIN = (
    "EXISTS (SELECT 1 FROM outbox t WHERE t.guild_id = outbox.guild_id AND t.status = 'pending'"
    f" AND t.kind = outbox.kind AND t.id != outbox.id AND ((t.kind IN {EDIT}"
    f" AND t.ref = outbox.ref) OR (t.kind = '{ALERT}' AND t.target = outbox.target)))"
)
TWIN_WHY = "a later one of the same waits and does its work"
RECOVER_TWINS = (
    "UPDATE outbox SET status = 'dropped', last_error = ?, sent_at = ?"
    f" WHERE status = 'sending' AND {TWIN}"
)
RETRY_TWIN = (
    f"UPDATE outbox SET status = 'dropped', last_error = ?, sent_at = ? WHERE id = ? AND {TWIN}"
)
PIECE_SENT = "UPDATE outbox SET pieces_sent = ?, message_id = coalesce(message_id, ?) WHERE id = ?"
SENT = (
    "UPDATE outbox SET status = 'sent', sent_at = ?, last_error = NULL,"
    " message_id = coalesce(?, message_id) WHERE id = ?"
)
RETRY = "UPDATE outbox SET status = 'pending', next_attempt_at = ?, last_error = ? WHERE id = ?"
NOTE = "UPDATE outbox SET last_error = ? WHERE id = ?"
FAILED = "UPDATE outbox SET status = 'failed', last_error = ? WHERE id = ?"
DROPPED = "UPDATE outbox SET status = 'dropped', last_error = ?, sent_at = ? WHERE id = ?"
FAILED_ITEMS = "SELECT * FROM outbox WHERE guild_id = ? AND status = 'failed' ORDER BY id"
# A channel that refuses the bot refuses every post waiting for it: they fail
# with the refused one, so the commissioner hears of them in one alert.
FAIL_WAITING = (
    "UPDATE outbox SET status = 'failed', last_error = ? WHERE guild_id = ? AND target = ?"
    f" AND status = 'pending' AND kind != '{ALERT}'"
)
UNTOLD = (
    f"SELECT * FROM outbox WHERE guild_id = ? AND status = 'failed' AND kind != '{ALERT}'"
    " AND told_at IS NULL ORDER BY id"
)
TOLD = "UPDATE outbox SET told_at = ? WHERE id = ? AND status = 'failed'"
# A failed post goes to the back of its destination's queue: it is owed again now.
REQUEUE = (
    "UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = NULL,"
    " pieces_sent = 0, message_id = NULL, told_at = NULL,"
    " id = (SELECT max(id) + 1 FROM outbox) WHERE id = ?"
)
COUNTS = "SELECT status, count(*) FROM outbox WHERE guild_id = ? GROUP BY status"
WAITING = "SELECT * FROM outbox WHERE guild_id = ? AND status IN ('pending', 'sending') ORDER BY id"
LAST_OF = (
    "SELECT * FROM outbox WHERE guild_id = ? AND kind = ? AND ref = ? ORDER BY id DESC LIMIT 1"
)
SCHEMA_VERSION = "PRAGMA user_version"
NIGHT_WEEKS = (
    "SELECT n.id, CASE n.kind WHEN 'playoff' THEN 'playoff night' ELSE 'week ' || n.week END"
    " FROM nights n JOIN seasons s ON s.id = n.season_id"
    " JOIN leagues l ON l.id = s.league_id WHERE l.guild_id = ?"
)
DUE_COUNT = (
    "SELECT count(*) FROM outbox WHERE (status = 'sending' OR"
    " (status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= ?)))"
)


def _item(row: aiosqlite.Row) -> OutboxItem:
    return OutboxItem(
        id=row["id"],
        guild_id=row["guild_id"],
        target=row["target"],
        kind=row["kind"],
        ref=row["ref"],
        data=row["data"],
        nonce=row["nonce"],
        status=row["status"],
        attempts=row["attempts"],
        next_attempt_at=row["next_attempt_at"],
        pieces_sent=row["pieces_sent"],
        message_id=row["message_id"],
        last_error=row["last_error"],
        created_at=row["created_at"],
        sent_at=row["sent_at"],
    )


async def owe(
    conn: aiosqlite.Connection,
    guild_id: int,
    target: str,
    kind: str,
    ref: str,
    data: str | None,
    now: str,
    *,
    coalesce: bool = False,
) -> int:
    """The new item's id; 0 when `coalesce` and the same item is already waiting."""
    sql = OWE_COALESCED if coalesce else OWE
    before = conn.total_changes
    new_id = await insert(conn, sql, (guild_id, target, kind, ref, data, now))
    return new_id if conn.total_changes > before else 0


async def item(conn: aiosqlite.Connection, item_id: int) -> OutboxItem | None:
    return await one(conn, ITEM, (item_id,), _item)


async def heads(conn: aiosqlite.Connection) -> list[OutboxItem]:
    """Every server's first unfinished item of each lane."""
    return await many(conn, HEADS, (), _item)


async def claim(conn: aiosqlite.Connection, item_id: int) -> bool:
    return await run(conn, CLAIM, (item_id,)) == 1


async def recover(conn: aiosqlite.Connection, now: str) -> int:
    """Items left 'sending' (any server's) wait again; one with a later twin
    waiting is dropped."""
    dropped = await run(conn, RECOVER_TWINS, (TWIN_WHY, now))
    return dropped + await run(conn, RECOVER)


async def piece_sent(
    conn: aiosqlite.Connection, item_id: int, pieces: int, message_id: int
) -> None:
    await run(conn, PIECE_SENT, (pieces, message_id, item_id))


async def sent(conn: aiosqlite.Connection, item_id: int, message_id: int | None, now: str) -> None:
    await run(conn, SENT, (now, message_id, item_id))


async def retry_at(
    conn: aiosqlite.Connection, item_id: int, when: str, error: str, now: str
) -> None:
    """The item waits until `when`, or is dropped if a later twin already waits."""
    if not await run(conn, RETRY_TWIN, (TWIN_WHY, now, item_id)):
        await run(conn, RETRY, (when, error[:500], item_id))


async def note(conn: aiosqlite.Connection, item_id: int, text: str) -> None:
    await run(conn, NOTE, (text[:500], item_id))


async def failed(conn: aiosqlite.Connection, item_id: int, error: str) -> None:
    await run(conn, FAILED, (error[:500], item_id))


async def dropped(conn: aiosqlite.Connection, item_id: int, why: str, now: str) -> None:
    await run(conn, DROPPED, (why[:500], now, item_id))


async def failed_items(conn: aiosqlite.Connection, guild_id: int) -> list[OutboxItem]:
    return await many(conn, FAILED_ITEMS, (guild_id,), _item)


async def fail_waiting(conn: aiosqlite.Connection, guild_id: int, target: str, error: str) -> None:
    await run(conn, FAIL_WAITING, (error[:500], guild_id, target))


async def untold(conn: aiosqlite.Connection, guild_id: int) -> list[OutboxItem]:
    return await many(conn, UNTOLD, (guild_id,), _item)


async def told(conn: aiosqlite.Connection, item_id: int, now: str) -> None:
    await run(conn, TOLD, (now, item_id))


async def requeue(conn: aiosqlite.Connection, item_id: int) -> None:
    await run(conn, REQUEUE, (item_id,))


async def counts(conn: aiosqlite.Connection, guild_id: int) -> dict[str, int]:
    rows = await conn.execute_fetchall(COUNTS, (guild_id,))
    return {row[0]: row[1] for row in rows}


async def waiting(conn: aiosqlite.Connection, guild_id: int) -> list[OutboxItem]:
    return await many(conn, WAITING, (guild_id,), _item)


async def last_of(
    conn: aiosqlite.Connection, guild_id: int, kind: str, ref: str
) -> OutboxItem | None:
    return await one(conn, LAST_OF, (guild_id, kind, ref), _item)


async def due_count(conn: aiosqlite.Connection, now: str) -> int:
    """How many items of any server could be sent at `now`."""
    return int(await scalar(conn, DUE_COUNT, (now,)) or 0)


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The database's schema version (the last migration applied, bot/migrate.py)."""
    return int(await scalar(conn, SCHEMA_VERSION) or 0)


async def night_weeks(conn: aiosqlite.Connection, guild_id: int) -> dict[int, str]:
    """Each night in words ('week 5', 'playoff night'), by night id (an item's
    ref names a night by its id)."""
    return {row[0]: row[1] for row in await conn.execute_fetchall(NIGHT_WEEKS, (guild_id,))}
