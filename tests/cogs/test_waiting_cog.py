"""/league night waiting: tonight's scores still waiting for the commissioner,
group by group, paged (R5 approvals)."""

from __future__ import annotations

from bot.services import approvals, scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import GUILD, FakeBot, click, private_message
from tests.cogs.league_play import discord_id, lock, snapshot, submit_all
from tests.cogs.test_commissioner_cog import TONIGHT, WEEK_1, announced, private, run


async def test_the_scores_waiting_by_group_then_game(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await scores.submit(bot.db, GUILD, discord_id(4), 2, 1_250_000, now=TONIGHT)
    await scores.submit(bot.db, GUILD, discord_id(1), 1, 300_000_000, now=TONIGHT)
    before = await snapshot(bot)
    said = await run(bot, "night waiting", when=TONIGHT)
    assert private(said) and said.replies[0].view is None  # one page: no buttons
    assert said.text.split("\n") == [
        "Week 1: scores waiting",
        "**Group 1**",
        "P1 · 300,000,000",
        "  Game 1 · Medieval Madness",
        "**Group 2**",
        "P4 · 1,250,000",
        "  Game 2 · Twilight Zone",
    ]
    assert await snapshot(bot) == before and announced(bot) == []


async def test_nothing_waiting_says_so(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)  # every score approved
    said = await run(bot, "night waiting", when=TONIGHT)
    assert said.text == "Scores waiting\nNo scores are waiting for approval." and private(said)


async def test_a_long_wait_pages_and_only_the_commissioner_turns_it(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    for player in range(1, 7):
        for game in range(1, 6):
            await scores.submit(bot.db, GUILD, discord_id(player), game, 1000 * player + game,
                                now=TONIGHT)  # fmt: skip
    said = await run(bot, "night waiting", when=TONIGHT)
    [reply] = said.replies
    assert reply.embeds[0].footer.text == "Page 1 of 4"  # type: ignore[union-attr]
    forward = reply.view.children[1]  # type: ignore[union-attr]
    refused = await click(forward, as_user(bot, PLAYERS[1], TONIGHT, message=private_message()))
    assert refused.text == "Only the commissioner can do that." and refused.edited == []
    second = await click(forward, as_user(bot, COMMISSIONER, TONIGHT, message=private_message()))
    assert second.edited[0].endswith("Page 2 of 4") and second.replies == []  # in place
    # Group 1's scores are approved meanwhile: the list shrinks to two pages, and
    # ▶ to page 3 shows the last page there is.
    await approvals.approve_all(bot.db, GUILD, "1", by=COMMISSIONER.id, now=TONIGHT)
    third = second.edited_views[0].children[1]  # type: ignore[union-attr]
    turned = await click(third, as_user(bot, COMMISSIONER, TONIGHT, message=private_message()))
    assert turned.edited[0].startswith("Week 1: scores waiting\n**Group 2**\n")
    assert turned.edited[0].endswith("Page 2 of 2")
    assert "P1 ·" not in turned.edited[0]


async def test_waiting_before_any_night_is_refused_clearly(league: FakeBot) -> None:
    said = await run(league, "night waiting", when=at(FIRST_NIGHT, "09:00"))
    assert private(said) and "Something went wrong" not in said.text
    assert said.text
