"""/league money prizes, the season's final post, and the R10.4 / R13.1 settings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.models import Night
from bot.repositories import leagues
from bot.services import approvals, scores
from cogs.money import money
from cogs.playoffs.playoffs_cog import Playoffs
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, invoke
from tests.cogs.league_play import MACHINES, lock, snapshot, submit_all
from tests.cogs.test_commissioner_cog import MONDAY, WEEK_1, announced, private, run


async def night_list(bot: FakeBot) -> list[Night]:
    async with bot.db.read() as conn:
        league = await leagues.league_by_guild(conn, GUILD)
        assert league is not None
        season = await leagues.open_season(conn, league.id)
        assert season is not None
        return await leagues.nights(conn, season.id)


async def pay_dues_and_fund(bot: FakeBot, fund: str) -> None:
    for n in range(1, 7):
        await run(bot, "money dues", players=f"P{n}", week=1)  # $36.00: $18.00 to the fund
    await run(bot, "money fund", amount=fund)


async def test_r10_4_prizes_shows_each_players_share(league: FakeBot) -> None:
    bot = league
    await pay_dues_and_fund(bot, "40")
    said = await run(bot, "money prizes")
    # $58.00 over the weights 30/15/10 and a consolation of 20% of 15 = 3 (58 in all):
    # one undivided league is paid as division A; standings so far go by skill (R11.1).
    assert said.text == (
        "**Season prizes** · fund $58.00, by standings so far\n"
        "**League**\n"
        "  1st: P1 $30.00\n"
        "  2nd: P2 $15.00\n"
        "  3rd: P3 $10.00\n"
        "  Consolation: P4 $3.00"
    )
    assert private(said) and announced(bot) == []


async def test_r10_4_the_split_is_a_setting(league: FakeBot) -> None:
    bot = league
    await pay_dues_and_fund(bot, "40")
    said = await run(bot, "season setting", name="prize_places_a", value=" 50, 30 ,20 ")
    assert said.text == "prize_places_a is now 50,30,20."
    said = await run(bot, "season setting", name="prize_consolation_a", value="0")
    assert said.text == "prize_consolation_a is now 0."
    said = await run(bot, "money prizes")
    assert said.text.split("\n")[2:] == ["  1st: P1 $29.00", "  2nd: P2 $17.40", "  3rd: P3 $11.60"]
    said = await run(bot, "season setting", name="prize_places_a", value="60")
    said = await run(bot, "money prizes")
    assert said.text.split("\n")[2:] == ["  1st: P1 $58.00"]  # the whole fund is paid


def not_playoffs(posts: list[str]) -> list[str]:
    """The posts but playoff night's announcements (R13.4)."""
    return [p for p in posts if not p.startswith("**Playoff")]


async def last_night_played(bot: FakeBot) -> None:
    """A season of one night; everyone paid dues ($18.00 to the fund); played and
    finalized. Standings (R11.1): P1, P4, P2, P5, P3, P6; the field P1 and P4."""
    await run(bot, "season setting", name="regular_nights", value="1")
    for n in range(1, 7):
        await run(bot, "money dues", players=f"P{n}", week=1)
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    said = await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert said.text == "Week 1 is final."


async def test_r13_6_the_last_regular_night_leaves_the_prizes_to_the_playoffs(
    league: FakeBot,
) -> None:
    bot = league
    await last_night_played(bot)
    results, table, summary, playoffs = announced(bot)
    assert results.startswith("Week 1 results") and table.startswith("Standings · Spring")
    assert summary.startswith(
        "**Spring: the regular season is over**\n"
        "League regular-season leader: P1 (the playoffs decide the champion)"
    )
    assert playoffs.startswith("**Playoffs: Wednesday 14 January**")
    said = await run(bot, "money prizes")  # the standings so far, privately
    assert said.text.startswith("**Season prizes** · fund $18.00, by final standings")


async def test_r10_4_r13_6_the_prizes_go_by_the_playoff_places(league: FakeBot) -> None:
    """P4 (seed 2) beats P1 on playoff night: P4 takes first prize."""
    bot = league
    await last_night_played(bot)
    playoff_day = FIRST_NIGHT + timedelta(days=7)
    cog = Playoffs()
    koi = as_user(bot, COMMISSIONER, at(playoff_day, "19:00"))
    await invoke(cog.checkin, cog, koi, players="P1, P4")
    await invoke(cog.start, cog, as_user(bot, COMMISSIONER, at(playoff_day, "19:31")),
                 machines=", ".join(MACHINES[:5]))  # fmt: skip
    for player, score in ((1, 100_000_000), (4, 200_000_000)):
        for game in range(1, 6):
            await scores.submit(bot.db, GUILD, PLAYERS[player].id, game, score,
                                now=at(playoff_day, "20:00"))  # fmt: skip
    await approvals.approve_all(bot.db, GUILD, "1", by=COMMISSIONER.id,
                                now=at(playoff_day, "21:00"))  # fmt: skip
    await bot.outbox.flush()
    *_, champion, prizes, summary = announced(bot)
    assert champion.startswith("**Playoffs · League champion: P4**")
    # $18.00 over 58 weights: 931, 465, 310 and 93 cents; the leftover cent to first.
    assert prizes == (
        "**Season prizes** · fund $18.00, by playoff places, then standings\n"
        "**League**\n"
        "  1st: P4 $9.32\n"
        "  2nd: P1 $4.65\n"
        "  3rd: P2 $3.10\n"
        "  Consolation: P5 $0.93"
    )
    assert summary.startswith("**Spring: the season is over**\n"
                              "🏆 League champion: P4 (won the playoffs)")  # fmt: skip


