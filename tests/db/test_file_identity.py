"""The database file deleted, replaced or overwritten under a running bot:
the write is refused before it is acknowledged, and every write after it."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.database import Database
from bot.database_errors import DatabaseMovedError
from bot.migrate import migrate
from tests.db.test_database import ROWS, write_migrations


def gone(path: str | os.PathLike[str]) -> bool:
    return not os.path.exists(path)


@pytest.fixture
async def db(tmp_path: Path):
    path = tmp_path / "league.db"
    await migrate(path, write_migrations(tmp_path / "migrations", {"0001_rows.sql": ROWS}))
    database = await Database.open(path)
    async with database.transaction() as conn:
        await conn.execute("INSERT INTO row (n) VALUES (1)")
    yield database
    await database.close()


async def insert(db: Database, n: int) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO row (n) VALUES (?)", (n,))


def rows_on_disk(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        found = [r[0] for r in conn.execute("SELECT n FROM row ORDER BY n")]
    conn.close()
    return found


async def copy_of(db: Database, tmp_path: Path) -> Path:
    """A backup of the league as it is now (what a backup restored by hand would be)."""
    return await db.backup(tmp_path / "copy.db")


async def test_a_deleted_file_refuses_the_write_and_every_write_after_it(db, caplog):
    os.remove(db.path)
    with caplog.at_level(logging.ERROR, logger="bot.database"):
        with pytest.raises(DatabaseMovedError) as refused:
            await insert(db, 2)
        with pytest.raises(DatabaseMovedError, match="was deleted"):
            await insert(db, 3)
    assert "was deleted" in str(refused.value)
    assert "moved or replaced" in refused.value.user_message
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "league-bot restore" in errors[0].getMessage()
    assert gone(db.path)  # nothing wrote a new, empty league there


async def test_a_file_replaced_by_a_copy_refuses_the_write(db, tmp_path):
    copy = await copy_of(db, tmp_path)
    os.replace(copy, db.path)  # `mv backup.db league.db`
    with pytest.raises(DatabaseMovedError, match="replaced"):
        await insert(db, 2)
    assert rows_on_disk(Path(db.path)) == [1]


async def test_a_file_overwritten_in_place_refuses_the_write(db, tmp_path):
    copy = await copy_of(db, tmp_path)
    await insert(db, 2)  # the live file moves on; the copy is older
    shutil.copyfile(copy, db.path)  # `cp backup.db league.db`: same inode, new content
    with pytest.raises(DatabaseMovedError, match="overwritten"):
        await insert(db, 3)


async def test_the_file_vanishing_inside_a_transaction_rolls_it_back(db):
    with pytest.raises(DatabaseMovedError, match="was deleted"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO row (n) VALUES (2)")
            os.remove(db.path)
    # reads stop too: they no longer show the league
    with pytest.raises(DatabaseMovedError, match="was deleted"):
        async with db.read() as conn:
            await conn.execute_fetchall("SELECT n FROM row")


async def test_the_bots_own_writes_and_checkpoints_are_not_a_replacement(db):
    for n in range(2, 400):  # many commits: SQLite checkpoints the WAL into the file
        await insert(db, n)
    async with db.read() as conn:
        assert len(await conn.execute_fetchall("SELECT n FROM row")) == 399


async def test_the_alert_is_claimed_once(db):
    os.remove(db.path)
    claims = []
    for n in (2, 3):
        with pytest.raises(DatabaseMovedError) as refused:
            await insert(db, n)
        claims.append(refused.value.claim_alert())
    assert claims == [True, False]
