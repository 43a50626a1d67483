"""A list's first page as a command answers it: the empty standings, division
headings, a one-page list without buttons, and the upload turn an answer with
a picture waits for."""

from __future__ import annotations

from datetime import date

from bot.services import membership, setup
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import GUILD, FakeBot, FakeFollowup, Said, invoke
from tests.cogs.league_play import discord_id, play_week
from tests.moments import SETTING_AT

COG = Standings()
MONDAY = at(date(2026, 1, 5))
LEGEND = "pts league points · x bonus multiplier for the next night"


class UploadTurnFollowup(FakeFollowup):
    """Notes, as each answer is sent, whether every upload turn is taken."""

    def __init__(self, said: Said, bot: FakeBot) -> None:
        super().__init__(said)
        self.bot = bot
        self.turns_all_taken: list[bool] = []

    async def send(self, *args: object, **kwargs: object) -> None:
        self.turns_all_taken.append(self.bot.uploads.locked())
        await super().send(*args, **kwargs)  # type: ignore[arg-type]


async def test_standings_of_a_season_with_no_players_yet_say_so(bot: FakeBot) -> None:
    now = at(date(2026, 1, 1))
    await setup.create_league(bot.db, GUILD, "League", now=now)
    await setup.start_season(bot.db, GUILD, "Spring", FIRST_NIGHT, now=now)
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], MONDAY))
    [post] = said.replies
    assert not post.ephemeral and post.view is None
    assert said.text == f"Standings · Spring\nNo players yet.\n{LEGEND}"


async def test_a_one_page_standings_is_posted_without_page_buttons(league: FakeBot) -> None:
    said = await invoke(COG.standings, COG, as_user(league, PLAYERS[1], MONDAY))
    [post] = said.replies
    assert not post.ephemeral and post.view is None
    assert said.text.startswith("Standings · Spring\n1. P1 · 0 pts · x1\n")


async def test_the_whole_standings_head_each_division_once_divisions_exist(
    league: FakeBot,
) -> None:
    """R9.3: once divisions are formed, the whole standings (no division asked)
    list the players under their division's heading."""
    for n, skill in ((7, 4), (8, 3)):
        await membership.add_player(
            league.db, GUILD, f"P{n}", discord_id=discord_id(n), skill=skill, now=MONDAY
        )
    await setup.change_setting(league.db, GUILD, "division_week", 2, now=SETTING_AT)
    week_1 = {1: 300_000_000, 2: 200_000_000, 3: 100_000_000, 4: 300_000_000,
              5: 200_000_000, 6: 100_000_000, 7: 300_000_000, 8: 100_000_000}  # fmt: skip
    await play_week(league, 1, week_1, ("1", "2", "3"))
    said = await invoke(COG.standings, COG, as_user(league, PLAYERS[1], at(date(2026, 1, 8))))
    assert said.text.split("\n") == [
        "Standings · Spring",
        "**Division A**",
        "1. P7 · 20 pts · x1",
        "2. P1 · 15 pts · x1",
        "3. P4 · 15 pts · x1",
        "4. P2 · 10 pts · x1",
        "**Division B**",
        "5. P5 · 10 pts · x1",
        "6. P3 · 5 pts · x1",
        "7. P6 · 5 pts · x1",
        "8. P8 · 0 pts · x1",
        LEGEND,
    ]


async def test_an_answer_with_the_standings_picture_waits_its_upload_turn_and_groups_do_not(
    league: FakeBot,
) -> None:
    """Only an answer that uploads a file takes one of the bot's upload turns:
    with all but one taken, /standings (with its picture) takes the last one as
    it is sent; /groups (no file) leaves it free."""
    for _ in range(3):
        await league.uploads.acquire()
    try:
        asked = as_user(league, PLAYERS[1], MONDAY)
        asked.followup = standings_follow = UploadTurnFollowup(asked.said, league)
        said = await invoke(COG.standings, COG, asked)
        assert said.replies[0].file is not None
        asked = as_user(league, PLAYERS[1], MONDAY)
        asked.followup = groups_follow = UploadTurnFollowup(asked.said, league)
        said = await invoke(COG.groups, COG, asked, week=1)
        assert said.replies[0].embeds[0].title == "Week 1 · Wednesday 07 January 2026"
    finally:
        for _ in range(3):
            league.uploads.release()
    assert standings_follow.turns_all_taken == [True]
    assert groups_follow.turns_all_taken == [False]
    assert not league.uploads.locked()  # the picture's turn is given back
