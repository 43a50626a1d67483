"""/league money prizes, the season's final post, and the R10.4 / R13.1 settings."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.money import money
from tests.cogs.conftest import FIRST_NIGHT, at
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot
from tests.cogs.league_play import lock, snapshot, submit_all
from tests.cogs.test_commissioner_cog import MONDAY, WEEK_1, announced, private, run


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
    return [p for p in posts if not p.startswith("**Playoffs")]


async def test_r10_4_the_last_regular_night_posts_the_prizes(league: FakeBot) -> None:
    bot = league
    await run(bot, "season setting", name="regular_nights", value="1")
    for n in range(1, 7):
        await run(bot, "money dues", players=f"P{n}", week=1)
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    said = await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert said.text == "Week 1 is final."
    results, table, prizes, summary, playoffs = announced(bot)
    assert playoffs.startswith("**Playoffs: Wednesday 14 January**")  # R13.4
    assert summary.startswith("**Spring: the regular season is over**")
    # $18.00 over 58 weights: 931, 465, 310 and 93 cents; the leftover cent to first.
    # Standings after week 1 (R11.1): P1, P4, P2, P5 …
    assert prizes == (
        "**Season prizes** · fund $18.00, by final standings\n"
        "**League**\n"
        "  1st: P1 $9.32\n"
        "  2nd: P4 $4.65\n"
        "  3rd: P2 $3.10\n"
        "  Consolation: P5 $0.93"
    )
    assert results.startswith("Week 1 results") and table.startswith("Standings · Spring")


async def test_r10_4_an_earlier_night_posts_no_prizes(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert len(announced(bot)) == 2  # results and standings; 9 nights to go
    assert await money.season_end_prizes(bot.db, GUILD, 1) is None


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
        ({"name": "playoff_min", "value": "5"}, "playoff_min cannot be above playoff_max (4)."),
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


async def test_r10_4_a_correction_to_the_last_night_posts_the_prizes_again(
    league: FakeBot,
) -> None:
    # R12.1-R12.2 on the last regular-season night: the recomputed results, the
    # standings they make and the prize shares by those standings, in that order.
    bot = league
    await run(bot, "season setting", name="regular_nights", value="1")
    for n in range(1, 7):
        await run(bot, "money dues", players=f"P{n}", week=1)
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    *_, before, summary_before = not_playoffs(announced(bot))
    for game in range(1, 6):  # R12.2: P1's every game becomes 0, so P1 drops to last
        await run(bot, "score change", when=at(FIRST_NIGHT, "23:30"), kind="penalty",
                  week=1, player="P1", game=game, reason="slam tilt")  # fmt: skip
    *_, results, table, prizes, summary = not_playoffs(announced(bot))
    # R13.4: P1 dropped out of the playoff field, which is announced again
    assert "(field updated)" in [p for p in announced(bot) if p.startswith("**Playoffs")][-1]
    assert results.startswith("Week 1 results") and table.startswith("Standings · Spring")
    assert prizes.startswith("**Season prizes** · fund $18.00, by final standings")
    assert "P1" not in prizes and prizes != before
    # the season summary is posted again, from the corrected standings
    assert "League champion: P1" in summary_before and "League champion: P1" not in summary
