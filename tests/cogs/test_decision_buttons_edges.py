"""The Approve / Reject buttons of an approval post: their colours, and what a
click on an old per-score post leaves behind."""

from __future__ import annotations

import discord

from bot.components.approvals import DecisionButton, decision_view
from bot.services import approvals, picks
from cogs.scores import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, at
from tests.cogs.fakes import GUILD, FakeBot, FakeInteraction, click, invoke

TONIGHT = at(FIRST_NIGHT, "20:00")


def test_approve_is_green_and_reject_is_red() -> None:
    [row] = decision_view("score", 42).to_components()
    assert [(b["label"], b["style"], b["custom_id"]) for b in row["components"]] == [
        ("Approve", discord.ButtonStyle.success.value, "score:approve:42"),
        ("Reject", discord.ButtonStyle.danger.value, "score:reject:42"),
    ]


async def test_an_old_score_posts_approve_records_the_commissioner_and_drops_its_buttons(
    league: FakeBot,
) -> None:
    """The exports name who decided; the decided post has no buttons left to click."""
    await picks.lock_picks(league.db, GUILD, now=at(FIRST_NIGHT, "19:15"))
    cog = Scores()
    await invoke(
        cog.score, cog, FakeInteraction(league, PLAYERS[1], TONIGHT), game=1, score="1,000"
    )
    score_id = (await approvals.pending(league.db, GUILD))[0].score.id
    clicked = FakeInteraction(league, COMMISSIONER, TONIGHT)
    done = await click(DecisionButton("score", "approve", score_id), clicked)
    assert done.edited and done.edited[0].endswith("Approved by Koi.")
    assert clicked.said.edited_views == [None]  # the buttons removed, not left
    found = await approvals.score_approval(league.db, score_id)
    assert found is not None and found.decider_id == COMMISSIONER.id
