"""The league's database as a file: is a path a SQLite file the bot can use,
which file it names now, a backup's temporary copy, the locks that keep one bot
(and no restore) on a file, and a read-only connection for the command line."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import TypeAlias

import aiosqlite

from bot.database_errors import (
    DatabaseError,
    DatabaseFileError,
    DatabaseTooNewError,
)

SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 5000
MEMORY = ":memory:"

PathLike: TypeAlias = str | os.PathLike[str]


FileStamp: TypeAlias = tuple[int, int, int, int]  # st_dev, st_ino, st_size, st_mtime_ns


def file_stamp(path: PathLike) -> FileStamp | None:
    """Which file `path` names and its last write, or None if nothing is there."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


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


def prepare_backup(source: PathLike, target_path: PathLike) -> tuple[Path, str]:
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


def remove_files(database: str) -> None:
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
