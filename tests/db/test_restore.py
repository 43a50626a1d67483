"""`league-bot restore BACKUP --database FILE`: a backup put back safely."""

from __future__ import annotations

import contextlib
import io
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.database import Database
from bot.migrate import load_migrations, migrate
from bot.restore import RECORD_SINCE
from bot.services import machine_list, setup

ROOT = Path(__file__).resolve().parents[2]
LATEST = load_migrations()[-1].version


def machines(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM machines ORDER BY id")]
    conn.close()
    return names


async def league_file(path: Path, *names: str) -> None:
    """A migrated league database holding machines `names`, made by the services."""
    await migrate(path)
    db = await Database.open(path)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        await setup.create_league(db, 1, "League", now=now)
        for name in names:
            await machine_list.add_machine(db, 1, name, now=now)
    finally:
        await db.close()


@pytest.fixture
async def files(tmp_path: Path) -> tuple[Path, Path]:
    live, backup = tmp_path / "league.sqlite3", tmp_path / "backup.sqlite3"
    await league_file(backup, "Attack from Mars")
    await league_file(live, "Attack from Mars", "Medieval Madness")
    return live, backup


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """`league-bot restore …` as its own process, as an operator runs it."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "restore", *args], capture_output=True, text=True,
        cwd=ROOT, check=False, timeout=60,
    )  # fmt: skip


def restore_here(*args: str) -> subprocess.CompletedProcess[str]:
    """The same command run in this process (so what it runs is seen by coverage)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["restore", *args])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_restore_puts_the_backup_back_and_keeps_the_old_file(files) -> None:
    live, backup = files
    done = run(str(backup), "--database", str(live))
    assert done.returncode == 0, done.stderr
    assert machines(live) == ["Attack from Mars"]
    (kept,) = live.parent.glob("league.sqlite3.before-restore-*")
    assert machines(kept) == ["Attack from Mars", "Medieval Madness"]
    assert str(kept) in done.stdout and "Start the bot again" in done.stdout


async def test_restore_is_refused_while_the_bot_holds_the_database(files, capsys) -> None:
    live, backup = files
    db = await Database.open(live)
    try:
        assert main(["restore", str(backup), "--database", str(live)]) == 1
    finally:
        await db.close()
    assert capsys.readouterr().err == (
        f"league-bot: the bot is running on {live}; stop it first, then restore\n"
    )
    assert machines(live) == ["Attack from Mars", "Medieval Madness"]
    assert not list(live.parent.glob("*.before-restore-*"))


def refuse(live: Path, backup: Path, capsys: pytest.CaptureFixture[str]) -> str:
    before = live.read_bytes()
    assert main(["restore", str(backup), "--database", str(live)]) == 1
    err = capsys.readouterr().err
    assert live.read_bytes() == before and not list(live.parent.glob("*.before-restore-*"))
    assert err.startswith("league-bot: ") and len(err.strip().splitlines()) == 1
    return err


def test_a_corrupt_backup_is_refused(files, capsys) -> None:
    live, backup = files
    data = bytearray(backup.read_bytes())
    data[4096 + 8 : 4096 + 200] = b"\xff" * 192  # garbage in page 2's cells
    backup.write_bytes(bytes(data))
    assert "failed its integrity check" in refuse(live, backup, capsys)


def test_a_backup_newer_than_the_bot_is_refused(files, capsys) -> None:
    live, backup = files
    with sqlite3.connect(backup) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    assert refuse(live, backup, capsys) == (
        f"league-bot: {backup} has schema version {LATEST + 1}, newer than this bot "
        f"({LATEST}); upgrade the bot first\n"
    )


@pytest.mark.parametrize(
    ("what", "says"),
    [
        ("missing", "is not a backup: no such file, or it is empty"),
        ("empty", "is not a backup: no such file, or it is empty"),
        ("not sqlite", "is not a SQLite database"),
        ("not a league", "is not a league database (schema version 0)"),
        ("itself", "is the database itself; name a backup"),
    ],
)
def test_other_backups_are_refused(files, capsys, what: str, says: str) -> None:
    live, backup = files
    if what == "missing":
        backup.unlink()
    elif what == "empty":
        backup.write_bytes(b"")
    elif what == "not sqlite":
        backup.write_text("a shopping list\n" * 100)
    elif what == "not a league":
        backup.unlink()
        sqlite3.connect(backup).execute("CREATE TABLE t (x)").connection.close()
    else:
        backup = live
    assert says in refuse(live, backup, capsys)


# --- only a league's backup, and the right league's ---------------------------------------


def restored(live: Path, backup: Path, *extra: str) -> str:
    done = restore_here(str(backup), "--database", str(live), *extra)
    assert done.returncode == 0, done.stderr
    return done.stdout


async def test_restore_names_the_backups_league_and_server(files) -> None:
    live, backup = files
    out = restored(live, backup)
    assert f"League (Discord server 1), schema version {LATEST}" in out


def test_another_programs_database_with_a_schema_version_is_refused(files, capsys) -> None:
    live, backup = files
    backup.unlink()
    conn = sqlite3.connect(backup)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("CREATE TABLE leagues (name TEXT, guild_id INTEGER)")
    conn.execute("INSERT INTO leagues VALUES ('Bowling', 9)")
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    err = refuse(live, backup, capsys)
    assert "is not a league database: its tables are not the ones this bot makes" in err


