"""The season's length changed once nights are played or dates skipped
(R1.1, R1.2): it keeps at least the weeks played, and the nights added skip
the skipped dates."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.repositories import leagues
from bot.services import setup, skips
from bot.services.context import season_of
from bot.services.errors import WrongState
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, add_machines, add_players, at
from tests.services.test_season import play_week


async def test_r1_1_the_season_keeps_at_least_the_weeks_played(league: Database) -> None:
    """Three weeks played: the season can be cut to 3 nights, not to 2, and the
    refusal names the last week played."""
    db = league
    await setup.change_setting(db, GUILD, "division_week", 5, now=SETTING_AT)
    await add_players(db, 10)
    await add_machines(db, 6)
    for week in (1, 2, 3):
        await play_week(db, week)
    with pytest.raises(WrongState) as refused:
        await setup.change_setting(db, GUILD, "regular_nights", 2, now=SETTING_AT)
    assert str(refused.value) == "Week 3 has already been played; keep at least that many."
    changed = await setup.change_setting(db, GUILD, "regular_nights", 3, now=SETTING_AT)
    assert changed.shown == "3"


async def test_r1_2_nights_added_to_the_season_skip_the_skipped_dates(league: Database) -> None:
    """Week 10 was moved past a skipped date; an 11th night comes a week later,
    never on the skipped date."""
    db = league
    await skips.skip_date(db, GUILD, date(2026, 2, 4), "closed", now=at(date(2026, 1, 2)))
    await setup.change_setting(db, GUILD, "regular_nights", 11, now=SETTING_AT)
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        dates = [n.date for n in await leagues.nights(conn, ctx.season.id)]
    assert date(2026, 2, 4) not in dates
    assert dates[-2:] == [date(2026, 3, 18), date(2026, 3, 25)]
