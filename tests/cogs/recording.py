"""What a command did on the database before it acknowledged: the cog tests'
database records each read and transaction as it begins, beside the fake
response's "acknowledged" (`Said.events`, in order)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from bot.database import Database


class RecordedDatabase:
    """The real database, noting each read and transaction as it begins in
    `events` (while a test's interaction runs), so a test sees what a command
    did before it acknowledged."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.events: list[str] | None = None

    def _note(self, event: str) -> None:
        if self.events is not None:
            self.events.append(event)

    def transaction(self) -> Any:
        self._note("transaction")
        return self._db.transaction()

    def read(self, *, snapshot: bool = True) -> Any:
        self._note("read" if snapshot else "quick read")
        return self._db.read(snapshot=snapshot)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


@contextlib.contextmanager
def recording(interaction: Any) -> Iterator[None]:
    """Note the database's reads and transactions in `interaction.said.events`."""
    db = getattr(interaction.client, "db", None)
    if not isinstance(db, RecordedDatabase):
        yield
        return
    db.events = interaction.said.events
    try:
        yield
    finally:
        db.events = None
