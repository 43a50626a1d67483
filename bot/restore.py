"""`league-bot restore BACKUP --database FILE`: a backup put back as the league's
database, safely, and only a league's.

The backup must be a SQLite file that passes `integrity_check`, at a schema
version this bot knows, whose tables are exactly those this bot's migrations
make at that version, with the record of those migration files
(`schema_migrations`, from version 10 on) and a league in it. The restore
names the backup's league and its Discord server, and refuses a backup of
another server's league than the one the database holds unless told to
(`other_server`). It is refused while a bot holds the database; the current
file is kept beside it as `<database>.before-restore-<UTC time>`; both copies
are made with SQLite's backup API, so a write-ahead log of the current file is
neither lost nor applied to the restored file.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.database_errors import DatabaseError, DatabaseFileError, DatabaseTooNewError
from bot.database_files import (
    BUSY_TIMEOUT_MS,
    SQLITE_HEADER,
    AlreadyRunning,
    OneBot,
    PathLike,
    check_database_path,
)
from bot.migrate import DEFAULT_MIGRATIONS, RECORD, Migration, load_migrations, migrate

log = logging.getLogger(__name__)

Schema = dict[str, tuple[tuple[object, ...], ...]]  # table or index -> its columns
RECORD_SINCE = 10  # the schema version that began the record of migration files


@dataclass(frozen=True)
class LeagueFile:
    """What a league database holds: its schema version and its leagues."""

    version: int
    leagues: tuple[tuple[str, int], ...]  # (league name, Discord server id)

    @property
    def servers(self) -> set[int]:
        return {guild for _, guild in self.leagues}

    def named(self) -> str:
        """ "Koi's League (Discord server 123)", for a one-line message."""
        return " and ".join(f"{name} (Discord server {guild})" for name, guild in self.leagues)


@dataclass(frozen=True)
class Restored:
    backup: LeagueFile
    kept: Path | None  # the previous file, or None when there was none


def _connect_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)


def schema_of(conn: sqlite3.Connection) -> Schema:
    """The tables with their columns, and the indexes with theirs (SQLite's own
    tables and automatic indexes left out)."""
    found: Schema = {}
    for kind, name in conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index')"
        " AND name NOT LIKE 'sqlite_%' ORDER BY type, name"
    ):
        pragma = "table_info" if kind == "table" else "index_info"
        columns = conn.execute(f"PRAGMA {pragma}('{name}')").fetchall()
        found[f"{kind} {name}"] = tuple(tuple(c) for c in columns)
    return found


def expected_schema(version: int, migrations_dir: PathLike = DEFAULT_MIGRATIONS) -> Schema:
    """The schema this bot's migrations make at `version`: a scratch database is
    migrated that far (on a thread of its own, so a caller's event loop does not
    matter)."""
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder) / "schema.sqlite3"
        with ThreadPoolExecutor(max_workers=1) as thread:
            thread.submit(asyncio.run, migrate(scratch, migrations_dir, up_to=version)).result()
        conn = sqlite3.connect(scratch)
        try:
            return schema_of(conn)
        finally:
            conn.close()


def read_league_file(
    path: Path, migrations: list[Migration], migrations_dir: PathLike = DEFAULT_MIGRATIONS
) -> LeagueFile:
    """Check that `path` is a league database this bot's migrations made; say
    which leagues it holds. `DatabaseError` with a one-line reason otherwise."""
    latest = migrations[-1].version if migrations else 0
    if not path.is_file() or path.stat().st_size == 0:
        raise DatabaseFileError(f"{path} is not a backup: no such file, or it is empty")
    with path.open("rb") as handle:
        if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise DatabaseFileError(f"{path} is not a SQLite database")
    try:
        conn = _connect_read_only(path)
        try:
            try:
                result = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            except sqlite3.DatabaseError as exc:  # damage SQLite meets before it can list it
                result = [str(exc)]
            if result != ["ok"]:
                found = " ".join(" ".join(result[:3]).split())  # SQLite's lines, on one line
                raise DatabaseError(f"{path} failed its integrity check: {found}")
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if version < 1:
                raise DatabaseError(f"{path} is not a league database (schema version {version})")
            if version > latest:
                raise DatabaseTooNewError(
                    f"{path} has schema version {version}, newer than this bot ({latest}); "
                    "upgrade the bot first"
                )
            if schema_of(conn) != expected_schema(version, migrations_dir):
                raise DatabaseError(
                    f"{path} is not a league database: its tables are not the ones this bot "
                    f"makes at schema version {version}"
                )
            _check_record(path, conn, version, migrations)
            leagues = tuple(
                (str(name), int(guild))
                for name, guild in conn.execute("SELECT name, guild_id FROM leagues ORDER BY id")
            )
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise DatabaseFileError(f"{path} cannot be read as a SQLite database: {exc}") from exc
    if not leagues:
        raise DatabaseError(f"{path} holds no league; there is nothing to restore")
    return LeagueFile(version, leagues)


def _check_record(
    path: Path, conn: sqlite3.Connection, version: int, migrations: list[Migration]
) -> None:
    """From `RECORD_SINCE` on, the file names this bot's migration files 1…version."""
    if version < RECORD_SINCE:
        return
    recorded = conn.execute(f"SELECT version, name FROM {RECORD} ORDER BY version").fetchall()
    ours = [(m.version, m.name) for m in migrations if m.version <= version]
    if [tuple(r) for r in recorded] != ours:
        raise DatabaseError(
            f"{path} was not made by this bot's migrations (its record of migration files differs)"
        )


