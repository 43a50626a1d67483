"""Commands and page buttons acknowledge before any database work but one quick
statement, so a busy night (a burst of interactions queued on the database)
never makes Discord's 3-second deadline pass; and refusals stay private."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from bot.services import groups, membership, setup
from bot.services.errors import LeagueError
from cogs.attendance.attendance_cog import Attendance
from cogs.rulebook.rulebook_cog import Rulebook
from cogs.scores.scores_cog import Scores
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import GUILD, FakeBot, FakeMember, Said, click, invoke, private_message
from tests.cogs.league_play import lock, night_of, play_week

STANDINGS, ATTENDANCE, SCORES, RULES = Standings(), Attendance(), Scores(), Rulebook()
MONDAY = at(date(2026, 1, 5))
TONIGHT = at(FIRST_NIGHT, "20:00")
WEEK_1 = {1: 300_000_000, 2: 200_000_000, 3: 100_000_000,
          4: 300_000_000, 5: 200_000_000, 6: 100_000_000}  # fmt: skip


def before_acknowledging(said: Said) -> list[str]:
    """What the command began on the database before its first response."""
    assert "acknowledged" in said.events, said.events
    return said.events[: said.events.index("acknowledged")]


async def test_groups_acknowledges_publicly_after_one_quick_statement(league: FakeBot) -> None:
    await lock(league)
    said = await invoke(STANDINGS.groups, STANDINGS, as_user(league, PLAYERS[1], TONIGHT))
    assert before_acknowledging(said) == ["quick read"]
    assert said.deferred is False and [r.ephemeral for r in said.replies] == [False]
    assert "**Group 1**" in said.text and "Game 1 order:" in said.text


async def test_groups_of_week_1_are_cut_after_acknowledging(league: FakeBot) -> None:
    """The first /groups of a season cuts week 1 (a transaction): after the answer's
    acknowledgement, never before it."""
    said = await invoke(STANDINGS.groups, STANDINGS, as_user(league, PLAYERS[1], MONDAY))
    assert before_acknowledging(said) == ["quick read"]
    assert "transaction" in said.events and "**Group 2**" in said.text


async def refused_privately(bot: FakeBot, when: datetime, week: int | None, message: str) -> None:
    """The refusal comes before the public acknowledgement, in the service's own
    words: the quick check and the full read agree."""
    options = {} if week is None else {"week": week}
    said = await invoke(STANDINGS.groups, STANDINGS, as_user(bot, PLAYERS[1], when), **options)
    assert said.text == message
    assert said.deferred is None and [r.ephemeral for r in said.replies] == [True]
    assert said.events == ["quick read", "acknowledged"]  # nothing else was read or written
    with pytest.raises(LeagueError) as refused:
        await groups.week_view(bot.db, GUILD, week=week, now=when)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("set_up", "message"),
    [
        ("", "This server has no league yet. The commissioner can start one with "
             "/league season setup."),
        ("league", "There is no season running. The commissioner can start one with "
                   "/league season start."),
        ("season", "The league needs at least 2 players before groups can be made."),
    ],
)  # fmt: skip
async def test_groups_refuses_a_league_not_set_up_privately(
    bot: FakeBot, set_up: str, message: str
) -> None:
    if set_up:
        await setup.create_league(bot.db, GUILD, "League", now=MONDAY)
    if set_up == "season":
        await setup.start_season(bot.db, GUILD, "Spring", FIRST_NIGHT, now=MONDAY)
        await membership.add_player(bot.db, GUILD, "P1", discord_id=PLAYERS[1].id, now=MONDAY)
    await refused_privately(bot, MONDAY, None, message)


@pytest.mark.parametrize(
    ("when", "week", "message"),
    [
        (MONDAY, 11, "Week 11 is not a night of this season (1 to 10)."),
        (MONDAY, 0, "Week 0 is not a night of this season (1 to 10)."),
        (MONDAY, 2, "Week 2's groups come from week 1's results; "
                    "the commissioner must finalize week 1 first."),
        (at(date(2026, 6, 1)), None, "There are no more league nights this season. "
         "The commissioner can start the next season with /league season start."),
    ],
)  # fmt: skip
async def test_groups_refuses_a_week_it_cannot_show_privately(
    league: FakeBot, when: datetime, week: int | None, message: str
) -> None:
    await refused_privately(league, when, week, message)


async def test_groups_of_a_finalized_week_is_not_refused(league: FakeBot) -> None:
    """Week 2 once week 1 is finalized: its groups are shown, not refused."""
    await play_week(league, 1, WEEK_1)
    said = await invoke(STANDINGS.groups, STANDINGS,
                        as_user(league, PLAYERS[1], at(night_of(2), "09:00")), week=2)  # fmt: skip
    assert before_acknowledging(said) == ["quick read"]
    assert said.deferred is False and said.text.startswith("Week 2")


async def test_me_acknowledges_privately_before_reading(league: FakeBot) -> None:
    said = await invoke(STANDINGS.me, STANDINGS, as_user(league, PLAYERS[1], TONIGHT))
    assert before_acknowledging(said) == []
    assert said.deferred is True and [r.ephemeral for r in said.replies] == [True]
    assert said.text.startswith("**P1** · rank 1")


async def test_me_refusals_stay_private_after_the_acknowledgement(league: FakeBot) -> None:
    stranger = FakeMember(PLAYERS[7].id, "Stranger")
    said = await invoke(STANDINGS.me, STANDINGS, as_user(league, PLAYERS[1], MONDAY),
                        player=stranger)  # fmt: skip
    assert said.text == "Stranger is not a player in this league."
    assert said.deferred is True and [r.ephemeral for r in said.replies] == [True]


async def test_the_night_s_mix_acknowledges_before_the_database(league: FakeBot) -> None:
    """The five commands of a busy night, one after the other: none begins more
    than one quick statement on the database before its acknowledgement."""
    await lock(league)
    member = as_user(league, PLAYERS[1], TONIGHT)
    said = await invoke(SCORES.score, SCORES, member, game=1, score="250M")
    assert before_acknowledging(said) == [] and said.text.startswith("Submitted:")
    said = await invoke(ATTENDANCE.late, ATTENDANCE, as_user(league, PLAYERS[2], TONIGHT),
                        minutes=10)  # fmt: skip
    assert before_acknowledging(said) == [] and "transaction" in said.events
    said = await invoke(STANDINGS.standings, STANDINGS, as_user(league, PLAYERS[3], TONIGHT))
    assert before_acknowledging(said) == ["quick read"] and said.replies[-1].file is not None
    said = await invoke(STANDINGS.groups, STANDINGS, as_user(league, PLAYERS[4], TONIGHT))
    assert before_acknowledging(said) == ["quick read"] and "**Group 2**" in said.text
    said = await invoke(STANDINGS.me, STANDINGS, as_user(league, PLAYERS[1], TONIGHT))
    assert before_acknowledging(said) == [] and "Game 1" in said.text


async def test_rules_acknowledge_before_reading_the_season(league: FakeBot) -> None:
    said = await invoke(RULES.rules, RULES, as_user(league, PLAYERS[1], TONIGHT),
                        topic="late notices")  # fmt: skip
    assert before_acknowledging(said) == [] and said.deferred is True
    assert [r.ephemeral for r in said.replies] == [True] and said.text


async def test_page_buttons_acknowledge_before_reading_the_list(league: FakeBot) -> None:
    """◀ ▶ on the public standings (a page for the clicker alone) and on that
    private page (turned in place): each acknowledged before the list is read."""
    for n in range(1, 40):
        await membership.add_player(
            league.db, GUILD, f"Newcomer {n:02}", discord_id=None, now=MONDAY
        )
    posted = await invoke(STANDINGS.standings, STANDINGS, as_user(league, PLAYERS[1], MONDAY))
    forward = posted.replies[0].view.children[1]  # type: ignore[union-attr]
    clicked = await click(forward, as_user(league, PLAYERS[2], MONDAY))
    assert before_acknowledging(clicked) == []
    [page] = clicked.replies
    assert page.ephemeral and page.embeds[0].footer.text.endswith("Page 2 of 3")  # type: ignore[union-attr]
    turn = as_user(league, PLAYERS[2], MONDAY, message=private_message())
    turned = await click(page.view.children[1], turn)  # type: ignore[union-attr]
    assert before_acknowledging(turned) == []
    assert turned.replies == [] and turned.edited[0].endswith("Page 3 of 3")
