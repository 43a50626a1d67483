"""`league-bot restore` at its edges: the backup itself is never written to,
whatever file is at the database's path is kept (named for the time in UTC),
a second restore in the same second is refused, and every refusal names what
is wrong with the backup or the database in one line."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.database import Database
from bot.database_errors import DatabaseError
from bot.database_files import SQLITE_HEADER
from bot.migrate import load_migrations
from bot.restore import restore
from bot.services import setup
from tests.db.test_restore import league_file, machines, refuse, restored

LATEST = load_migrations()[-1].version
AT = datetime(2026, 3, 11, 23, 0, 0, tzinfo=UTC)


@pytest.fixture
async def files(tmp_path: Path) -> tuple[Path, Path]:
    live, backup = tmp_path / "league.sqlite3", tmp_path / "backup.sqlite3"
    await league_file(backup, "Attack from Mars")
    await league_file(live, "Attack from Mars", "Medieval Madness")
    return live, backup


def contents(*paths: Path) -> list[bytes]:
    return [path.read_bytes() for path in paths]


def kept_files(live: Path) -> list[str]:
    return sorted(p.name for p in live.parent.glob(f"{live.name}.before-restore-*"))


# --- the backup is only read ------------------------------------------------------------


async def test_a_backup_with_its_write_ahead_log_is_read_and_left_untouched(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    """A copy of a database taken with its `-wal` file beside it (as `cp
    league.sqlite3* backups/` takes one): the restore sees what the log holds
    and writes to neither file."""
    live, _ = files
    source = tmp_path / "source.sqlite3"
    await league_file(source, "Attack from Mars")
    writer = sqlite3.connect(source, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")  # the change stays in the log
    writer.execute("UPDATE machines SET name = 'Twilight Zone'")
    backup = tmp_path / "copied.sqlite3"
    shutil.copyfile(source, backup)
    shutil.copyfile(f"{source}-wal", f"{backup}-wal")
    writer.close()
    log = backup.with_name(f"{backup.name}-wal")
    before = contents(backup, log)

    restore(backup, live, now=AT, other_server=False)

    assert machines(live) == ["Twilight Zone"]
    assert contents(backup, log) == before


# --- the file that was there --------------------------------------------------------------


async def test_a_database_file_with_only_its_first_page_is_kept_too(
    files: tuple[Path, Path],
) -> None:
    """A bot started once whose first migration failed leaves a file of one
    page: it is kept like any other before the backup goes over it."""
    live, backup = files
    live.unlink()
    sqlite3.connect(live).execute("PRAGMA journal_mode = WAL").connection.close()
    assert live.stat().st_size == 4096
    out = restored(live, backup)
    (kept,) = kept_files(live)
    assert f"; the previous file is kept as {live.parent / kept}." in out
    assert machines(live) == ["Attack from Mars"]


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The machine's local time is Tokyo's (UTC+9)."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        yield
    finally:
        monkeypatch.undo()
        time.tzset()


@pytest.mark.usefixtures("tokyo")
async def test_the_kept_file_is_named_for_the_time_in_utc(files: tuple[Path, Path]) -> None:
    live, backup = files
    done = restore(backup, live, now=AT, other_server=False)
    assert done.kept == live.with_name("league.sqlite3.before-restore-20260311-230000")
    assert kept_files(live) == ["league.sqlite3.before-restore-20260311-230000"]


async def test_a_second_restore_in_the_same_second_is_refused(files: tuple[Path, Path]) -> None:
    live, backup = files
    restore(backup, live, now=AT, other_server=False)
    first = live.read_bytes()
    with pytest.raises(DatabaseError) as refused:
        restore(backup, live, now=AT, other_server=False)
    kept = live.with_name("league.sqlite3.before-restore-20260311-230000")
    assert str(refused.value) == f"{kept} already exists; wait a second and try again"
    assert live.read_bytes() == first
    assert machines(kept) == ["Attack from Mars", "Medieval Madness"]  # the first one's


async def test_a_damaged_database_file_is_left_as_it_is(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    live, backup = files
    live.write_bytes(SQLITE_HEADER + b"\xab" * 5000)
    assert refuse(live, backup, capsys) == (
        f"league-bot: could not restore {backup} onto {live}: file is not a database\n"
    )


async def test_a_database_file_made_by_the_restore_is_not_executable(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    _, backup = files
    live = tmp_path / "new" / "league.sqlite3"
    live.parent.mkdir()
    before = os.umask(0o022)
    try:
        restore(backup, live, now=AT, other_server=False)
    finally:
        os.umask(before)
    assert stat.filemode(live.stat().st_mode) == "-rw-r--r--"


# --- what the backup holds --------------------------------------------------------------


async def test_a_backup_of_two_leagues_names_both(files: tuple[Path, Path]) -> None:
    live, backup = files
    db = await Database.open(backup)
    try:
        await setup.create_league(db, 2, "Other League", now=AT)
    finally:
        await db.close()
    assert restored(live, backup).startswith(
        f"Restored {live} from {backup}: League (Discord server 1) and Other League "
        f"(Discord server 2), schema version {LATEST}; "
    )


async def test_a_backup_sqlite_cannot_read_at_all_is_refused(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    live, backup = files
    backup.write_bytes(SQLITE_HEADER + b"\xab" * 5000)
    assert refuse(live, backup, capsys) == (
        f"league-bot: {backup} failed its integrity check: file is not a database\n"
    )


async def test_a_damaged_backup_is_refused_with_sqlites_first_three_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live, backup = tmp_path / "league.sqlite3", tmp_path / "backup.sqlite3"
    await league_file(live)
    names = [f"Machine {letter}" for letter in "ABCDE"]
    await league_file(backup, *names)
    conn = sqlite3.connect(backup)
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'machines'").fetchone()
    conn.close()
    data = bytearray(backup.read_bytes())
    page = slice(4096 * (root - 1), 4096 * root)
    data[page] = data[page].replace(b"Machine ", b"Machinf ")  # the table, not its index
    backup.write_bytes(bytes(data))
    missing = [f"row {n} missing from index machine_name_per_league" for n in range(1, 6)]
    assert refuse(live, backup, capsys) == (
        f"league-bot: {backup} failed its integrity check: {' '.join(missing[:3])}\n"
    )


async def test_a_backup_whose_index_covers_other_columns_is_refused(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    live, backup = files
    conn = sqlite3.connect(backup)
    conn.execute("DROP INDEX machine_name_per_league")
    conn.execute("CREATE UNIQUE INDEX machine_name_per_league ON machines (league_id, id)")
    conn.commit()
    conn.close()
    assert "its tables are not the ones this bot makes" in refuse(live, backup, capsys)


async def test_another_programs_file_that_sqlite_cannot_describe_is_refused(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    live, backup = files
    backup.unlink()
    conn = sqlite3.connect(backup)
    conn.execute('CREATE TABLE "it\'s" (x)')
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    assert refuse(live, backup, capsys).startswith(
        f"league-bot: {backup} cannot be read as a SQLite database: "
    )
