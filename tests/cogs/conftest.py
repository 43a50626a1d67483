"""Cogs over real services and a real SQLite file, driven by fake interactions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.database import Database
from bot.migrate import migrate
from bot.services import machine_list, membership, setup
from tests.cogs.fakes import (
    COMMISSIONER_ROLE,
    GUILD,
    FakeBot,
    FakeInteraction,
    FakeMember,
    FakeRole,
)

NEW_YORK = ZoneInfo("America/New_York")
FIRST_NIGHT = date(2026, 1, 7)
COMMISSIONER = FakeMember(700000000000000001, "Koi", [FakeRole(COMMISSIONER_ROLE)])
PLAYERS = {n: FakeMember(800000000000000000 + n, f"P{n}") for n in range(1, 8)}


def at(day: date, clock: str = "12:00") -> datetime:
    hour, minute = map(int, clock.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=NEW_YORK)


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[FakeBot]:
    path = tmp_path / "league.sqlite3"
    await migrate(path)
    db = await Database.open(path)
    try:
        yield FakeBot(db, tmp_path)
    finally:
        await db.close()


@pytest.fixture
async def league(bot: FakeBot) -> FakeBot:
    """A season from 7 January 2026, six players and six machines (par 1,000M)."""
    now = at(date(2026, 1, 1))
    await setup.create_league(bot.db, GUILD, "League", now=now)
    await setup.start_season(bot.db, GUILD, "Spring", FIRST_NIGHT, now=now)
    for n in range(1, 7):
        await membership.add_player(
            bot.db, GUILD, f"P{n}", discord_id=PLAYERS[n].id, skill=11 - n, now=now
        )
    for name in ["Attack from Mars", "Medieval Madness", "Twilight Zone", "The Addams Family",
                 "Monster Bash", "Theatre of Magic"]:  # fmt: skip
        await machine_list.add_machine(bot.db, GUILD, name, par=1_000_000_000, now=now)
    return bot


def as_user(bot: FakeBot, member: FakeMember, when: datetime, **kwargs: object) -> FakeInteraction:
    return FakeInteraction(bot, member, when, **kwargs)  # type: ignore[arg-type]
