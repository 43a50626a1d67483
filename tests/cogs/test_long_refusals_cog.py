"""A refusal about many scores stays one answer: the first few are named, the
rest counted, with where to see them all (a league of 36 players; the rules
name the missing scores of the first group that lacks some: 15 of group 1)."""

from __future__ import annotations

import pytest

from bot.services import membership, scores
from bot.services.finalize import LISTED
from tests.cogs.conftest import FIRST_NIGHT, at
from tests.cogs.fakes import GUILD, FakeBot
from tests.cogs.league_play import discord_id, lock
from tests.cogs.test_commissioner_cog import private, run

PLAYERS = 36  # 12 groups of 3: 180 scores a night


@pytest.fixture
async def big_league(league: FakeBot) -> FakeBot:
    for n in range(7, PLAYERS + 1):
        await membership.add_player(league.db, GUILD, f"P{n}", discord_id=discord_id(n), skill=3,
                                    now=at(FIRST_NIGHT, "09:00"))  # fmt: skip
    await lock(league)
    return league


async def test_a_finalize_missing_many_scores_is_one_answer(big_league: FakeBot) -> None:
    said = await run(big_league, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert private(said) and len(said.replies) == 1
    assert said.text.startswith("Week 1 cannot be finalized. Missing scores: P1 on game 1")
    assert " and 7 more (the group scorecards show every score not in yet)." in said.text
    assert said.text.count(" on game ") == LISTED
    assert len(said.text) < 2000


async def test_a_finalize_with_many_scores_waiting_points_at_the_waiting_list(
    big_league: FakeBot,
) -> None:
    for n in range(1, PLAYERS + 1):
        await scores.submit(big_league.db, GUILD, discord_id(n), 1, 1000 + n,
                            now=at(FIRST_NIGHT, "20:00"))  # fmt: skip
    said = await run(big_league, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert private(said) and len(said.replies) == 1
    assert said.text.startswith("Week 1 cannot be finalized. Scores waiting for approval: ")
    assert said.text.endswith(
        f" and {PLAYERS - LISTED} more (/league night waiting lists them all)."
    )
