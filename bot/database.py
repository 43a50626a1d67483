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
import errno
import logging
import os
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Self, TypeAlias

import aiosqlite

from bot.quick_reads import QuickReader

log = logging.getLogger(__name__)

SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 5000
MEMORY = ":memory:"

PathLike: TypeAlias = str | os.PathLike[str]


class DatabaseError(Exception):
    """The database cannot be opened, migrated or copied. The message says why."""


class DatabaseFileError(DatabaseError):
    """The path does not lead to a usable SQLite database file."""


class MigrationError(DatabaseError):
    """A migration file is misnumbered, malformed or failed; nothing of it was applied."""


class DatabaseTooNewError(DatabaseError):
    """The database was migrated by a newer bot than this one."""


MOVED_MESSAGE = (
    "The league's database file was moved or replaced while the bot was running; "
    "the commissioner has been told. Nothing was saved."
)


class _TellsOnce(DatabaseError):
    """A fault the commissioner is told of once: `claim_alert()` is True for the
    first error of its kind until the database's flag `told` is put back."""

    user_message: str
    alert_message: str
    told = ""  # the attribute of `Database` that says the commissioner was told

    def __init__(self, message: str, database: Database | None = None) -> None:
        super().__init__(message)
        self._database = database

    def claim_alert(self) -> bool:
        db = self._database
        if db is None or getattr(db, self.told):
            return False
        setattr(db, self.told, True)
        return True


class DatabaseMovedError(_TellsOnce):
    """The file the bot opened is no longer the file at its path (deleted, replaced or
    overwritten by something else). The transaction was rolled back; no write is taken
    until the bot is restarted.

    `user_message` is what a user is shown (`bot.ui.replies` reads it by name, as the
    ui layer does not import storage); `claim_alert()` is True exactly once per
    database, so the commissioner is told once."""

    user_message = MOVED_MESSAGE
    alert_message = f"{MOVED_MESSAGE} The bot takes no more changes until it is restarted."
    told = "_alerted"


DISK_FULL_MESSAGE = (
    "The bot's computer has run out of disk space, so nothing was saved. The "
    "commissioner has been told; try again once there is room."
)
DISK_FULL_ALERT = (
    "The bot's computer has run out of disk space, so the bot cannot save scores, "
    "notices or approvals. Free some space on it; the bot goes on by itself once there "
    "is room."
)


class DiskFullError(_TellsOnce):
    """SQLite could not write: the disk (or the file system holding the database)
    is full. The transaction was rolled back; the next one is tried as usual, so
    the bot goes on once there is room. `claim_alert()` is True once per episode
    (until a write succeeds again), so the commissioner is told once."""

    user_message = DISK_FULL_MESSAGE
    alert_message = DISK_FULL_ALERT
    told = "_full_alerted"


def disk_full(error: BaseException) -> bool:
    """Whether `error` is SQLite's SQLITE_FULL or the system's ENOSPC."""
    if isinstance(error, sqlite3.OperationalError):
        return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return isinstance(error, OSError) and error.errno == errno.ENOSPC


FileStamp: TypeAlias = tuple[int, int, int, int]  # st_dev, st_ino, st_size, st_mtime_ns


def file_stamp(path: PathLike) -> FileStamp | None:
    """Which file `path` names and its last write, or None if nothing is there."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


# --- opening --------------------------------------------------------------------------------


def check_database_path(path: PathLike) -> None:
    """Raise `DatabaseFileError` unless `path` is, or can become, a SQLite database.

    Only reads: an existing non-empty file must start with SQLite's 16-byte header,
    and its directory must be writable (WAL keeps `-wal` and `-shm` files beside it).
    """
    if os.fspath(path) == MEMORY:
        return
    file = Path(path)
    folder = file.parent
    if file.is_dir():
        raise DatabaseFileError(f"{file} is a directory, not a SQLite database")
    if not folder.is_dir():
        raise DatabaseFileError(f"cannot create database {file}: {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DatabaseFileError(
            f"cannot use database {file}: directory {folder} is not writable "
            "(SQLite keeps its -wal and -shm files there)"
        )
    if not file.exists():
        return
    try:
        with file.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise DatabaseFileError(f"cannot read database {file}: {exc.strerror}") from exc
    if header and header != SQLITE_HEADER:
        raise DatabaseFileError(f"{file} is not a SQLite database")
    if not os.access(file, os.W_OK):
        raise DatabaseFileError(f"database {file} is not writable")


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
        target, temporary = await asyncio.to_thread(_prepare_backup, self.path, target_path)
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
            await asyncio.to_thread(_remove_files, temporary)
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


def _prepare_backup(source: PathLike, target_path: PathLike) -> tuple[Path, str]:
    """The backup's final path, and an empty temporary file beside it to copy into."""
    target = Path(target_path).resolve()
    if os.fspath(source) != MEMORY and target == Path(source).resolve():
        raise DatabaseError(f"cannot back up {source} onto itself")
    if not target.parent.is_dir():
        raise DatabaseFileError(f"cannot write backup {target}: {target.parent} is not a directory")
    try:
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as exc:
        raise DatabaseFileError(f"cannot write backup {target}: {exc.strerror}") from exc
    os.close(handle)
    return target, temporary


