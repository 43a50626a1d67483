"""A full disk: every /league command is still answered, the commissioner is
told once in plain words, a command that must write says the disk is full and
changes nothing, and the bot goes on by itself once there is room.

The disk is made full the way SQLite meets it: on the bot's own connection
`PRAGMA max_page_count` forbids the file to grow, and the pages that could
still take a row are filled first (the commissioners' tables with another
server's rows), so SQLite answers SQLITE_FULL exactly as on a full disk."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from bot.database import Database
from bot.database_errors import DISK_FULL_ALERT, DISK_FULL_MESSAGE, DiskFullError
from bot.services import commissioners
from tests.cogs.conftest import COMMISSIONER_ROLE, FIRST_NIGHT, at
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, FakeMember, FakeRole
from tests.cogs.test_commissioner_cog import private, run
from tests.cogs.test_roster_import_cog import names, upload

MO = FakeMember(700000000000000099, "Mo", [FakeRole(COMMISSIONER_ROLE)])  # never seen before
LATER = at(FIRST_NIGHT, "23:30")
OTHER_SERVER = 999
SIZES = (4000, 1000, 250, 60, 15, 4, 1)


async def _stuff(db: Database, sql: str, params: Callable[[int], tuple[object, ...]]) -> None:
    """Insert rows of smaller and smaller sizes until not even the smallest fits."""
    for size in SIZES:
        while True:
            try:
                async with db.transaction() as conn:
                    await conn.execute(sql, params(size))
            except DiskFullError:
                break


async def fill_the_disk(db: Database) -> None:
    ids = itertools.count(1)
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE disk_filler (junk BLOB)")
        ((pages,),) = await conn.execute_fetchall("PRAGMA page_count")
        await conn.execute(f"PRAGMA max_page_count = {pages}")
    await _stuff(db, "INSERT INTO disk_filler VALUES (?)", lambda n: (b"x" * n,))
    await _stuff(db, "INSERT INTO commissioners VALUES (?, ?, ?)",
                 lambda n: (OTHER_SERVER, next(ids), "t" * n))  # fmt: skip
    await _stuff(db, "INSERT INTO member_names VALUES (?, ?, ?, ?)",
                 lambda n: (OTHER_SERVER, next(ids), "n" * min(n, 100), "t" * n))  # fmt: skip


async def make_room(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("PRAGMA max_page_count = 1073741823")


def roster(count: int) -> bytes:
    rows = "".join(f"Newcomer {n},,5\r\n" for n in range(count))
    return f"name,discord,skill\r\n{rows}".encode()


def alerts(bot: FakeBot) -> list[str]:
    return [m.content for m in bot.channels[APPROVALS].sent]


async def test_with_the_disk_full_the_league_commands_answer_and_say_so(
    league: FakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    bot = league
    await fill_the_disk(bot.db)
    before = await names(bot)

    status = await run(bot, "admin status", user=MO, when=LATER)  # recording Mo fails: no matter
    assert status.deferred is True and private(status)
    assert "schema version" in status.text
    assert "could not note whether member" in caplog.text

    for _ in range(2):  # a command that must write: refused, nothing changed, told once
        said = await run(bot, "player import", user=MO, when=LATER, file=upload(roster(300)))
        assert said.text == DISK_FULL_MESSAGE and private(said)
    assert await names(bot) == before
    assert alerts(bot) == [f"Commissioner: {DISK_FULL_ALERT}"]
    assert "the disk is full" in caplog.text and "Traceback" not in caplog.text

    await make_room(bot.db)  # space freed: the bot goes on, nothing to restart
    said = await run(bot, "player import", user=MO, when=LATER, file=upload(roster(300)))
    assert said.text.startswith("Imported 300 players")
    assert MO.id in await commissioners.recorded(bot.db, GUILD)
    assert alerts(bot) == [f"Commissioner: {DISK_FULL_ALERT}"]
