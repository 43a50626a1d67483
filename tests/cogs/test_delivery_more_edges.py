"""More of what the outbox's posts show, as the league sees them: the week's
standings post of a league too long for one page pages as /standings does; an
alert whose refused posts an earlier alert already told is dropped; an alert
names the week of a refused night's posts."""

from __future__ import annotations

from bot.services import announcements, membership, outbox
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, GUILD, FakeBot, click
from tests.cogs.league_play import lock, play_week, submit_all
from tests.cogs.test_commissioner_cog import WEEK_1, run
from tests.cogs.test_outbox_cog import TONIGHT
from tests.cogs.test_sender_edges import RefusesFirst
from tests.cogs.test_standings_cog import LEGEND, MONDAY
from tests.cogs.test_standings_cog import WEEK_1 as STANDINGS_WEEK_1


async def test_the_weekly_standings_post_of_a_long_league_pages_from_its_first_page(
    league: FakeBot,
) -> None:
    """Week 1 is final with 126 players signed up: the standings post shows
    page 1 of 7 with ◀ (greyed) and ▶; ▶ shows page 2 to the clicker, ◀ on it
    goes back to page 1."""
    bot = league
    await play_week(bot, 1, STANDINGS_WEEK_1)
    for n in range(1, 121):
        await membership.add_player(bot.db, GUILD, f"Newcomer {n:03}", discord_id=None, now=MONDAY)
    await bot.outbox.flush()
    [post] = [m for m in bot.channels[ANNOUNCEMENTS].sent if m.files]
    [embed] = post.embeds
    assert embed.title is not None and embed.title.startswith("Standings · ")
    assert embed.footer.text == f"{LEGEND} · Page 1 of 7"
    assert embed.description is not None and embed.description.startswith("1. ")
    back, forward = post.view.children  # type: ignore[union-attr]
    assert back.item.disabled and not forward.item.disabled  # type: ignore[attr-defined]
    clicked = await click(forward, as_user(bot, PLAYERS[2], MONDAY))
    [page] = clicked.replies
    assert page.ephemeral and page.embeds[0].title == embed.title
    assert page.embeds[0].footer.text == f"{LEGEND} · Page 2 of 7"
    assert page.embeds[0].description.split("\n")[0].startswith("19. ")  # type: ignore[union-attr]


async def test_an_alert_left_with_nothing_to_tell_is_dropped(league: FakeBot) -> None:
    """#announcements refuses the bot, and #approvals refuses one post's content
    (400): two alerts are owed, to #approvals and to the commissioners' DMs. The
    one in #approvals goes first and tells of both refused posts; the DM alert
    has nothing left to tell and is dropped: not sent, not failed, nothing waits."""
    bot = league
    bot.channels[ANNOUNCEMENTS].refuse = True
    bot.channels[APPROVALS] = approvals = RefusesFirst(APPROVALS)
    assert await announcements.enqueue(bot.db, GUILD, "news", "news post", now=TONIGHT)
    assert await announcements.enqueue(bot.db, GUILD, "odd", "odd post", now=TONIGHT,
                                       target=outbox.APPROVALS)  # fmt: skip
    await bot.outbox.flush()
    [alert] = approvals.sent
    assert alert.content.startswith("Heads-up: Discord refused 2 posts of the bot.")
    assert alert.content.endswith(
        "\n- post to #announcements: the bot is not allowed to post "
        "there\n- post to #approvals: Discord refused its content"
    )
    report = await outbox.status(bot.db, GUILD)
    assert sorted(i.ref for i in report.failed) == ["news", "odd"] and report.waiting == []


async def test_the_alert_of_a_refused_nights_results_names_its_week(league: FakeBot) -> None:
    """#announcements refuses the bot when week 1 is finalized: the alert in
    #approvals names the week of the results and standings it could not post."""
    bot = league
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    bot.channels[ANNOUNCEMENTS].refuse = True
    said = await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert said.text == "Week 1 is final."
    [alert] = [m.content for m in bot.channels[APPROVALS].sent if m.content.startswith("Heads-up")]
    assert "\n- results of week 1 to #announcements: " in alert
