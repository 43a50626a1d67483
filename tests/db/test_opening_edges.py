"""Opening the league's database at its edges: a file or folder the bot may not
use is refused in one line that says why; an open that fails half-way (a
damaged file, the process out of file descriptors) lets go of everything it
took, so `league-bot restore` is not refused afterwards; the quick one-statement
read takes parameters and gives rows by column name; and a full disk at the
very first write is told to the commissioner."""

from __future__ import annotations

import errno
import fcntl
import os
import resource
import sqlite3
from pathlib import Path

import pytest

from bot.database import Database
from bot.database_errors import DatabaseError, DatabaseFileError, DiskFullError
from bot.database_files import SQLITE_HEADER


def a_database(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE junk (data BLOB)")
    conn.execute("INSERT INTO junk VALUES (x'00')")
    conn.commit()
    conn.close()
    return path


def restore_could_take(path: Path) -> bool:
    """Whether `league-bot restore` could take the file now (no bot holds it)."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


async def refusal(path: Path) -> DatabaseError:
    with pytest.raises(DatabaseError) as refused:
        db = await Database.open(path)
        await db.close()
    return refused.value


# --- what the path leads to -------------------------------------------------------------


async def test_a_folder_the_bot_cannot_write_in_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chmod means nothing to root (these tests may run as root): the folder is
    # made to answer as a read-only one does, searchable but not writable.
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access

    def read_only_folder(path, mode):  # type: ignore[no-untyped-def]
        return not (Path(path) == locked and mode & os.W_OK) and real_access(path, mode)

    monkeypatch.setattr(os, "access", read_only_folder)
    assert str(await refusal(locked / "league.db")) == (
        f"cannot use database {locked / 'league.db'}: directory {locked} is not writable "
        "(SQLite keeps its -wal and -shm files there)"
    )
    assert list(locked.iterdir()) == []


async def test_a_database_file_the_bot_cannot_write_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = a_database(tmp_path / "league.db")
    real_access = os.access
    monkeypatch.setattr(
        os,
        "access",
        lambda p, mode: not (Path(p) == path and mode & os.W_OK) and real_access(p, mode),
    )
    assert str(await refusal(path)) == f"database {path} is not writable"


async def test_a_database_file_the_bot_cannot_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = a_database(tmp_path / "league.db")
    real_open = Path.open

    def no_read_access(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", no_read_access)
    assert str(await refusal(path)) == f"cannot read database {path}: Permission denied"


async def test_a_damaged_file_is_refused_and_let_go_of(tmp_path: Path) -> None:
    """SQLite's header, then garbage: the header check passes, SQLite does not."""
    damaged = tmp_path / "league.db"
    damaged.write_bytes(SQLITE_HEADER + b"\xab" * 5000)
    refused = await refusal(damaged)
    assert isinstance(refused, DatabaseFileError)
    assert str(refused) == f"cannot open database {damaged}: file is not a database"
    assert restore_could_take(damaged)
    assert damaged.read_bytes() == SQLITE_HEADER + b"\xab" * 5000


def lowest_free_descriptor() -> int:
    fd = os.open(os.devnull, os.O_RDONLY)
    os.close(fd)
    return fd


async def test_an_open_that_runs_out_of_file_descriptors_lets_go_of_everything(
    tmp_path: Path,
) -> None:
    """The process may open one more file, then two more, and so on: each
    attempt fails at a later step of the open (the file's lock, the writer, the
    reader, the quick reader) until one succeeds. No failed attempt leaves the
    file held, and each of SQLite's refusals is one line naming the file."""
    path = a_database(tmp_path / "league.db")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    failures: list[str] = []
    for more in range(1, 40):
        limit = lowest_free_descriptor() + more
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
        try:
            db = await Database.open(path)
        except (DatabaseError, OSError) as error:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            failures.append(str(error) if isinstance(error, DatabaseError) else "OSError")
            assert restore_could_take(path), error
            continue
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        async with db.read(snapshot=False) as conn:
            assert len(await conn.execute_fetchall("SELECT data FROM junk")) == 1
        await db.close()
        break
    else:
        raise AssertionError("the database never opened")
    opening = f"cannot open database {path}: unable to open database file"
    assert set(failures) <= {opening, "OSError"}, failures
    assert failures.count(opening) >= 4, failures  # the writer, the reader, the quick reader


# --- reads and writes -------------------------------------------------------------------


async def test_a_quick_read_takes_parameters_and_gives_rows_by_column_name(
    tmp_path: Path,
) -> None:
    db = await Database.open(a_database(tmp_path / "league.db"))
    try:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE machines (name TEXT)")
            await conn.executemany(
                "INSERT INTO machines VALUES (?)", [("Attack from Mars",), ("Medieval Madness",)]
            )
        async with db.read(snapshot=False) as conn:
            rows = await conn.execute_fetchall(
                "SELECT name FROM machines WHERE name LIKE ?", ("Medieval%",)
            )
        assert [row["name"] for row in rows] == ["Medieval Madness"]
    finally:
        await db.close()


async def test_a_full_disk_at_the_first_write_after_opening_is_told(tmp_path: Path) -> None:
    db = await Database.open(a_database(tmp_path / "league.db"))
    try:
        writer = db._conn  # the writer: SQLite's page limit is its own
        assert writer is not None
        ((pages,),) = await writer.execute_fetchall("PRAGMA page_count")
        await writer.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(DiskFullError) as full:
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO junk VALUES (?)", (b"x" * 100_000,))
        assert full.value.claim_alert() is True
    finally:
        await db.close()
