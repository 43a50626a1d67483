"""Commissioners the bot can DM without the members intent: recorded
when they pass the role check, forgotten when an interaction shows the role gone."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.database import Database
from bot.repositories import commissioners as commissioner_rows
from bot.services import commissioners

NOW = datetime(2026, 1, 7, 20, tzinfo=UTC)
KOI, MO = 700, 701


async def test_passing_the_role_check_records_and_losing_the_role_forgets(db: Database) -> None:
    assert await commissioners.recorded(db, 1001) == []
    await commissioners.seen(db, 1001, KOI, True, now=NOW)
    await commissioners.seen(db, 1001, KOI, True, now=NOW)  # seen again: still once
    await commissioners.seen(db, 1001, MO, False, now=NOW)  # never held it: nothing to forget
    assert await commissioners.recorded(db, 1001) == [KOI]
    assert await commissioners.recorded(db, 2002) == []  # per server
    await commissioners.seen(db, 1001, KOI, False, now=NOW)  # the role was taken away
    assert await commissioners.recorded(db, 1001) == []


async def names(db: Database, guild: int = 1001) -> dict[int, str]:
    async with db.read() as conn:
        return await commissioner_rows.names(conn, guild)


async def test_a_commissioners_name_is_kept_for_the_export(db: Database) -> None:
    """Who approved is named in an export even if they are no player."""
    await commissioners.seen(db, 1001, KOI, True, now=NOW, name="Koi")
    await commissioners.seen(db, 1001, MO, False, now=NOW, name="Mo")  # no role: not kept
    assert await names(db) == {KOI: "Koi"}
    await commissioners.seen(db, 1001, KOI, True, now=NOW, name="  Koi   the Great ")
    assert await names(db) == {KOI: "Koi the Great"}  # a new display name replaces the old
    await commissioners.seen(db, 1001, KOI, False, now=NOW, name="Koi")  # the role was taken
    assert await names(db) == {KOI: "Koi the Great"}  # what they approved stays named
    assert await names(db, 2002) == {}
