"""/setup (the league's places in its Discord server) as the cogs meet it:
a member without Manage Server is refused, privately, and nothing is saved.
The set-up itself, with Discord's channels, roles and permissions, is played
through the stand-in (tests/e2e/test_two_leagues_e2e.py)."""

from __future__ import annotations

import pytest

from bot.services import night_setup, server_setup
from bot.services.errors import BadInput
from cogs.server.server_cog import Server
from tests.cogs.conftest import PLAYERS, as_user
from tests.cogs.examples import Example
from tests.cogs.fakes import GUILD, FakeBot, invoke
from tests.moments import SETTING_AT

EXAMPLES = [
    Example("setup", Server(), "setup", {"announcements": None, "approvals": None,
                                         "commissioners": None}),
    Example("setup-night", Server(), "setup_night", {}),
]  # fmt: skip
COG = Server()


async def test_setup_is_refused_to_a_member_without_manage_server(league: FakeBot) -> None:
    before = await server_setup.of(league.db, GUILD)
    said = await invoke(COG.setup, COG, as_user(league, PLAYERS[1], SETTING_AT),
                        announcements=None, approvals=None, commissioners=None)  # fmt: skip
    assert said.text == "Only a server administrator (Manage Server) can set up the league here."
    assert said.replies[0].ephemeral
    assert await server_setup.of(league.db, GUILD) == before


async def test_the_two_channels_must_differ(league: FakeBot) -> None:
    with pytest.raises(BadInput, match="The announcements and approvals channels must differ"):
        await server_setup.set_up(league.db, GUILD + 1, 5, 5, 6, by=1, now=SETTING_AT)
    assert await server_setup.of(league.db, GUILD + 1) is None


async def test_setup_night_is_refused_to_a_member_without_manage_server(league: FakeBot) -> None:
    before = await night_setup.setup_of(league.db, GUILD)
    said = await invoke(COG.setup_night, COG, as_user(league, PLAYERS[1], SETTING_AT),
                        venue="Pinball Pub", group_threads=True)  # fmt: skip
    assert said.text == "Only a server administrator (Manage Server) can set up the league here."
    assert said.replies[0].ephemeral
    assert await night_setup.setup_of(league.db, GUILD) == before


@pytest.mark.parametrize(
    ("venue", "why"),
    [
        ("\u200b\u2060", "The venue has nothing in it that shows"),
        ("Pub\x07", "The venue has a control character in it"),
    ],
)
async def test_a_venue_that_shows_nothing_is_refused_and_nothing_changes(
    league: FakeBot, venue: str, why: str
) -> None:
    await server_setup.set_up(league.db, GUILD, 5, 6, 7, by=1, now=SETTING_AT)
    before = await night_setup.setup_of(league.db, GUILD)
    with pytest.raises(BadInput) as refused:
        await night_setup.change(league.db, GUILD, venue=venue, group_threads=True)
    assert str(refused.value).startswith(why)
    assert await night_setup.setup_of(league.db, GUILD) == before


async def test_none_as_the_venue_turns_the_events_off(league: FakeBot) -> None:
    await server_setup.set_up(league.db, GUILD, 5, 6, 7, by=1, now=SETTING_AT)
    on = await night_setup.change(league.db, GUILD, venue="  Pinball   Pub ")
    assert on.setup.venue == "Pinball Pub" and on.changed == ("venue",)
    off = await night_setup.change(league.db, GUILD, venue="None")
    assert off.setup.venue is None


async def test_a_weekday_that_is_no_weekday_is_refused(league: FakeBot) -> None:
    await server_setup.set_up(league.db, GUILD, 5, 6, 7, by=1, now=SETTING_AT)
    with pytest.raises(BadInput, match="'Caturday' is not a weekday"):
        await night_setup.change(league.db, GUILD, weekday="Caturday")
