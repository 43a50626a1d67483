"""Approving a whole group at its edges: a group the night does not have is
named back as the commissioner would write it, and nothing is decided."""

from __future__ import annotations

import pytest

from bot.database import Database
from bot.services import approvals, picks, scores
from bot.services.errors import NotFound
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    discord_id,
    snapshot,
)


@pytest.mark.parametrize(("asked", "named"), [(" b1 ", "B1"), ("2", "2"), ("a2", "A2")])
async def test_a_group_the_night_does_not_have_is_refused_by_its_label(
    league: Database, asked: str, named: str
) -> None:
    await add_players(league, 3)
    await add_machines(league, 6)
    await picks.lock_picks(league, GUILD, now=at(SEASON_START, "19:15"))
    await scores.submit(league, GUILD, discord_id(1), 1, 1_000_000, now=at(SEASON_START, "20:00"))
    before = await snapshot(league)
    with pytest.raises(NotFound) as refused:
        await approvals.approve_all(league, GUILD, asked, by=COMMISSIONER,
                                    now=at(SEASON_START, "21:00"))  # fmt: skip
    assert str(refused.value) == f"There is no group {named} in week 1."
    assert await snapshot(league) == before