async def test_r10_4_an_earlier_night_posts_no_prizes(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert len(announced(bot)) == 2  # results and standings; 9 nights to go
    (first,) = [n for n in await night_list(bot) if n.week == 1]
    assert await money.season_end_prizes(bot.db, GUILD, first) is None


async def test_r13_1_playoff_divisor_min_and_max_are_settings(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "season setting", name="playoff_divisor", value="2")
    assert said.text == "playoff_divisor is now 2."
    said = await run(bot, "season playoffs")
    assert said.text.split("\n")[1] == "League: 1. P1, 2. P2, 3. P3"  # 6 // 2 = 3, within 2..4
    await run(bot, "season setting", name="playoff_max", value="2")
    said = await run(bot, "season playoffs")
    assert said.text.split("\n")[1] == "League: 1. P1, 2. P2"
    await run(bot, "season setting", name="playoff_divisor", value="20")
    await run(bot, "season setting", name="playoff_min", value="1")
    said = await run(bot, "season playoffs")
    assert said.text.split("\n")[1] == "League: 1. P1"  # 6 // 20 = 0, clamped up to 1


PLACES = (
    "prize_places_a is 1 to 5 percents of the prize fund, best place first, "
    "comma-separated and 100 at most in all, e.g. 30,15,10."
)

DUES = "dues_cents must be a whole number from 0 to 100000."


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"name": "playoff_divisor", "value": "0"},
         "playoff_divisor must be a whole number from 1 to 20."),
        ({"name": "playoff_min", "value": "5"}, "playoff_min must be a whole number from 1 to 4."),
        ({"name": "playoff_max", "value": "1"}, "playoff_max cannot be below playoff_min (2)."),
        ({"name": "prize_consolation_b", "value": "101"},
         "prize_consolation_b must be a whole number from 0 to 100."),
        ({"name": "prize_places_a", "value": "30,15,x"}, PLACES),
        ({"name": "prize_places_a", "value": "60,50"}, PLACES),
        ({"name": "prize_places_a", "value": "30,,10"}, PLACES),
        ({"name": "prize_places_a", "value": "20,20,20,10,10,5"}, PLACES),
        ({"name": "prize_places_a", "value": "0,10"}, PLACES),
        ({"name": "dues_cents", "value": "6.50"}, DUES),
        ({"name": "dues_cents", "value": "--5"}, DUES),
    ],
)  # fmt: skip
async def test_bad_setting_values_are_refused_and_change_nothing(
    league: FakeBot, options: dict[str, Any], message: str
) -> None:
    bot = league
    before = await snapshot(bot)
    said = await run(bot, "season setting", when=MONDAY, **options)
    assert said.text == message
    assert private(said)
    assert await snapshot(bot) == before
    assert announced(bot) == [] and bot.channels[APPROVALS].sent == []


async def test_prizes_before_a_season_is_refused(bot: FakeBot) -> None:
    said = await run(bot, "money prizes")
    assert said.text.startswith("This server has no league yet.") and private(said)


async def test_r12_a_correction_to_the_last_night_posts_its_summary_and_field_again(
    league: FakeBot,
) -> None:
    # R12.1-R12.2 on the last regular-season night: the recomputed results, the
    # standings they make, the summary, and the playoff field they set (R13.4);
    # the prizes wait for the playoffs (R13.6).
    bot = league
    await last_night_played(bot)
    *_, summary_before = not_playoffs(announced(bot))
    for game in range(1, 6):  # R12.2: P1's every game becomes 0, so P1 drops to last
        await run(bot, "score change", when=at(FIRST_NIGHT, "23:30"), kind="penalty",
                  week=1, player="P1", game=game, reason="slam tilt")  # fmt: skip
    *_, results, table, summary = not_playoffs(announced(bot))
    assert results.startswith("Week 1 results") and table.startswith("Standings · Spring")
    assert "leader: P1" in summary_before and "leader: P1" not in summary
    assert not [p for p in announced(bot) if p.startswith("**Season prizes")]
    # R13.4: P1 dropped out of the playoff field, which is announced again
    assert "(field updated)" in [p for p in announced(bot) if p.startswith("**Playoffs")][-1]
