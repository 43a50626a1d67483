"""Keeping the bot running (docs/operating.md): the version, the invite link
with every permission, settings files named and read from their own folder,
backups (on the command line, daily with a retention, before each upgrade),
the loud warning before an empty league file is made beside backups, the
container's health check, and a restore refused from the moment a bot starts."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.client import LeagueBot
from bot.components.places import NEEDED
from bot.config import load_settings
from bot.database import Database
from bot.database_errors import DatabaseError
from bot.database_files import OneBot
from bot.keeping import (
    backup_file,
    copy_before_migrating,
    empty_beside_backups,
    health,
    invite_url,
    prune,
    schema_of,
)
from bot.migrate import load_migrations, migrate
from bot.restore import restore
from bot.services import setup

NOW = datetime(2026, 3, 11, 23, 0, tzinfo=UTC)
TOKEN = "x" * 59


def test_the_version_is_the_installed_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == "league-bot 0.2.0"


def test_the_invite_asks_for_every_permission_the_bot_checks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["invite", "--application-id", "123456789012345678"]) == 0
    link = capsys.readouterr().out.strip()
    assert link == invite_url(123456789012345678)
    asked = int(link.rsplit("permissions=", 1)[1])
    bits = {
        "View Channel": 1 << 10,
        "Send Messages": 1 << 11,
        "Embed Links": 1 << 14,
        "Attach Files": 1 << 15,
        "Read Message History": 1 << 16,
    }  # Discord's values
    assert {label for _, label, _ in NEEDED} == set(bits)
    night = {  # what /setup-night may turn on: events, a thread per group, division roles
        "Manage Roles": 1 << 28,
        "Manage Events": 1 << 33,
        "Create Public Threads": 1 << 35,
        "Send Messages in Threads": 1 << 38,
    }
    bits |= night
    assert all(asked & bit for bit in bits.values()) and asked == sum(bits.values())
    assert "scope=bot+applications.commands" in link


def test_a_named_settings_file_that_is_missing_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.env"
    assert main(["check", "--env-file", str(missing)]) == 2
    assert f"there is no settings file {missing}" in capsys.readouterr().err


def test_relative_paths_in_the_settings_file_are_from_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "bot-home"
    folder.mkdir()
    env_file = folder / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH=data/league.sqlite3\n",
                        encoding="utf-8")  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for name in ("DATABASE_PATH", "BACKUP_DIR", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings(env_file=str(env_file), required=True)
    assert settings.database_path == folder / "data" / "league.sqlite3"
    assert settings.backup_dir == folder / "backups"  # the default, beside the file too
    monkeypatch.setenv("BACKUP_DIR", "from-the-environment")
    assert load_settings(env_file=str(env_file)).backup_dir == Path("from-the-environment")


def test_an_empty_league_file_beside_backups_is_said_loudly(tmp_path: Path) -> None:
    database, folder = tmp_path / "league.sqlite3", tmp_path / "backups"
    assert empty_beside_backups(database, folder) is None  # a first start: nothing to say
    folder.mkdir()
    (folder / "league-20260310-230000.sqlite3").write_bytes(b"")
    (folder / "league-20260311-230000.sqlite3").write_bytes(b"")
    said = empty_beside_backups(database, folder)
    assert said is not None and "a NEW, EMPTY league file is made" in said
    assert "2 backup(s), the newest league-20260311-230000.sqlite3" in said
    assert f"league-bot restore {folder / 'league-20260311-230000.sqlite3'}" in said
    database.write_bytes(b"")
    assert empty_beside_backups(database, folder) is None


async def test_a_database_is_copied_before_it_is_migrated(tmp_path: Path) -> None:
    database, folder = tmp_path / "league.sqlite3", tmp_path / "backups"
    latest = load_migrations()[-1].version
    await migrate(database, up_to=latest - 1)
    copy = copy_before_migrating(database, folder, now=NOW)
    assert (
        copy is not None and copy.name == f"league-before-schema-{latest}-20260311-230000.sqlite3"
    )
    assert schema_of(copy) == latest - 1
    await migrate(database)
    assert copy_before_migrating(database, folder, now=NOW) is None  # nothing to migrate


async def test_a_backup_on_the_command_line_while_the_bot_has_the_database_open(
    tmp_path: Path,
) -> None:
    database, folder = tmp_path / "league.sqlite3", tmp_path / "backups"
    await migrate(database)
    running = await Database.open(database)  # the bot's
    try:
        await setup.create_league(running, 5, "League", now=NOW)
        copy = await backup_file(database, folder, now=NOW)
    finally:
        await running.close()
    assert copy == folder / "league-20260311-230000.sqlite3"
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT name FROM leagues").fetchall() == [("League",)]


def test_only_the_newest_daily_backups_are_kept(tmp_path: Path) -> None:
    """Only the daily ones: a commissioner's (or the command line's) copies, and
    the copy before a migration, are never pruned, however many there are."""
    for day in range(1, 6):
        (tmp_path / f"league-daily-202603{day:02}-040000.sqlite3").write_bytes(b"")
    for minute in range(20):
        (tmp_path / f"league-20260306-04{minute:02}00.sqlite3").write_bytes(b"")
    (tmp_path / "league-before-schema-18-20260301-040000.sqlite3").write_bytes(b"")
    gone = prune(tmp_path, 3)
    assert [p.name for p in gone] == ["league-daily-20260301-040000.sqlite3",
                                      "league-daily-20260302-040000.sqlite3"]  # fmt: skip
    daily = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("league-daily"))
    assert daily[0].startswith("league-daily-20260303") and len(daily) == 3
    assert len(list(tmp_path.iterdir())) == 3 + 20 + 1


async def test_the_daily_backup_runs_at_its_hour_and_keeps_the_newest(tmp_path: Path) -> None:
    settings = load_settings(env={
        "DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "league.sqlite3"),
        "BACKUP_DIR": str(tmp_path / "backups"), "BACKUP_HOUR": "3", "BACKUP_KEEP": "2",
        "LEAGUE_TIME_ZONE": "America/Chicago"})  # fmt: skip
    bot = LeagueBot(settings)
    try:
        await bot.setup_hook()
        assert bot.housekeeping is not None
        job = bot.housekeeping.get_job("daily-backup")
        local = job.next_run_time
        assert (local.hour, local.minute, str(local.tzinfo)) == (3, 17, "America/Chicago")
        for n in range(3):
            (tmp_path / "backups").mkdir(exist_ok=True)
            daily = tmp_path / "backups" / f"league-daily-2020010{n + 1}-031700.sqlite3"
            daily.write_bytes(b"")
        copy = await bot.daily_backup()
    finally:
        await bot.close()
    assert copy is not None and copy.exists() and copy.name.startswith("league-daily-")
    kept = sorted(p.name for p in (tmp_path / "backups").iterdir())
    assert kept == ["league-daily-20200103-031700.sqlite3", copy.name]


async def test_health_says_whether_a_bot_runs_on_a_sound_database(tmp_path: Path) -> None:
    database = tmp_path / "league.sqlite3"
    assert health(database) == (False, f"no database at {database}")
    await migrate(database)
    assert health(database) == (False, f"no bot is running on {database}")
    held = OneBot.hold(database)  # what `league-bot run` takes first
    try:
        ok, said = health(database)
    finally:
        assert held is not None
        held.release()
    assert ok and said.endswith("passes SQLite's quick check")


async def test_restore_is_refused_from_the_moment_a_bot_starts(tmp_path: Path) -> None:
    database, backup = tmp_path / "league.sqlite3", tmp_path / "backup.sqlite3"
    await migrate(backup)
    db = await Database.open(backup)
    await setup.create_league(db, 5, "League", now=NOW)
    await db.close()
    await migrate(database)
    held = OneBot.hold(database)  # started: not yet migrated, not yet open
    try:
        with pytest.raises(DatabaseError, match=r"the bot is running on .*; stop it first"):
            restore(backup, database, now=NOW, other_server=True)
    finally:
        assert held is not None
        held.release()
    assert restore(backup, database, now=NOW, other_server=True).kept is not None
