"""Migrations: the numbered files in `migrations/`, applied in order.

`migrate(path)` applies the numbered files (`0001_initial.sql`, `0002_….py`).
A file is SQL (`NNNN_name.sql`) or, where SQL alone cannot convert the data,
Python (`NNNN_name.py` defining `async def upgrade(conn)`, which may run any
statement but BEGIN, COMMIT, ROLLBACK or `PRAGMA user_version`). Each pending
file and its `PRAGMA user_version = N` run in ONE transaction, so a failed
migration leaves the database exactly as it was.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import re
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

from bot.database import open_connection, rollback_if_open
from bot.database_errors import DatabaseTooNewError, MigrationError
from bot.database_files import PathLike, check_database_path

log = logging.getLogger(__name__)

# `migrations/` sits beside the `bot` package: the project's top-level folder in a
# checkout. An installed copy (or a test) passes its own folder to `migrate()`.
DEFAULT_MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"

_MIGRATION_NAME = re.compile(r"^(?P<number>\d+)_(?P<name>[A-Za-z0-9_.-]+)\.(?P<kind>sql|py)$")
_KINDS = (".sql", ".py")
Upgrade = Callable[[aiosqlite.Connection], Awaitable[None]]
# Statements a migration file may not contain: the runner owns the transaction
# and the schema version, and a COMMIT inside a file would break its atomicity.
_RUNNER_OWNED = re.compile(
    r"^(BEGIN|COMMIT|END|ROLLBACK(?!\s+(TRANSACTION\s+)?TO)|PRAGMA\s+(\w+\s*\.\s*)?user_version)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Statement:
    line: int  # where the statement starts in its file, for error messages
    sql: str


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    path: Path
    statements: tuple[Statement, ...]
    upgrade: Upgrade | None = None  # a Python migration's `upgrade(conn)`

    @property
    def name(self) -> str:
        return self.path.name


def _skip_space_and_comments(sql: str, start: int) -> int:
    """Index of the first character at or after `start` that is neither space nor comment."""
    i, n = start, len(sql)
    while i < n:
        if sql[i].isspace():
            i += 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end == -1 else end + 1
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            i = n if end == -1 else end + 2
        else:
            break
    return i


def split_statements(sql: str) -> list[Statement]:
    """Split a migration into statements, SQLite's way.

    Text is accumulated up to each `;` until `sqlite3.complete_statement` says it is
    a whole statement, so a `;` inside a string, a comment or a trigger's
    `BEGIN … END` body does not end it. Pieces holding only comments are dropped; a
    last statement without its `;` is kept.
    """
    statements: list[Statement] = []
    start = 0
    for semicolon in (m.start() for m in re.finditer(";", sql)):
        chunk = sql[start : semicolon + 1]
        if sqlite3.complete_statement(chunk):
            _add_statement(statements, sql, start, semicolon + 1)
            start = semicolon + 1
    _add_statement(statements, sql, start, len(sql))
    return statements


def _add_statement(statements: list[Statement], sql: str, start: int, end: int) -> None:
    begin = _skip_space_and_comments(sql, start)
    if begin >= end:
        return
    line = sql.count("\n", 0, begin) + 1
    statements.append(Statement(line=line, sql=sql[begin:end].strip()))


def load_migrations(migrations_dir: PathLike = DEFAULT_MIGRATIONS) -> list[Migration]:
    """Read and check every migration file; raise `MigrationError` before any is applied.

    Files are `NNNN_name.sql` or `NNNN_name.py`, numbered 1..N with no gap and
    no duplicate. Other files (a README) are ignored; a `.sql` or `.py` file
    without a number is refused (`__init__.py` and caches excepted).
    """
    folder = Path(migrations_dir)
    if not folder.is_dir():
        raise MigrationError(f"migrations folder {folder} does not exist")

    numbered: dict[int, list[Path]] = {}
    for file in sorted(folder.iterdir()):
        if file.suffix.lower() not in _KINDS or not file.is_file() or file.name.startswith("_"):
            continue
        match = _MIGRATION_NAME.match(file.name)
        if match is None:
            raise MigrationError(
                f"migration file {file.name} is not named NNNN_name.sql or NNNN_name.py "
                "(e.g. 0002_vetoes.sql)"
            )
        numbered.setdefault(int(match["number"]), []).append(file)

    for number, files in sorted(numbered.items()):
        if len(files) > 1:
            names = ", ".join(f.name for f in files)
            raise MigrationError(f"migration number {number} is used more than once: {names}")
    expected = list(range(1, len(numbered) + 1))
    if sorted(numbered) != expected:
        missing = sorted(set(range(1, max(numbered, default=0) + 1)) - set(numbered))
        detail = f"missing {missing}" if missing else "numbering must start at 1"
        raise MigrationError(
            f"migrations in {folder} must be numbered 1..{len(numbered)} without gaps; {detail}"
        )

    migrations = []
    for number in expected:
        path = numbered[number][0]
        if path.suffix == ".py":
            migrations.append(_python_migration(number, path))
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MigrationError(f"cannot read migration {path.name}: {exc}") from exc
        statements = tuple(split_statements(text))
        for statement in statements:
            if owned := _RUNNER_OWNED.match(statement.sql):
                raise MigrationError(
                    f"migration {path.name} line {statement.line}: remove "
                    f"{owned.group(0)!r} — the runner wraps each file "
                    "in its own transaction and sets PRAGMA user_version itself"
                )
        if statements and not sqlite3.complete_statement(statements[-1].sql + "\n;"):
            raise MigrationError(
                f"migration {path.name} line {statements[-1].line}: statement is incomplete"
            )
        migrations.append(Migration(version=number, path=path, statements=statements))
    return migrations


def _no_transaction_control(action: int, *_: object) -> int:
    """SQLite authorizer during a Python migration: deny transaction statements."""
    if action in (sqlite3.SQLITE_TRANSACTION, sqlite3.SQLITE_SAVEPOINT):
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def _python_migration(number: int, path: Path) -> Migration:
    """Load `NNNN_name.py`; it must define `async def upgrade(conn)`."""
    name = f"_league_migration_{number:04d}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise MigrationError(f"cannot load migration {path.name}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import would: dataclasses and the like need it
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise MigrationError(f"cannot load migration {path.name}: {exc}") from exc
    finally:
        sys.modules.pop(name, None)
    upgrade = getattr(module, "upgrade", None)
    if not asyncio.iscoroutinefunction(upgrade):
        raise MigrationError(f"migration {path.name} must define `async def upgrade(conn)`")
    return Migration(version=number, path=path, statements=(), upgrade=upgrade)


async def migrate(
    path: PathLike, migrations_dir: PathLike = DEFAULT_MIGRATIONS, *, up_to: int | None = None
) -> int:
    """Apply the pending migrations to the database at `path`; return its schema version.
    `up_to` stops after that version (the schema a backup of that version must have).

    Every file is checked first (`MigrationError` on a gap, a duplicate or a
    transaction statement in a file). A database newer than the newest file
    raises `DatabaseTooNewError`: the bot must not run against it. Each pending
    file runs in one `BEGIN IMMEDIATE` transaction together with its
    `PRAGMA user_version`; if any statement fails, that transaction is rolled back
    and `MigrationError` names the file and SQLite's message.
    """
    migrations = await asyncio.to_thread(load_migrations, migrations_dir)
    latest = migrations[-1].version if migrations else 0
    await asyncio.to_thread(check_database_path, path)

    # Foreign keys stay OFF while migrating (SQLite's procedure for rebuilding a
    # table); `PRAGMA foreign_key_check` runs before each commit instead.
    conn = await open_connection(path, foreign_keys=False)
    try:
        version = await _user_version(conn)
        _refuse_too_new(version, latest)
        for migration in migrations:
            if migration.version > version and (up_to is None or migration.version <= up_to):
                version = await _apply(conn, migration, migrations)
    finally:
        await conn.close()
    return version


async def _apply(
    conn: aiosqlite.Connection, migration: Migration, migrations: list[Migration]
) -> int:
    latest = migrations[-1].version
    statement: Statement | None = None  # the one running, for the error message
    await conn.execute("BEGIN IMMEDIATE")
    try:
        # Read again under the write lock: another process may have migrated meanwhile.
        current = await _user_version(conn)
        _refuse_too_new(current, latest)
        if current >= migration.version:
            await conn.execute("ROLLBACK")
            return current
        for statement in migration.statements:
            await conn.execute(statement.sql)
        statement = None
        if migration.upgrade is not None:
            # The runner owns the transaction: SQLite itself refuses a COMMIT,
            # ROLLBACK, BEGIN or SAVEPOINT from the migration (executescript too).
            await conn.set_authorizer(_no_transaction_control)
            try:
                await migration.upgrade(conn)
            finally:
                await conn.set_authorizer(None)
            if not conn.in_transaction:
                raise MigrationError(
                    f"migration {migration.name} ended the runner's transaction; "
                    "it must not COMMIT or ROLLBACK"
                )
        violations = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
        if violations:
            table, rowid, parent, _ = tuple(violations[0])
            raise MigrationError(
                f"migration {migration.name} failed: {len(violations)} foreign key "
                f"violation(s), e.g. {table} row {rowid} refers to a missing {parent} row"
            )
        await _record(conn, migration, migrations)
        await conn.execute(f"PRAGMA user_version = {migration.version:d}")
        await conn.execute("COMMIT")
    except BaseException as exc:
        await rollback_if_open(conn)
        if isinstance(exc, sqlite3.Error):
            where = f" at line {statement.line}" if statement is not None else ""
            raise MigrationError(f"migration {migration.name} failed{where}: {exc}") from exc
        if isinstance(exc, Exception) and not isinstance(exc, MigrationError):
            raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
        raise
    log.info("applied migration %s (schema version %d)", migration.name, migration.version)
    return migration.version


RECORD = "schema_migrations"  # migrations/0010_migration_record.sql


async def _record(
    conn: aiosqlite.Connection, migration: Migration, migrations: list[Migration]
) -> None:
    """Add `migration` to the database's record of its migration files, once the
    record exists; the files before the record began are added without a time."""
    found = await conn.execute_fetchall(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (RECORD,)
    )
    if not found:
        return
    now = datetime.now(UTC).isoformat(timespec="seconds")
    for earlier in migrations:
        if earlier.version <= migration.version:
            await conn.execute(
                f"INSERT OR IGNORE INTO {RECORD} (version, name, applied_at) VALUES (?, ?, ?)",
                (earlier.version, earlier.name,
                 now if earlier.version == migration.version else None),
            )  # fmt: skip


def _refuse_too_new(version: int, latest: int) -> None:
    if version > latest:
        raise DatabaseTooNewError(
            f"database schema version {version} is newer than this bot ({latest}); upgrade the bot"
        )


async def _user_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])
