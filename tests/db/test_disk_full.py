"""A full disk as SQLite meets it (SQLITE_FULL) or as the system says it
(ENOSPC): the transaction is rolled back and `DiskFullError` carries the words
users are shown; the commissioner is told once per episode, again after a
write has gone through and the disk is full once more."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from bot.database import Database
from bot.database_errors import DISK_FULL_ALERT, DISK_FULL_MESSAGE, DiskFullError, disk_full


@pytest.fixture
async def db(tmp_path: Path):  # type: ignore[no-untyped-def]
    database = await Database.open(tmp_path / "league.sqlite3")
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE junk (data BLOB)")
    yield database
    await database.close()


async def limit(db: Database, extra_pages: int) -> None:
    async with db.transaction() as conn:
        ((pages,),) = await conn.execute_fetchall("PRAGMA page_count")
        await conn.execute(f"PRAGMA max_page_count = {pages + extra_pages}")


async def too_much(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO junk VALUES (?)", (b"x" * 100_000,))


async def rows(db: Database) -> int:
    async with db.read() as conn:
        ((count,),) = await conn.execute_fetchall("SELECT count(*) FROM junk")
    return int(count)


async def test_a_full_database_file_rolls_back_and_says_so_once_per_episode(db: Database) -> None:
    await limit(db, 0)
    with pytest.raises(DiskFullError) as full:
        await too_much(db)
    assert full.value.user_message == DISK_FULL_MESSAGE
    assert full.value.alert_message == DISK_FULL_ALERT
    assert full.value.claim_alert() is True  # the first tells the commissioner
    with pytest.raises(DiskFullError) as again:
        await too_much(db)
    assert again.value.claim_alert() is False  # the same episode: told already
    assert await rows(db) == 0  # nothing of either was kept

    async with db.transaction() as conn:  # a write that fits: there is room again
        await conn.execute("INSERT INTO junk VALUES (x'00')")
    with pytest.raises(DiskFullError) as later:
        await too_much(db)
    assert later.value.claim_alert() is True  # a new episode: told again
    assert await rows(db) == 1


@pytest.mark.parametrize(
    ("error", "full"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), True),
        (OSError(errno.EACCES, "Permission denied"), False),
        (sqlite3.OperationalError("database is locked"), False),
        (ValueError("not a storage error"), False),
    ],
)
def test_what_counts_as_a_full_disk(error: BaseException, full: bool) -> None:
    assert disk_full(error) is full


async def test_sqlites_own_full_error_counts(db: Database) -> None:
    await limit(db, 0)
    conn = db._conn  # the writer, where the limit is set
    assert conn is not None
    with pytest.raises(sqlite3.OperationalError) as raised:
        await conn.execute("INSERT INTO junk VALUES (?)", (b"x" * 100_000,))
    assert disk_full(raised.value) is True
