"""The scheduler's tests: a real SQLite file, a league of six players and six
machines, and a clock the test sets (never a real wait)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.database import Database
from bot.migrate import migrate
from bot.scheduler import LeagueScheduler
from bot.services import setup

GUILD = 4242
NEW_YORK = ZoneInfo("America/New_York")
FIRST = date(2026, 3, 4)  # a Wednesday; US daylight saving time starts Sunday 8 March 2026


def at(day: date, clock: str) -> datetime:
    hour, minute = map(int, clock.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=NEW_YORK)


class Channel:
    """The announcement channel: records posts, or refuses them."""

    def __init__(self) -> None:
        self.posts: list[str] = []
        self.tries = 0
        self.refuse = False

    async def send(self, text: str) -> tuple[int, int]:
        self.tries += 1
        if self.refuse:
            raise PermissionError("403 Forbidden (error code: 50013): Missing Permissions")
        self.posts.append(text)
        return 77, 1000 + len(self.posts)

    def of(self, marker: str) -> list[str]:
        return [p for p in self.posts if marker in p]


class Clock:
    """The scheduler's clock, moved by the test."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def migrated(tmp_path: Path) -> Database:
    path = tmp_path / "league.sqlite3"
    await migrate(path)
    return await Database.open(path)


async def fill(database: Database, now: datetime, guild: int = GUILD) -> None:
    """P1 … P6 (Discord ids 1 … 6, skill 10 … 5: week 1 is P1-P3 and P4-P6, R8.2)
    and M0 … M5."""
    for n in range(1, 7):
        await setup.add_player(database, guild, f"P{n}", discord_id=n, skill=11 - n, now=now)
    for n in range(6):
        await setup.add_machine(database, guild, f"M{n}", par=10**9, now=now)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A league whose season starts on FIRST, set up days before."""
    database = await migrated(tmp_path)
    now = at(date(2026, 3, 1), "10:00")
    await setup.create_league(database, GUILD, "League", now=now)
    await setup.start_season(database, GUILD, "Spring", FIRST, now=now)
    await fill(database, now)
    try:
        yield database
    finally:
        await database.close()


async def started(
    db: Database, channel: Channel, now: datetime, **kwargs: object
) -> LeagueScheduler:
    scheduler = LeagueScheduler(db, GUILD, channel.send, clock=lambda: now, **kwargs)  # type: ignore[arg-type]
    await scheduler.start(paused=True)
    return scheduler
