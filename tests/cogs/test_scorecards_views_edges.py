"""The card's reject menus when the card changed since they were posted."""

from __future__ import annotations

import discord

from cogs.scorecards.scorecards_views import RejectSelect
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user
from tests.cogs.fakes import APPROVALS, FakeBot, click, invoke
from tests.cogs.test_scores_cog import COG, TONIGHT, locked


async def test_a_more_scores_option_past_what_still_waits_says_nothing_waits_there(
    league: FakeBot,
) -> None:
    """A "More scores…" option of a card that had many scores waiting, picked
    after most were decided: a private answer, no menu."""
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="1,000")
    [card] = bot.channels[APPROVALS].sent
    card_id = int(card.button("Reject a score…").item.custom_id.rsplit(":", 1)[1])
    stale = RejectSelect(card_id, [discord.SelectOption(label="More scores (25–30 of 30)…",
                                                        value="m24")])  # fmt: skip
    said = await click(stale, as_user(bot, COMMISSIONER, TONIGHT, message=card), ["m24"])
    assert [(r.content, r.ephemeral, r.view) for r in said.replies] == [
        ("Nothing waits for approval there any more.", True, None)
    ]
