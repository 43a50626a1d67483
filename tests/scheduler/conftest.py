"""The scheduler's tests: a real SQLite file, a league of six players and six
machines, a clock the test sets (never a real wait), and the real outbox
sender delivering the posts to a fake channel."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.database import Database
from bot.migrate import migrate
from bot.models import OutboxItem
from bot.repositories import outbox_items
from bot.scheduler import LeagueScheduler
from bot.services import machine_list, membership, setup
from tests.cogs.fakes import ANNOUNCEMENTS, GUILD, FakeBot, shown  # the fake bot's server

NEW_YORK = ZoneInfo("America/New_York")
FIRST = date(2026, 3, 4)  # a Wednesday; US daylight saving time starts Sunday 8 March 2026


def at(day: date, clock: str) -> datetime:
    hour, minute = map(int, clock.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=NEW_YORK)


class Channel:
    """The announcement channel as the bot reaches it: the scheduler owes its
    posts to the outbox and wakes its sender; the real sender (bot/delivery, not
    started) delivers them to a fake Discord channel when the test looks."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.bot = FakeBot(db, Path(db.path).parent)
        self.woken = 0

    def wake(self) -> None:
        """The scheduler's `wake` (LeagueBot passes its sender's)."""
        self.woken += 1

    @property
    def refuse(self) -> bool:
        return self.bot.channels[ANNOUNCEMENTS].refuse

    @refuse.setter
    def refuse(self, refuse: bool) -> None:
        """Answer 403 Missing Permissions, as Discord does without Send Messages."""
        self.bot.channels[ANNOUNCEMENTS].refuse = refuse

    async def posts(self) -> list[str]:
        """Deliver what is owed, then every post in the channel, oldest first."""
        await self.bot.outbox.flush()
        return [shown(m) for m in self.bot.channels[ANNOUNCEMENTS].sent]

    async def of(self, marker: str) -> list[str]:
        return [p for p in await self.posts() if marker in p]

    async def owed(self) -> list[str]:
        """The keys of the posts owed to the outbox and not yet delivered."""
        async with self.db.read() as conn:
            waiting = await outbox_items.waiting(conn, GUILD)
        return [i.ref for i in waiting if i.kind == "post"]

    async def item(self, key: str) -> OutboxItem | None:
        """The outbox's record of the post `key`."""
        async with self.db.read() as conn:
            return await outbox_items.last_of(conn, GUILD, "post", key)


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
        await membership.add_player(database, guild, f"P{n}", discord_id=n, skill=11 - n, now=now)
    for n in range(6):
        await machine_list.add_machine(database, guild, f"M{n}", par=10**9, now=now)


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
    scheduler = LeagueScheduler(db, GUILD, channel.wake, clock=lambda: now, **kwargs)  # type: ignore[arg-type]
    await scheduler.start(paused=True)
    return scheduler
