"""Run by test_kill_finalize.py in its own process: finalize week 1, then say so."""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime

from bot.database import Database
from bot.services import finalize


async def main(path: str) -> None:
    db = await Database.open(path)
    print("finalizing", flush=True)
    await finalize.finalize(db, 1, week=1, by=1, now=datetime(2026, 1, 8, 4, tzinfo=UTC))
    print("finalized", flush=True)
    await db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
