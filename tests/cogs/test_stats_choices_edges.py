"""/stats suggestions: what Discord shows in the list is the name itself."""

from __future__ import annotations

from cogs.stats.stats_cog import Stats
from tests.cogs.conftest import PLAYERS, as_user
from tests.cogs.fakes import FakeBot
from tests.cogs.test_stats_cog import LATER

COG = Stats()


async def test_a_suggestion_shows_the_name_it_fills_in(league: FakeBot) -> None:
    asker = as_user(league, PLAYERS[1], LATER)
    machines = await COG.machine_choices(asker, "mad")  # type: ignore[call-arg]
    assert [c.to_dict() for c in machines] == [
        {"name": "Medieval Madness", "value": "Medieval Madness"}
    ]
