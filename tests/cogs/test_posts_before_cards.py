"""Posts made before the scorecards, in a league that upgraded mid-season: an
approval post of one score still owed by the outbox is sent with its own
Approve and Reject buttons, they decide the score, and a later correction of
that score edits the old post as well as the group's card (R12); a
pre-makeup's old post likewise, its day's card following."""

from __future__ import annotations

from bot.services import approvals, outbox
from cogs.scores import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, FakeMessage, card_text, click, invoke
from tests.cogs.league_play import lock
from tests.cogs.test_outbox_cog import TONIGHT, league_command, score

HEAD = "Week 1 · Group 1 · Game 1 · Medieval Madness\n**P1**: 300,000,000\n"


async def old_post(bot: FakeBot) -> FakeMessage:
    """P1's 300M on game 1 (on its card), and its own approval post, owed as the
    bot owed it before the cards and sent now."""
    await lock(bot)
    await score(bot, 1, 1, "300M")
    async with bot.db.transaction() as conn:
        await outbox.owe_approval(conn, GUILD, "score:1", now=TONIGHT)
    await bot.outbox.flush()
    [_, posted] = bot.channels[APPROVALS].sent
    return posted


async def test_r12_an_old_approval_post_is_sent_with_buttons_that_decide_its_score(
    league: FakeBot,
) -> None:
    bot = league
    posted = await old_post(bot)
    assert posted.content == HEAD + "Waiting for the commissioner."
    assert posted.view is not None
    assert [b.custom_id for b in posted.view.children] == ["score:approve:1", "score:reject:1"]  # type: ignore[attr-defined]
    clicked = await click(posted.button("Approve"), as_user(bot, COMMISSIONER, TONIGHT))
    assert clicked.edited == [HEAD + "Approved by Koi."]
    assert clicked.edited_views == [None]  # decided: no buttons left
    found = await approvals.score_approval(bot.db, 1)
    assert found is not None and found.score is not None
    assert found.score.score.status == "approved"
    card = bot.channels[APPROVALS].sent[0]
    assert "P1 300,000,000 ✓" in card_text(card)


async def test_r12_a_correction_edits_the_old_post_of_the_score_it_changes(
    league: FakeBot,
) -> None:
    bot = league
    posted = await old_post(bot)
    await click(posted.button("Approve"), as_user(bot, COMMISSIONER, TONIGHT))
    text = await league_command(bot, "score change", kind="correction", week=1, player="P1",
                                game=1, reason="typo", score="40M")  # fmt: skip
    assert text == "P1, week 1 game 1: 300,000,000 → 40,000,000 (correction)."
    assert posted.content == HEAD + (
        "Approved, then changed by the commissioner: see the group's card."
    )
    assert posted.view is None and posted.edits == 1
    assert "P1 40,000,000 ✓" in card_text(bot.channels[APPROVALS].sent[0])


async def test_an_old_post_not_sent_yet_is_not_edited_before_it_is(league: FakeBot) -> None:
    """Its edit is owed while its post still waits (refused): the refusal fails
    the channel's queue, the edit with the post; resent, the post shows the score
    as it stands."""
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "300M")
    bot.channels[APPROVALS].refuse = True
    async with bot.db.transaction() as conn:
        await outbox.owe_approval(conn, GUILD, "score:1", now=TONIGHT)
        await outbox.owe_update(conn, GUILD, "score:1", now=TONIGHT)
    await bot.outbox.flush()
    report = await outbox.status(bot.db, GUILD)
    assert report.waiting == []  # the post and its edit: failed together, kept
    bot.channels[APPROVALS].refuse = False
    assert (await league_command(bot, "admin resend")).startswith("2 failed posts will be sent")
    posted = [m for m in bot.channels[APPROVALS].sent if m.content.startswith(HEAD)]
    assert [m.content for m in posted] == [HEAD + "Waiting for the commissioner."]


async def test_an_old_pre_makeup_post_decides_it_and_its_day_card_follows(
    league: FakeBot,
) -> None:
    bot = league
    scores_cog = Scores()
    said = await invoke(scores_cog.premakeup, scores_cog,
                        as_user(bot, PLAYERS[3], at(FIRST_NIGHT, "18:00")),
                        machine="Twilight Zone", score="300M", with_=PLAYERS[1])  # fmt: skip
    assert "**P3**: 300,000,000 (with P1)" in said.text
    async with bot.db.transaction() as conn:
        await outbox.owe_approval(conn, GUILD, "premakeup:1", now=TONIGHT)
    await bot.outbox.flush()
    [card, posted] = bot.channels[APPROVALS].sent
    head = "Pre-makeup · Twilight Zone\n**P3**: 300,000,000 (with P1)\n"
    assert posted.content == head + "Waiting for the commissioner."
    assert posted.view is not None
    assert [b.custom_id for b in posted.view.children] == [  # type: ignore[attr-defined]
        "premakeup:approve:1", "premakeup:reject:1",
    ]  # fmt: skip
    clicked = await click(posted.button("Reject"), as_user(bot, COMMISSIONER, TONIGHT))
    assert clicked.edited == [head + "Rejected by Koi."]
    assert "300,000,000 ✗ (with P1)" in card_text(card)  # the day's card follows


async def test_r12_an_old_post_decided_on_its_card_loses_its_buttons(league: FakeBot) -> None:
    """A score with an old post of its own, approved on the group's card: the
    outbox words the old post as decided and takes its buttons off, so no one
    is left clicking Approve or Reject on a decided score."""
    bot = league
    posted = await old_post(bot)
    said = await league_command(bot, "night approve-all", group="1")
    assert said.startswith("Approved 1 score")
    assert posted.content == HEAD + f"Approved by <@{COMMISSIONER.id}>."  # shown as a name
    assert posted.view is None and posted.edits == 1
