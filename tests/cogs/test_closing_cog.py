"""`/season close` and `/season reopen` (R13.6): a season with nights left
closes only when confirmed, after being told what it ends; its summary and
prizes then go by the standings, "closed without playoffs"; a season that is
over closes at once; the newest season opens again until the next starts.
Refusals are private and change nothing."""

from __future__ import annotations

from datetime import date

from bot.services import approvals, setup
from cogs.closing import closing
from cogs.closing.closing_cog import Closing
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import ANNOUNCEMENTS, GUILD, FakeBot, Said, invoke, shown
from tests.cogs.league_play import lock, play_week, snapshot
from tests.cogs.test_playoff_final_group import NIGHT, playoff_night, scores_in, start
from tests.moments import SETTING_AT

# How the tests that go over every command invoke these (tests/cogs/examples.py):
# a player is refused (the commissioner's), privately, after the acknowledgement.
EXAMPLES = [Example("season", Closing(), "close", {}, reads_first=["read"])]

COG = Closing()
SIX = {n: (700 - 100 * n) * 1_000_000 for n in range(1, 7)}  # every game: P1 > P2 > … > P6
LATER = at(date(2026, 1, 20))


async def close(bot: FakeBot, confirm: bool = False, user=COMMISSIONER, when=LATER) -> Said:
    return await invoke(COG.close, COG, as_user(bot, user, when), confirm=confirm)


def posts(bot: FakeBot) -> list[str]:
    return [shown(m) for m in bot.channels[ANNOUNCEMENTS].sent]


async def test_r13_6_closing_early_asks_first_and_names_what_it_ends(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, SIX)
    before = await snapshot(bot)
    said = await close(bot)
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text == (
        "Closing Spring ends it early: weeks 2-10 are not played. The champions and the prizes "
        "would go by the standings, without playoffs. To close it, run /season close "
        "confirm:True."
    )
    assert await snapshot(bot) == before  # nothing changed
    said = await close(bot, confirm=True)
    assert said.text.startswith("Spring is closed: weeks 2-10 are not played.")
    await bot.outbox.flush()
    (closed,) = [p for p in posts(bot) if p.startswith("**Spring is closed**")]
    async with bot.db.read() as conn:  # the week's standings post too, its season closed
        failed = await conn.execute_fetchall("SELECT kind FROM outbox WHERE status != 'sent'")
    assert list(failed) == []
    assert closed == (
        "**Spring is closed** after week 1 of 10: weeks 2-10 are not played. The champions and "
        "the prizes go by the standings."
    )
    (summary,) = [p for p in posts(bot) if p.startswith("**Spring: the season is closed**")]
    assert summary.split("\n")[1:3] == [
        "Closed after week 1, without playoffs: the champions and the prizes go by the standings.",
        "🏆 League champion: P1 (by standings)",
    ]
    (prizes,) = [p for p in posts(bot) if p.startswith("**Season prizes**")]
    assert prizes.split("\n")[0].endswith("by final standings")


async def test_r13_6_after_the_close_the_season_is_there_to_see(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, SIX)
    await close(bot, confirm=True)
    standings = Standings()
    said = await invoke(standings.me, standings, as_user(bot, PLAYERS[1], LATER))
    assert said.text == (
        "There is no season running: Spring is closed (see it with /standings season:Spring). "
        "The commissioner starts the next with /league season start."
    )
    said = await invoke(standings.standings, standings, as_user(bot, PLAYERS[1], LATER),
                        season="Spring")  # fmt: skip
    assert "P1" in said.text


async def test_r13_6_closing_is_the_commissioners_and_not_mid_night(league: FakeBot) -> None:
    bot = league
    said = await close(bot, confirm=True, user=PLAYERS[1])
    assert [r.ephemeral for r in said.replies] == [True]
    assert "commissioner" in said.text
    await lock(bot, 1)
    said = await close(bot, confirm=True, when=at(date(2026, 1, 7), "20:00"))
    assert said.text == "Week 1 is being played: finalize it before closing the season."


