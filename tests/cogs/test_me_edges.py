"""/me at its edges (R3.5): a night an absent player was stood in for by a
pre-makeup score is counted as a pre-makeup night used."""

from __future__ import annotations

from datetime import date

from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import PLAYERS, as_user, at
from tests.cogs.fakes import FakeBot, invoke
from tests.cogs.test_exports_cog import played

COG = Standings()


async def test_r3_5_me_counts_the_pre_makeup_night_used(league: FakeBot) -> None:
    """P1 was absent in week 2, stood in for by a pre-makeup score."""
    bot = await played(league)
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 16))))
    assert "Pre-makeup nights used 1, left 2" in said.text
    other = await invoke(COG.me, COG, as_user(bot, PLAYERS[2], at(date(2026, 1, 16))))
    assert "Pre-makeup nights used 0, left 3" in other.text
