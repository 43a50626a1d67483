"""Keeping the bot running: backups (on the command line, daily with a
retention, and before every migration), the warning when a new, empty league
file would be made beside a folder of backups, the invite link, and the
container's health check. What `league-bot` runs besides the bot itself."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import discord

from bot.components.night_checks import ASKED
from bot.components.places import NEEDED
from bot.database import Database
from bot.database_errors import DatabaseError
from bot.migrate import load_migrations

log = logging.getLogger(__name__)

DAILY = re.compile(r"league-daily-\d{8}-\d{6}\.sqlite3")  # the daily backups, pruned


def permissions() -> int:
    """The permissions integer the invite asks for: every one the bot checks
    it has in its channels (places.NEEDED), and those of what /setup-night may
    turn on (night_checks.ASKED), as Discord numbers them."""
    wanted = [attr for attr, _, _ in NEEDED] + list(ASKED)
    return discord.Permissions(**dict.fromkeys(wanted, True)).value


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with the scopes and permissions it uses."""
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope=bot+applications.commands&permissions={permissions()}"
    )


def backup_name(now: datetime) -> str:
    return f"league-{now.astimezone(UTC):%Y%m%d-%H%M%S}.sqlite3"


async def backup_file(database: Path, folder: Path, *, now: datetime) -> Path:
    """`league-bot backup`: an online, consistent copy (SQLite's backup API,
    checked), while the bot runs or not, into `folder` (made if missing)."""
    if not await asyncio.to_thread(database.is_file):
        raise DatabaseError(f"there is no database at {database}")
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    db = await Database.open(database)
    try:
        return await db.backup(folder / backup_name(now))
    finally:
        await db.close()


def daily_name(now: datetime) -> str:
    return f"league-daily-{now.astimezone(UTC):%Y%m%d-%H%M%S}.sqlite3"


def prune(folder: Path, keep: int) -> list[Path]:
    """The daily backups past the `keep` newest, removed. Others are left alone:
    one made with `league-bot backup` or `/league admin backup`, a copy made
    before a migration, one made by hand."""
    if keep <= 0 or not folder.is_dir():
        return []
    daily = sorted(p for p in folder.iterdir() if DAILY.fullmatch(p.name))
    gone = daily[:-keep]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def schema_of(database: Path) -> int:
    with sqlite3.connect(f"file:{database.resolve()}?mode=ro", uri=True) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def copy_before_migrating(database: Path, folder: Path, *, now: datetime) -> Path | None:
    """A copy of a database about to be migrated, into the backup folder
    (`league-before-schema-<N>-<UTC time>.sqlite3`), so an upgrade can be undone
    with `league-bot restore`. None when nothing is to migrate."""
    if not database.is_file() or database.stat().st_size == 0:
        return None
    migrations = load_migrations()
    latest = migrations[-1].version if migrations else 0
    try:
        version = schema_of(database)
    except sqlite3.DatabaseError:
        return None  # not a database: migrating it says so, in one line
    if version == 0 or version >= latest:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"league-before-schema-{latest}-{now.astimezone(UTC):%Y%m%d-%H%M%S}.sqlite3"
    with sqlite3.connect(database) as source, sqlite3.connect(target) as copy:
        source.backup(copy)
    log.warning("copied %s (schema %d) to %s before migrating it to schema %d",
                database, version, target, latest)  # fmt: skip
    return target


def empty_beside_backups(database: Path, folder: Path) -> str | None:
    """Said loudly when the bot is about to make a new, empty league file while
    the backup folder holds backups: most often a wrong DATABASE_PATH or folder."""
    if database.exists() or not folder.is_dir():
        return None
    kept = sorted((p for p in folder.iterdir() if p.name.endswith(".sqlite3")),
                  key=lambda p: p.stat().st_mtime)  # fmt: skip
    if not kept:
        return None
    return (
        f"there is no database at {database.resolve()}, but {folder.resolve()} holds "
        f"{len(kept)} backup(s), the newest {kept[-1].name}: a NEW, EMPTY league file is made. "
        "If this is a mistake, stop the bot, fix DATABASE_PATH in .env, or put a backup back "
        f"with: league-bot restore {kept[-1]} --database {database}"
    )


def health(database: Path) -> tuple[bool, str]:
    """The container's health check: a bot holds the database (it is running)
    and the file passes SQLite's quick check. It never takes the bot's lock
    itself (a bot starting that moment would find it taken): it reads the
    process id the lock file holds and asks whether that process lives."""
    if not database.is_file():
        return False, f"no database at {database}"
    if not _running(Path(f"{database}.lock")):
        return False, f"no bot is running on {database}"
    with sqlite3.connect(f"file:{database.resolve()}?mode=ro", uri=True) as conn:
        result = conn.execute("PRAGMA quick_check").fetchone()[0]
    if result != "ok":
        return False, f"{database} fails SQLite's quick check: {result}"
    return True, f"a bot is running on {database}, which passes SQLite's quick check"


def _running(lock: Path) -> bool:
    try:
        held = lock.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    if not held.isdigit():
        return False
    try:
        os.kill(int(held), 0)  # no signal: only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: it lives
    return True
