"""What the outbox words when there is nothing left to send: an edit of a
message that was deleted or never posted, the season's final posts after the
season grew longer, a notice for a night cut from the season. Each such item is
dropped, quietly: nothing is posted, nothing waits or fails, and the posts after
it still go. And the picture on the week's standings post."""

from __future__ import annotations

from datetime import date

from bot.services import outbox
from cogs.attendance.attendance_cog import Attendance
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, GUILD, FakeBot, card_text, invoke
from tests.cogs.league_play import lock, play_week, submit_all
from tests.cogs.test_commissioner_cog import WEEK_1, announced, run
from tests.cogs.test_outbox_cog import TONIGHT, league_command, score
from tests.cogs.test_standings_cog import WEEK_1 as STANDINGS_WEEK_1

STANDINGS, ATTENDANCE = Standings(), Attendance()


async def nothing_owed(bot: FakeBot) -> bool:
    report = await outbox.status(bot.db, GUILD)
    return report.waiting == [] and report.failed == []


async def test_a_card_refused_and_decided_since_is_posted_as_it_stands(league: FakeBot) -> None:
    """The approvals channel refused the group's card; the commissioner approved
    the score meanwhile: that edit has no message to edit and is dropped (not
    failed: the alert lists the card alone). Once the channel is fixed, the card
    goes out showing the score approved, with no buttons left."""
    bot = league
    await lock(bot)
    bot.channels[APPROVALS].refuse = True
    await score(bot, 1, 1, "300M")
    said = await run(bot, "night approve-all", group="1", when=TONIGHT)
    assert said.text == "Approved 1 score(s) of group 1."
    report = await outbox.status(bot.db, GUILD)
    assert [i.kind for i in report.failed] == ["approval", "alert"] and report.waiting == []
    bot.channels[APPROVALS].refuse = False
    assert (await league_command(bot, "admin resend")).startswith("1 failed post will be sent")
    [card] = bot.channels[APPROVALS].sent
    assert "P1 300,000,000 ✓" in card_text(card) and card.view is None
    assert await nothing_owed(bot)


async def test_r10_4_the_season_made_longer_before_its_final_posts_went_drops_them(
    league: FakeBot,
) -> None:
    """The last regular night is final but the announcements channel refused its
    posts; the commissioner then made the season a week longer: once resent, the
    night's results and standings go, the prize shares and the season summary
    (the season is not over any more) and playoff night's announcement do not,
    and nothing is left failed."""
    bot = league
    await run(bot, "season setting", name="regular_nights", value="1")
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    bot.channels[ANNOUNCEMENTS].refuse = True
    said = await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert said.text == "Week 1 is final."
    assert announced(bot) == []
    said = await run(bot, "season setting", name="regular_nights", value="2")
    assert said.text == "regular_nights is now 2."
    bot.channels[ANNOUNCEMENTS].refuse = False
    await league_command(bot, "admin resend")
    results, table, called_off = announced(bot)
    assert results.startswith("Week 1 results") and table.startswith("Standings · Spring")
    # R13.4: playoff night, set by the last night, is off until the new last night
    assert called_off == (
        "**Playoff night of Wednesday 14 January is off**: the regular season now has 2 "
        "nights. Playoff night is set again after the new last night."
    )
    assert await nothing_owed(bot)


async def test_the_weekly_standings_post_has_the_picture_standings_shows(
    league: FakeBot,
) -> None:
    """The picture on the week's standings post is the one /standings
    shows for the whole league, titled "Standings"."""
    bot = league
    await play_week(bot, 1, STANDINGS_WEEK_1)
    await bot.outbox.flush()
    [post] = [m for m in bot.channels[ANNOUNCEMENTS].sent if m.files]
    said = await invoke(STANDINGS.standings, STANDINGS, as_user(bot, PLAYERS[6], TONIGHT))
    assert post.files == [said.replies[-1].file]


async def test_r2_1_a_notice_for_a_night_cut_from_the_season_is_not_posted(
    league: FakeBot,
) -> None:
    """P1's absence for week 3, while the approvals channel refused the bot; the
    commissioner then shortened the season to two nights (week 3 and its notices
    are gone): once resent, the commissioner's copy has nothing to tell and is
    dropped, not posted and not failed."""
    bot = league
    bot.channels[APPROVALS].refuse = True
    monday = as_user(bot, PLAYERS[1], at(date(2026, 1, 5)))
    said = await invoke(ATTENDANCE.absent, ATTENDANCE, monday, date="2026-01-21")
    assert said.text.startswith("Noted: P1 will be absent on week 3")
    said = await run(bot, "season setting", name="regular_nights", value="2")
    assert said.text == "regular_nights is now 2."
    bot.channels[APPROVALS].refuse = False
    assert (await league_command(bot, "admin resend")).startswith("1 failed post will be sent")
    assert bot.channels[APPROVALS].sent == []
    assert await nothing_owed(bot)
