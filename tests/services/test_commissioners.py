"""Commissioners the bot can DM without the members intent (issue #12): recorded
when they pass the role check, forgotten when an interaction shows the role gone."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.database import Database
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
