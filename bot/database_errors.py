"""What goes wrong with the league's database file, each a `DatabaseError`
whose message says why; the two faults the commissioner is told of once (the
file moved, the disk full) carry the words a user and the commissioner read."""

from __future__ import annotations

import errno
import sqlite3


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
    first error of its kind until the database's flag `told` is put back
    (`database`: the `bot.database.Database` that met it, which holds the flag)."""

    user_message: str
    alert_message: str
    told = ""  # the attribute of `Database` that says the commissioner was told

    def __init__(self, message: str, database: object | None = None) -> None:
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
