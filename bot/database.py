"""The league's SQLite database: its connections and explicit transactions.

Layering: repositories take the connection that `Database.transaction()` or
`Database.read()` yields and run their SQL on it; services open one transaction
per unit of work. Nothing here knows about the league's tables. Migrations are
`bot.migrate`.

- `Database.open(path)` opens the connection with foreign keys, WAL, a busy
  timeout and `synchronous = NORMAL`. An `asyncio.Lock` guards it, so two
  coroutines never share a half-open transaction.
- `Database.backup(target)` copies the live database with SQLite's online backup API.
- The file is watched: a write transaction checks (one `os.stat` before it begins,
  one before it commits) that the path still names the file the bot opened and
  that nobody else wrote to it. A file deleted, replaced (`mv`, `os.replace`) or
  overwritten in place (`cp backup live`) makes that transaction roll back with
  `DatabaseMovedError`, and every later one too: nothing more is acknowledged
  into a file that will not be there after a restart. `bot.restore` puts a backup
  back safely while the bot is stopped (`league-bot restore`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Self

import aiosqlite

from bot.database_errors import (
    DatabaseError,
    DatabaseFileError,
    DatabaseMovedError,
    DiskFullError,
    disk_full,
)
from bot.database_files import (
    BUSY_TIMEOUT_MS,
    MEMORY,
    FileStamp,
    PathLike,
    check_database_path,
    file_stamp,
    hold_file,
    prepare_backup,
    remove_files,
)
from bot.quick_reads import QuickReader

log = logging.getLogger(__name__)


# --- opening --------------------------------------------------------------------------------


async def open_connection(path: PathLike, *, foreign_keys: bool = True) -> aiosqlite.Connection:
    """One connection in autocommit mode (transactions are explicit) with the league's pragmas."""
    try:
        conn = await aiosqlite.connect(os.fspath(path), isolation_level=None)
    except sqlite3.Error as exc:
        raise DatabaseFileError(f"cannot open database {path}: {exc}") from exc
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        await conn.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
        async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        mode = row[0] if row else None
        if mode != "wal" and os.fspath(path) != MEMORY:
            log.warning("database %s stays in journal mode %s, not WAL", path, mode)
        await conn.execute("PRAGMA synchronous = NORMAL")
    except BaseException as exc:
        await conn.close()
        if isinstance(exc, sqlite3.Error):
            raise DatabaseFileError(f"cannot open database {path}: {exc}") from exc
        raise
    return conn