async def test_r13_6_a_season_over_after_its_playoffs_closes_at_once(league: FakeBot) -> None:
    bot = await playoff_night(league)
    await start(bot, "Attack from Mars, Medieval Madness, Twilight Zone, The Addams Family, "
                     "Monster Bash")  # fmt: skip
    said = await close(bot, confirm=True, when=at(NIGHT, "20:00"))
    assert said.text == "Playoff night is under way: finish it before closing the season."
    await scores_in(bot, {1: 400_000_000, 4: 500_000_000})
    await approvals.approve_all(bot.db, GUILD, "1", by=COMMISSIONER.id, now=at(NIGHT, "21:00"))
    await bot.outbox.flush()
    sent = len(posts(bot))
    said = await close(bot, when=at(NIGHT, "23:00"))  # nothing left: no confirm asked
    assert said.text == (
        "Spring is closed. /season reopen opens it again until the next season starts."
    )
    await bot.outbox.flush()
    assert len(posts(bot)) == sent  # the champion and the summary were posted already


async def test_r13_6_the_newest_season_opens_again_until_the_next_starts(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, SIX)
    said = await invoke(COG.reopen, COG, as_user(bot, COMMISSIONER, LATER))
    assert said.text == (
        "Spring is running: only a closed season can be opened again, before the next one starts."
    )
    await close(bot, confirm=True)
    said = await invoke(COG.reopen, COG, as_user(bot, COMMISSIONER, LATER))
    assert (
        said.text
        == "Spring is open again: its nights go on as scheduled, and the players are told."
    )
    await bot.outbox.flush()
    assert posts(bot)[-1].startswith("**Spring is open again**")
    standings = Standings()
    said = await invoke(standings.me, standings, as_user(bot, PLAYERS[1], LATER))
    assert not said.text.startswith("There is no season running")
    # A new season closes it for good: Spring can no longer be opened.
    await closing.close(bot.db, GUILD, confirm=True, now=LATER)
    await setup.start_season(bot.db, GUILD, "Summer", date(2026, 4, 1), now=SETTING_AT)
    said = await invoke(COG.reopen, COG, as_user(bot, COMMISSIONER, LATER))
    assert said.text.startswith("Summer is running")


async def test_r13_6_a_season_closed_before_its_first_night(league: FakeBot) -> None:
    bot = league
    said = await close(bot, confirm=True, when=at(date(2026, 1, 5)))
    assert said.text == (
        "Spring is closed before its first night: weeks 1-10 are not played. /season reopen "
        "opens it again until the next season starts."
    )
    await bot.outbox.flush()
    assert posts(bot) == ["**Spring is closed** before its first night: weeks 1-10 are not played."]


async def test_r13_6_reopening_a_season_that_was_over_tells_nobody(league: FakeBot) -> None:
    bot = await playoff_night(league)
    await start(bot, "Attack from Mars, Medieval Madness, Twilight Zone, The Addams Family, "
                     "Monster Bash")  # fmt: skip
    await scores_in(bot, {1: 400_000_000, 4: 500_000_000})
    await approvals.approve_all(bot.db, GUILD, "1", by=COMMISSIONER.id, now=at(NIGHT, "21:00"))
    await close(bot, when=at(NIGHT, "23:00"))
    await bot.outbox.flush()
    sent = len(posts(bot))
    said = await invoke(COG.reopen, COG, as_user(bot, COMMISSIONER, at(NIGHT, "23:10")))
    assert said.text == "Spring is open again (it had nothing left to play)."
    await bot.outbox.flush()
    assert len(posts(bot)) == sent


async def test_r13_6_me_of_a_season_closed_before_its_playoffs_shows_no_playoffs(
    league: FakeBot,
) -> None:
    """Playoff night was set (P1 qualified) but the season closed before it was
    played: `/me season:` shows the player's season, and no playoffs that never
    happened."""
    bot = await playoff_night(league)  # a one-night season; P1 and P4 checked in
    await close(bot, confirm=True, when=at(NIGHT, "18:00"))
    standings = Standings()
    said = await invoke(standings.me, standings, as_user(bot, PLAYERS[1], at(NIGHT, "18:30")),
                        season="Spring")  # fmt: skip
    assert said.text.startswith("**P1** · Spring · rank 1")
    assert "Playoffs" not in said.text and "multiplier" not in said.text