def _remove_files(database: str) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(database + suffix)


# --- while the bot runs, and putting a backup back -------------------------------------------


def hold_file(path: PathLike) -> int | None:
    """Hold a shared `flock` on the database file while the bot has it open, so that
    `restore` can tell (several `Database`s may share it; SQLite's own locks are
    `fcntl` locks, which `flock` does not touch on Linux). None where there is no flock."""
    try:
        import fcntl
    except ImportError:  # not on POSIX: restore cannot check (docs/operating.md)
        return None
    fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise DatabaseError(
            f"database {path} is being restored; start the bot when that is done"
        ) from None
    return fd


class AlreadyRunning(DatabaseError):
    """Another bot process runs on this database."""


class OneBot:
    """This process is the one bot on a database: an exclusive `flock` on
    `<database>.lock` (which holds the process id), kept until `release()` or
    the end of the process, SIGKILL included. A second `league-bot run` on the
    same database gets `AlreadyRunning`. `release()` removes the file while
    still holding it; a process that opened the old file meanwhile sees that
    the path names another file now and opens it again."""

    def __init__(self, path: str, fd: int) -> None:
        self.path, self._fd = path, fd

    @classmethod
    def hold(cls, database: PathLike) -> OneBot | None:
        """None for an in-memory database or where there is no flock."""
        if os.fspath(database) == MEMORY:
            return None
        try:
            import fcntl
        except ImportError:
            return None
        path = f"{os.fspath(database)}.lock"
        while True:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise DatabaseFileError(f"cannot make the lock file {path}: {exc.strerror}") from (
                    exc
                )
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 32).decode(errors="replace").strip()
                os.close(fd)
                who = f" (process {holder})" if holder.isdigit() else ""
                raise AlreadyRunning(
                    f"another league-bot{who} is already running on {database}; one bot per "
                    "database: stop the other first"
                ) from None
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # released and removed by the bot before us: open the new one
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return cls(path, fd)

    def release(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        os.close(self._fd)


def _read_only_uri(file: Path) -> str:
    """The URI that opens `file` read-only, once it is seen to be a SQLite file."""
    if not file.is_file():
        raise DatabaseFileError(f"there is no database at {file}")
    try:
        with file.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise DatabaseFileError(f"cannot read database {file}: {exc.strerror}") from exc
    if header != SQLITE_HEADER:
        raise DatabaseFileError(f"{file} is not a SQLite database")
    return file.resolve().as_uri() + "?mode=ro"


async def open_read_only(path: PathLike, *, latest_version: int) -> aiosqlite.Connection:
    """A read-only connection to a league database a bot may be using (the
    command-line export): never created, never migrated, never written. Refused
    (one-line `DatabaseError`) if missing, not SQLite, not a league's database,
    or at another schema version than this bot's `latest_version`."""
    file = Path(path)
    uri = await asyncio.to_thread(_read_only_uri, file)
    try:
        conn = await aiosqlite.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise DatabaseFileError(f"cannot open database {file}: {exc}") from exc
    conn.row_factory = aiosqlite.Row
    try:
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        versions = list(await conn.execute_fetchall("PRAGMA user_version"))
        (version,) = versions[0]
    except sqlite3.Error as exc:
        await conn.close()
        raise DatabaseFileError(f"cannot read database {file}: {exc}") from exc
    if version == latest_version:
        return conn
    await conn.close()
    if version < 1:
        raise DatabaseError(f"{file} is not a league database (schema version {version})")
    if version > latest_version:
        raise DatabaseTooNewError(
            f"{file} has schema version {version}, newer than this bot ({latest_version}); "
            "upgrade the bot first"
        )
    raise DatabaseError(
        f"{file} has schema version {version}, older than this bot ({latest_version}); "
        "start the bot once (it upgrades the database), then export"
    )
