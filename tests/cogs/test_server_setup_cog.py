"""/setup (the league's places in its Discord server) as the cogs meet it:
a member without Manage Server is refused, privately, and nothing is saved.
The set-up itself, with Discord's channels, roles and permissions, is played
through the stand-in (tests/e2e/test_two_leagues_e2e.py)."""

from __future__ import annotations

import pytest

from bot.services import server_setup
from bot.services.errors import BadInput
from cogs.server.server_cog import Server
from tests.cogs.conftest import PLAYERS, as_user
from tests.cogs.examples import Example
from tests.cogs.fakes import GUILD, FakeBot, invoke
from tests.moments import SETTING_AT

EXAMPLES = [Example("setup", Server(), "setup", {"announcements": None, "approvals": None,
                                                  "commissioners": None})]  # fmt: skip
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
