"""A real SQLite file per test, migrated by the real runner, and a league to play in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.database import Database
from bot.migrate import migrate
from bot.models import Night, Notice
from bot.repositories import nights
from bot.services import approvals, finalize, machine_list, membership, picks, scores, setup
from bot.services.context import night_on, season_of
from cogs.closing import closing

GUILD = 1001
COMMISSIONER = 9001
NEW_YORK = ZoneInfo("America/New_York")
SEASON_START = date(2026, 1, 7)  # a Wednesday


def at(day: date, clock: str = "12:00") -> datetime:
    """A moment in the league's wall-clock time."""
    hour, minute = map(int, clock.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=NEW_YORK)


def discord_id(number: int) -> int:
    """Player P<number>'s Discord id."""
    return 5000 + number


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    path = tmp_path / "league.sqlite3"
    await migrate(path)
    database = await Database.open(path)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def league(db: Database) -> Database:
    """A league with a 10-night season from 7 January 2026."""
    now = at(date(2026, 1, 1))
    await setup.create_league(db, GUILD, "Koi's Pinball League", now=now)
    await setup.start_season(db, GUILD, "Spring 2026", SEASON_START, now=now)
    return db


async def add_players(db: Database, count: int) -> None:
    """P1 … Pn, skill 10 down to 1 (P1 is the best), Discord ids 5001 …"""
    for n in range(1, count + 1):
        await membership.add_player(
            db, GUILD, f"P{n}", discord_id=discord_id(n), skill=max(1, 11 - n),
            now=at(date(2026, 1, 2)),
        )  # fmt: skip


async def add_machines(db: Database, count: int, par: int | None = 1_000_000_000) -> list[str]:
    names = [f"Machine {chr(ord('A') + i)}" for i in range(count)]
    for name in names:
        await machine_list.add_machine(db, GUILD, name, par=par, now=at(date(2026, 1, 2)))
    return names


async def notices_on(db: Database, day: date, guild: int = GUILD) -> tuple[Night, list[Notice]]:
    """The league night on `day` and its live notices, read as stored (R1.2, R2)."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild)
        night = await night_on(conn, ctx, day)
        return night, await nights.notices(conn, night.id)


async def snapshot(db: Database) -> list[str]:
    """The whole database as SQL, to show that a refusal changed nothing."""
    async with db.read() as conn:
        return [line async for line in conn.iterdump()]


@pytest.fixture
async def players(league: Database) -> Database:
    """The league with P1-P3 and six machines."""
    await add_players(league, 3)
    await add_machines(league, 6)
    return league


async def play_week_1(db: Database) -> None:
    """P1-P3 play all five games of week 1 (scores 300M, 200M, 100M), approved
    at 22:00."""
    night = SEASON_START
    await picks.lock_picks(db, GUILD, now=at(night, "19:15"))
    for number, score in ((1, 300_000_000), (2, 200_000_000), (3, 100_000_000)):
        for game in range(1, 6):
            await scores.submit(db, GUILD, discord_id(number), game, score, now=at(night, "20:00"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(night, "22:00"))


async def finalize_week_1(db: Database) -> None:
    """`play_week_1`, and the night finalized at 23:00."""
    await play_week_1(db)
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))


async def close_running(db: Database, now: datetime) -> None:
    """The running season closed by the commissioner, confirmed (R13.6), so the
    next can start."""
    await closing.close(db, GUILD, confirm=True, now=now)
