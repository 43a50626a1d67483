"""One quick read, run inline on the event loop: `Database.read(snapshot=False)`.

Every aiosqlite query is a trip to the connection's thread and back through the
event loop; when the loop is busy (a whole room submitting scores) each trip
waits its turn, which costs far more than a single indexed lookup. A check that
must finish before a command can acknowledge (is there a season? are there
divisions?) therefore runs here: one statement on a read-only connection, in
the loop's own thread. With WAL a reader never waits for the writer; the short
busy timeout bounds the rare wait (WAL recovery) to a few milliseconds.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

BUSY_TIMEOUT_MS = 50


class QuickReader:
    """The connection-like object `read(snapshot=False)` yields for a file database:
    `execute_fetchall` only, never a transaction, never a write."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> QuickReader:
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        # Used on the loop's thread; check_same_thread=False lets a database opened
        # on one thread be used on another, as its aiosqlite connections can.
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        conn.execute("PRAGMA query_only = ON")
        return cls(conn)

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Runs at once, without giving the loop away: one statement, its own snapshot."""
        return self._conn.execute(sql, tuple(parameters)).fetchall()

    def close(self) -> None:
        self._conn.close()