async def rollback_if_open(conn: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open; never mask the error that brought us here."""
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:  # e.g. "no transaction is active"
        log.debug("rollback skipped: %s", exc)


# --- the database ---------------------------------------------------------------------------


class Database:
    """The bot's writer connection, shared by every coroutine through a lock, a
    second, read-only connection for queries, and a third for one quick
    statement run inline (`read(snapshot=False)`, `bot.quick_reads`).

    `Database.open(path)` is the constructor. Use `transaction()` for any write
    (one per unit of work) and `read()` for queries; neither is reentrant, so a
    repository never opens its own. With WAL, reads see the last committed state
    and never wait behind a write (an in-memory database has one connection).
    """

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: PathLike,
        reader: aiosqlite.Connection | None = None,
        quick: QuickReader | None = None,
    ) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._reader: aiosqlite.Connection | None = reader
        self._quick = quick
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self._holders: set[asyncio.Task[object]] = set()
        self.path = path
        # The file as the bot opened it and as its own last commit left it (None in memory).
        self._stamp: FileStamp | None = None if os.fspath(path) == MEMORY else file_stamp(path)
        self._moved: str | None = None  # why writes stopped, once the file was found changed
        self._alerted = False
        self._full_alerted = False  # the commissioner was told the disk is full
        self._full = False  # the last write found the disk full (logged once)
        self._held: int | None = None  # a descriptor holding `hold_file`'s shared lock

    @classmethod
    async def open(cls, path: PathLike) -> Self:
        """Open the database at `path` (created if missing). It is not migrated here.

        The file is held (`hold_file`) before SQLite opens it and released after the
        last connection closes: closing a descriptor of the file drops every POSIX
        lock the process holds on it, SQLite's included."""
        await asyncio.to_thread(check_database_path, path)
        held = None if os.fspath(path) == MEMORY else await asyncio.to_thread(hold_file, path)
        try:
            conn = await open_connection(path)
        except BaseException:
            if held is not None:
                os.close(held)
            raise
        reader = quick = None
        if os.fspath(path) != MEMORY:
            try:
                reader = await open_connection(path)
                await reader.execute("PRAGMA query_only = ON")
                modes = list(await conn.execute_fetchall("PRAGMA journal_mode"))
                (mode,) = modes[0]
                if mode == "wal":  # else a reader waits for each commit: not on the loop
                    quick = QuickReader.open(path)
            except BaseException as exc:
                for opened in (reader, conn):
                    if opened is not None:
                        await opened.close()
                if held is not None:
                    os.close(held)
                if isinstance(exc, sqlite3.Error):
                    raise DatabaseFileError(f"cannot open database {path}: {exc}") from exc
                raise
        log.debug("opened database %s", path)
        database = cls(conn, path, reader, quick)
        database._held = held
        return database

    async def close(self) -> None:
        """Wait for the running transaction and read, then close. Closing twice is harmless."""
        async with self._lock:
            if self._conn is None:
                return
            # The writer closes last: the last connection to close checkpoints the
            # WAL into the file, and only a read-write connection can.
            if self._quick is not None:
                quick, self._quick = self._quick, None
                quick.close()
            if self._reader is not None:
                async with self._read_lock:
                    reader, self._reader = self._reader, None
                    await reader.close()
            conn, self._conn = self._conn, None
            await conn.close()
            if self._held is not None:
                held, self._held = self._held, None
                os.close(held)  # releases the lock `restore` checks
        log.debug("closed database %s", self.path)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """`async with db.transaction() as conn:` — one `BEGIN IMMEDIATE` unit of work.

        Commits when the block ends, rolls back and re-raises if it raises
        (cancellation included). The write lock is taken at BEGIN, so the block
        never fails half-way with "database is locked" from another connection.
        """
        async with self._locked() as conn:
            if conn.in_transaction:  # left open by a cancelled COMMIT/ROLLBACK
                await rollback_if_open(conn)
            self._check_file()
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                self._check_file()  # nothing is acknowledged into a file that is gone
                await conn.execute("COMMIT")
            except BaseException as exc:
                await rollback_if_open(conn)
                if disk_full(exc):
                    raise self._disk_full(exc) from exc
                raise
            self._full = self._full_alerted = False  # there is room again
            if self._stamp is not None:  # a checkpoint in COMMIT may have written the file
                self._stamp = file_stamp(self.path) or self._stamp

    def _disk_full(self, error: BaseException) -> DiskFullError:
        if not self._full:
            log.error("database %s: the disk is full (%s); nothing is saved until there is "
                      "room", self.path, error)  # fmt: skip
        self._full = True
        return DiskFullError(f"database {self.path}: the disk is full", self)

    def _check_file(self) -> None:
        """Raise `DatabaseMovedError` unless the path still names the file the bot
        opened, unchanged since the bot's own last commit. One `os.stat`."""
        if self._moved is None and self._stamp is not None:
            now = file_stamp(self.path)
            if now is None:
                self._moved = "was deleted"
            elif now[:2] != self._stamp[:2]:
                self._moved = "was replaced by another file"
            elif now != self._stamp:
                self._moved = "was written by something other than the bot (overwritten?)"
            if self._moved is not None:
                log.error(
                    "database %s %s while the bot was running; refusing every write from now "
                    "on. Stop the bot, put the right file back (league-bot restore BACKUP "
                    "--database FILE) and start it again.",
                    self.path,
                    self._moved,
                )
        if self._moved is not None:
            raise DatabaseMovedError(
                f"database {self.path} {self._moved} while the bot was running", self
            )

    @contextlib.asynccontextmanager
    async def read(self, *, snapshot: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """`async with db.read() as conn:` — queries that see one consistent snapshot.

        Writes inside it fail (`PRAGMA query_only`): use `transaction()` for those.
        `snapshot=False` is for exactly ONE quick statement (`execute_fetchall`),
        which is its own snapshot: on a file it runs inline on the event loop
        (`bot.quick_reads`), for a check a reply must wait on.
        """
        if self._moved is not None:
            self._check_file()  # what the bot reads may no longer be the league's: stop
        if not snapshot and self._quick is not None:
            yield self._quick  # type: ignore[misc]  # stands in: has execute_fetchall only
            return
        if self._reader is None and self._conn is not None and self._read_lock is self._lock:
            async with self._locked() as conn:  # an in-memory database: one connection
                if conn.in_transaction:
                    await rollback_if_open(conn)
                await conn.execute("PRAGMA query_only = ON")
                try:
                    await conn.execute("BEGIN")
                    try:
                        yield conn
                    finally:
                        await rollback_if_open(conn)
                finally:
                    await conn.execute("PRAGMA query_only = OFF")
            return
        async with self._locked(reading=True) as conn:
            if conn.in_transaction:
                await rollback_if_open(conn)
            if not snapshot:
                yield conn
                return
            await conn.execute("BEGIN")
            try:
                yield conn
            finally:
                await rollback_if_open(conn)  # nothing to keep: ends the read snapshot

    async def backup(self, target_path: PathLike) -> Path:
        """Copy the database, consistently, while the bot runs; return the copy's path.

        SQLite's online backup API copies the committed state in one step (between
        our transactions: it takes the lock). The copy is written beside the
        target, switched to a self-contained rollback journal, checked with
        `PRAGMA integrity_check`, then renamed over `target_path`.
        """
        target, temporary = await asyncio.to_thread(prepare_backup, self.path, target_path)
        try:
            copy = await aiosqlite.connect(temporary, isolation_level=None)
            try:
                async with self._locked() as conn:
                    await conn.backup(copy)
                await copy.execute("PRAGMA journal_mode = DELETE")
                async with copy.execute("PRAGMA integrity_check") as cursor:
                    result = [row[0] for row in await cursor.fetchall()]
            finally:
                await copy.close()
            if result != ["ok"]:
                raise DatabaseError(f"backup of {self.path} failed its integrity check: {result}")
            await asyncio.to_thread(os.replace, temporary, target)
        except BaseException as exc:
            await asyncio.to_thread(remove_files, temporary)
            if disk_full(exc):
                raise DiskFullError(f"backup {target}: the disk is full", self) from exc
            raise
        log.info("backed up database %s to %s", self.path, target)
        return target

    @contextlib.asynccontextmanager
    async def _locked(self, *, reading: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        task = asyncio.current_task()
        if task is not None and task in self._holders:
            raise RuntimeError(
                "this task already holds the database; do not nest transaction()/read()"
            )
        async with self._read_lock if reading else self._lock:
            conn = self._reader if reading else self._conn
            if conn is None or self._conn is None:
                raise DatabaseError(f"database {self.path} is closed")
            if task is not None:
                self._holders.add(task)
            try:
                yield conn
            finally:
                self._holders.discard(task)
