"""`Database.backup` at its edges: the copy is made as a hidden temporary file
beside the backup (the last step is a rename on the same disk); a backup that
fails, on a full disk or at the rename, raises its own error, leaves nothing
in the backup folder, and a full disk tells the commissioner once."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.database import Database
from bot.database_errors import DISK_FULL_MESSAGE, DatabaseFileError, DiskFullError


def names_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "league.sqlite3")
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE junk (data BLOB)")
        await conn.executemany("INSERT INTO junk VALUES (?)", [(b"x" * 10_000,)] * 30)
    yield database
    await database.close()


@pytest.fixture
def backups(tmp_path: Path) -> Path:
    folder = tmp_path / "backups"
    folder.mkdir()
    return folder


async def test_a_backup_in_progress_is_a_hidden_temporary_file_beside_it(
    db: Database, backups: Path
) -> None:
    """Caught while it waits for a transaction to end: the only file in the
    folder is `.<name>.<random>.tmp`, never a file under the backup's name."""
    holding, release = asyncio.Event(), asyncio.Event()

    async def a_long_transaction() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO junk VALUES (x'00')")
            holding.set()
            await release.wait()

    writer = asyncio.create_task(a_long_transaction())
    await holding.wait()
    backup = asyncio.create_task(db.backup(backups / "league-1.sqlite3"))
    try:
        for _ in range(500):  # made before the backup waits for the transaction
            if names_in(backups):
                break
            await asyncio.sleep(0.01)
        assert [
            bool(re.fullmatch(r"\.league-1\.sqlite3\.[a-z0-9_]+\.tmp", name))
            for name in names_in(backups)
        ] == [True]
    finally:
        release.set()
        await writer
    assert await backup == backups / "league-1.sqlite3"
    assert names_in(backups) == ["league-1.sqlite3"]


async def test_a_backup_that_cannot_be_put_in_place_leaves_nothing_behind(
    db: Database, backups: Path
) -> None:
    in_the_way = backups / "league-1.sqlite3"
    in_the_way.mkdir()  # the rename at the end fails
    with pytest.raises(IsADirectoryError):
        await db.backup(in_the_way)
    assert names_in(backups) == ["league-1.sqlite3"]
    assert names_in(in_the_way) == []


@pytest.fixture
def small_disk(backups: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A backup folder whose disk has room for one page: the copy's connection
    may not grow past it, and SQLite says SQLITE_FULL as it does on a full disk."""
    connect = aiosqlite.connect

    async def with_one_page(*args: Any, **kwargs: Any) -> aiosqlite.Connection:
        conn = await connect(*args, **kwargs)
        async with conn.execute("PRAGMA max_page_count = 1"):
            return conn

    monkeypatch.setattr(aiosqlite, "connect", with_one_page)
    return backups


async def test_a_backup_onto_a_full_disk_says_so_once_and_leaves_nothing(
    db: Database, small_disk: Path
) -> None:
    with pytest.raises(DiskFullError) as full:
        await db.backup(small_disk / "league-1.sqlite3")
    assert full.value.user_message == DISK_FULL_MESSAGE
    assert full.value.claim_alert() is True  # the commissioner is told
    assert names_in(small_disk) == []
    with pytest.raises(DiskFullError) as again:
        await db.backup(small_disk / "league-2.sqlite3")
    assert again.value.claim_alert() is False  # once
    async with db.read() as conn:  # the league itself is untouched
        ((count,),) = await conn.execute_fetchall("SELECT count(*) FROM junk")
    assert count == 30


async def test_a_backup_into_a_folder_that_does_not_exist_names_both(
    db: Database, tmp_path: Path
) -> None:
    target = tmp_path / "nowhere" / "league-1.sqlite3"
    with pytest.raises(DatabaseFileError) as refused:
        await db.backup(target)
    assert str(refused.value) == (
        f"cannot write backup {target}: {target.parent} is not a directory"
    )
    assert not target.parent.exists()


async def test_a_backup_into_a_folder_no_file_can_be_made_in_says_why(db: Database) -> None:
    target = Path("/proc/league-1.sqlite3")  # not even root makes files there
    with pytest.raises(
        DatabaseFileError, match=r"^cannot write backup /proc/league-1\.sqlite3: "
    ) as refused:
        await db.backup(target)
    assert str(refused.value).split(": ", 1)[1] in {
        "No such file or directory",
        "Permission denied",
    }
