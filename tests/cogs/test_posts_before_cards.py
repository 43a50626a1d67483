"""Posts made before the scorecards, in a league upgraded mid-season. Scores are
decided on the cards only: a button of an old per-score post decides nothing,
for anyone, and says privately where the score is decided now; a per-score
post an old database still owes is not sent (the upgrade moves it onto the
card), while the card is."""

from __future__ import annotations

import pytest

from bot.components.approvals import DecisionButton
from bot.services import approvals, outbox
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, card_text, click
from tests.cogs.league_play import lock, snapshot
from tests.cogs.test_commissioner_cog import private
from tests.cogs.test_outbox_cog import TONIGHT, score

TO_THE_CARD = (
    "This post is replaced by the group's scorecard in this channel; "
    "approve or reject the score there."
)
TO_THE_DAY_CARD = (
    "This post is replaced by the player's pre-makeup card in this channel; "
    "approve or reject the score there."
)


@pytest.mark.parametrize("action", ["approve", "reject"])
@pytest.mark.parametrize("who", ["commissioner", "player"])
async def test_r5_an_old_score_posts_buttons_point_to_the_scorecard(
    league: FakeBot, action: str, who: str
) -> None:
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "300M")
    before = await snapshot(bot)
    member = COMMISSIONER if who == "commissioner" else PLAYERS[2]
    said = await click(DecisionButton("score", action, 1), as_user(bot, member, TONIGHT))
    assert said.text == TO_THE_CARD and private(said)
    assert await snapshot(bot) == before  # nothing decided, nothing owed
    [pending] = await approvals.pending(bot.db, GUILD)
    assert pending.score.status == "pending"


async def test_r3_1_an_old_pre_makeup_posts_buttons_point_to_its_card(league: FakeBot) -> None:
    bot = league
    before = await snapshot(bot)
    said = await click(
        DecisionButton("premakeup", "approve", 99), as_user(bot, COMMISSIONER, TONIGHT)
    )
    assert said.text == TO_THE_DAY_CARD and private(said)
    assert await snapshot(bot) == before


async def test_a_per_score_post_an_old_database_owes_is_not_sent(league: FakeBot) -> None:
    """An item for P1's own post and an edit of it, as a database from before
    the cards could hold them: dropped with the reason, nothing posted but the
    group's card, nothing left waiting or failed."""
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "300M")
    async with bot.db.transaction() as conn:
        await outbox.owe_approval(conn, GUILD, "score:1", now=TONIGHT)
        await outbox.owe_update(conn, GUILD, "score:1", now=TONIGHT)
    await bot.outbox.flush()
    [card] = bot.channels[APPROVALS].sent
    assert "P1 300,000,000 ⏳" in card_text(card)
    report = await outbox.status(bot.db, GUILD)
    assert (report.waiting, report.failed) == ([], [])
    async with bot.db.read() as conn:
        dropped = [tuple(r) for r in await conn.execute_fetchall(
            "SELECT kind, last_error FROM outbox WHERE ref = 'score:1'"
        )]  # fmt: skip
    assert dropped == [
        ("approval", "score:1: its post is replaced by its card"),
        ("approval_update", "score:1: its post is replaced by its card"),
    ]
