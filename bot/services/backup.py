"""A consistent copy of the league's database while the bot runs."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from bot.database import Database
from bot.services.errors import BadInput


async def backup(db: Database, directory: str | Path, *, now: datetime) -> Path:
    """Write `league-YYYYMMDD-HHMMSS.sqlite3` into `directory` with SQLite's
    online backup API; the copy is checked with `PRAGMA integrity_check`."""
    folder = Path(directory)
    if not await asyncio.to_thread(folder.is_dir):
        raise BadInput(f"The backup folder {folder} does not exist.")
    name = f"league-{now.astimezone(UTC):%Y%m%d-%H%M%S}.sqlite3"
    return await db.backup(folder / name)
