"""/league admin status names the bot's installed version on its first line."""

from __future__ import annotations

from importlib import metadata

from tests.cogs.fakes import FakeBot
from tests.cogs.test_outbox_cog import league_command


async def test_status_names_the_installed_version_of_the_bot(league: FakeBot) -> None:
    text = await league_command(league, "admin status")
    assert text.split("\n")[0] == f"**League bot {metadata.version('league-bot')}**"