@pytest.mark.parametrize("change", ["a file missing", "another file", "no record"])
def test_a_backup_without_this_bots_record_of_migrations_is_refused(
    files, capsys, change: str
) -> None:
    live, backup = files
    conn = sqlite3.connect(backup)
    if change == "a file missing":
        conn.execute("DELETE FROM schema_migrations WHERE version = 4")
    elif change == "another file":
        conn.execute("UPDATE schema_migrations SET name = '0004_theirs.sql' WHERE version = 4")
    else:
        conn.execute("DELETE FROM schema_migrations")
    conn.commit()
    conn.close()
    assert refuse(live, backup, capsys) == (
        f"league-bot: {backup} was not made by this bot's migrations (its record of "
        "migration files differs)\n"
    )


def test_a_backup_with_no_league_is_refused(files, capsys) -> None:
    live, backup = files
    conn = sqlite3.connect(backup)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("DELETE FROM machines")
    conn.execute("DELETE FROM leagues")
    conn.commit()
    conn.close()
    assert "holds no league; there is nothing to restore" in refuse(live, backup, capsys)


async def test_another_servers_backup_is_refused_unless_told(files, capsys) -> None:
    live, backup = files
    backup.unlink()
    await migrate(backup)
    db = await Database.open(backup)
    try:
        await setup.create_league(db, 2, "Other League", now=datetime(2026, 1, 1, tzinfo=UTC))
    finally:
        await db.close()
    err = refuse(live, backup, capsys)
    assert "is the league Other League (Discord server 2), not this database's League " in err
    assert "(Discord server 1); add --other-server to put it back anyway" in err
    out = restored(live, backup, "--other-server")
    assert "Other League (Discord server 2)" in out
    assert machines(live) == []


async def test_an_older_league_backup_is_restored_for_the_bot_to_upgrade(files) -> None:
    live, backup = files
    backup.unlink()
    await migrate(backup, up_to=5)
    conn = sqlite3.connect(backup)
    conn.execute("INSERT INTO leagues (guild_id, name, created_at) VALUES (1, 'League', 'x')")
    conn.commit()
    conn.close()
    assert "schema version 5" in restored(live, backup)
    assert await migrate(live) == LATEST


async def test_each_migration_file_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "league.sqlite3"
    await migrate(path, up_to=RECORD_SINCE - 1)
    await migrate(path)
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT version, name, applied_at FROM schema_migrations").fetchall()
    conn.close()
    assert [(v, n) for v, n, _ in rows] == [(m.version, m.name) for m in load_migrations()]
    assert [t is None for _, _, t in rows] == [m.version < RECORD_SINCE for m in load_migrations()]


@pytest.mark.parametrize("change", ["a column more", "a column less", "an index less"])
def test_a_backup_whose_tables_differ_from_the_bots_is_refused(files, capsys, change: str) -> None:
    live, backup = files
    conn = sqlite3.connect(backup)
    if change == "a column more":
        conn.execute("ALTER TABLE machines ADD COLUMN colour TEXT")
    elif change == "a column less":
        conn.execute("ALTER TABLE players DROP COLUMN ifpa_number")
    else:
        (name,) = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name LIMIT 1"
        ).fetchone()
        conn.execute(f"DROP INDEX {name}")
    conn.commit()
    conn.close()
    assert "its tables are not the ones this bot makes" in refuse(live, backup, capsys)


async def test_a_backup_of_the_first_schema_version_is_restored(files) -> None:
    live, backup = files
    backup.unlink()
    await migrate(backup, up_to=1)
    conn = sqlite3.connect(backup)
    conn.execute("INSERT INTO leagues (guild_id, name, created_at) VALUES (1, 'League', 'x')")
    conn.commit()
    conn.close()
    assert "schema version 1" in restored(live, backup)


async def test_the_record_is_checked_from_the_version_that_began_it(files, capsys) -> None:
    live, backup = files
    backup.unlink()
    await migrate(backup, up_to=RECORD_SINCE)
    conn = sqlite3.connect(backup)
    conn.execute("INSERT INTO leagues (guild_id, name, created_at) VALUES (1, 'League', 'x')")
    conn.execute("DELETE FROM schema_migrations WHERE version = 3")
    conn.commit()
    conn.close()
    assert "was not made by this bot's migrations" in refuse(live, backup, capsys)


@pytest.mark.parametrize("database", ["missing", "no league yet"])
async def test_a_backup_goes_onto_a_database_without_a_league(
    files, tmp_path: Path, database: str
) -> None:
    """A new machine (no file yet), or a bot started once before its league was
    set up: there is no server to compare, the backup's league comes back."""
    _, backup = files
    live = tmp_path / "new" / "league.sqlite3"
    live.parent.mkdir()
    if database == "no league yet":
        await migrate(live)
    out = restored(live, backup)
    assert "League (Discord server 1)" in out
    assert machines(live) == ["Attack from Mars"]
    kept = list(live.parent.glob("league.sqlite3.before-restore-*"))
    assert len(kept) == (1 if database == "no league yet" else 0)
    assert ("previous file is kept as" in out) == (database == "no league yet")