def _current_leagues(target: Path) -> LeagueFile | None:
    """The leagues the database at `target` holds now, if it is a league database."""
    if not target.is_file() or target.stat().st_size == 0:
        return None
    try:
        conn = _connect_read_only(target)
        try:
            rows = conn.execute("SELECT name, guild_id FROM leagues ORDER BY id").fetchall()
            (version,) = conn.execute("PRAGMA user_version").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None  # not a league's: nothing of a server to compare with
    return LeagueFile(version, tuple((str(n), int(g)) for n, g in rows)) if rows else None


def restore(
    backup: PathLike,
    database: PathLike,
    *,
    now: datetime,
    other_server: bool,
    migrations_dir: PathLike = DEFAULT_MIGRATIONS,
) -> Restored:
    """Put `backup` back as the league's database at `database` (see the module)."""
    source, target = Path(backup), Path(database)
    if source.resolve() == target.resolve():
        raise DatabaseError(f"{source} is the database itself; name a backup")
    of = read_league_file(source, load_migrations(migrations_dir), migrations_dir)
    check_database_path(target)
    current = _current_leagues(target)
    if current is not None and not other_server and not (of.servers & current.servers):
        raise DatabaseError(
            f"{source} is the league {of.named()}, not this database's {current.named()}; "
            "add --other-server to put it back anyway"
        )
    try:  # a bot holds this from the moment it starts, before it opens the database
        starting = OneBot.hold(target)
    except AlreadyRunning:
        raise DatabaseError(
            f"the bot is running on {target}; stop it first, then restore"
        ) from None
    try:
        return _restore_held(source, target, of, now)
    finally:
        if starting is not None:
            starting.release()


def _restore_held(source: Path, target: Path, of: LeagueFile, now: datetime) -> Restored:
    kept: Path | None = None
    lock = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)  # no bot may open it meanwhile
    try:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:
            pass
        except OSError:
            raise DatabaseError(
                f"the bot is running on {target}; stop it first, then restore"
            ) from None
        kept = _copy_over(source, target, now)
    except sqlite3.Error as exc:
        raise DatabaseError(f"could not restore {source} onto {target}: {exc}") from exc
    finally:
        os.close(lock)
    log.info("restored %s from %s (%s); the previous file is kept as %s",
             target, source, of.named(), kept)  # fmt: skip
    return Restored(of, kept)


def _copy_over(source: Path, target: Path, now: datetime) -> Path | None:
    """Keep the current file, then copy `source` into `target`; both with SQLite's
    backup API. Returns the kept copy (None if `target` was empty)."""
    kept: Path | None = None
    current = sqlite3.connect(target, isolation_level=None)
    try:
        current.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        if current.execute("PRAGMA page_count").fetchone()[0] > 0:
            kept = target.with_name(
                f"{target.name}.before-restore-{now.astimezone(UTC):%Y%m%d-%H%M%S}"
            )
            if kept.exists():
                raise DatabaseError(f"{kept} already exists; wait a second and try again")
            copy = sqlite3.connect(kept)
            try:
                current.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
        restored = _connect_read_only(source)
        try:
            restored.backup(current)
        finally:
            restored.close()
        current.execute("PRAGMA journal_mode = WAL")
        result = [row[0] for row in current.execute("PRAGMA integrity_check")]
    finally:
        current.close()
    if result != ["ok"]:
        raise DatabaseError(f"the restored {target} failed its integrity check: {result[:3]}")
    return kept
