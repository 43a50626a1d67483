"""Which league nights the server's Events should show (R1.3, R13.4): playoff
night too, with its own words (no late notices on playoff night); a finalized
night no more; none without a venue. Through the real services and database;
the events themselves are played through the stand-in
(tests/e2e/test_night_events_e2e.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.services import night_events, night_setup, server_setup, setup
from bot.ui.events import event_fields
from tests.cogs.conftest import at
from tests.cogs.fakes import GUILD, FakeBot
from tests.cogs.league_play import play_week
from tests.moments import SETTING_AT

SIX = {n: (700 - 100 * n) * 1_000_000 for n in range(1, 7)}


async def test_r13_4_playoff_night_is_an_event_once_the_last_night_is_played(
    league: FakeBot,
) -> None:
    await server_setup.set_up(league.db, GUILD, 5, 6, 7, by=1, now=SETTING_AT)
    await night_setup.change(league.db, GUILD, venue="Pinball Pub")
    before, _ = await night_events.wanted(league.db, GUILD, at(date(2026, 1, 6)))
    assert [w.week for w in before] == list(range(1, 11))  # the ten regular nights
    await setup.change_setting(league.db, GUILD, "regular_nights", 1, now=SETTING_AT)
    await play_week(league, 1, SIX)  # the season's only night, finalized
    after, live = await night_events.wanted(league.db, GUILD, at(date(2026, 1, 8)))
    (finale,) = after
    assert finale.week is None and finale.night_id in live
    assert finale.starts == datetime(2026, 1, 15, 0, 15, tzinfo=UTC)  # 19:15 in New York
    fields = event_fields(finale)
    assert fields["name"] == "League · Playoff night"
    assert "/late" not in fields["description"]  # R13.4: no late notices on playoff night
    assert fields["entity_metadata"] == {"location": "Pinball Pub"}


async def test_no_venue_no_events_and_nothing_kept_live(league: FakeBot) -> None:
    await server_setup.set_up(league.db, GUILD, 5, 6, 7, by=1, now=SETTING_AT)
    assert await night_events.wanted(league.db, GUILD, at(date(2026, 1, 6))) == ([], set())
