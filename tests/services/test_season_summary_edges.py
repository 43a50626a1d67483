"""The season summary's facts (R9, R10, R12): owed only with the last night,
a champion per division, the prizes by this season's own split, the weekly
payouts, and the machines' high scores in alphabetical order."""

from __future__ import annotations

from datetime import date

from bot.database import Database
from bot.repositories import leagues
from bot.services import machine_list, setup
from bot.services.context import season_of
from cogs.money import money
from cogs.stats import stats
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, add_players, at
from tests.services.test_season import play_week


async def _season_of_two_nights(db: Database) -> None:
    """Ten players, divisions from week 2, prize places changed from the
    default, machines whose names differ in capitals."""
    await setup.change_setting(db, GUILD, "division_week", 2, now=SETTING_AT)
    await setup.change_setting(db, GUILD, "regular_nights", 2, now=SETTING_AT)
    await setup.change_setting(db, GUILD, "prize_places_a", "50,25", now=SETTING_AT)
    await add_players(db, 10)
    for name in (
        "attack from Mars",
        "Batman",
        "cirqus Voltaire",
        "Deadpool",
        "eight Ball",
        "Funhouse",
    ):
        await machine_list.add_machine(db, GUILD, name, par=1_000_000_000, now=at(date(2026, 1, 2)))
    await play_week(db, 1)
    await play_week(db, 2)


async def _night_ids(db: Database) -> dict[int, int]:
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        return {n.week: n.id for n in await leagues.nights(conn, ctx.season.id)}


async def test_r10_r9_the_season_summary_after_the_last_night(league: Database) -> None:
    db = league
    await _season_of_two_nights(db)
    nights = await _night_ids(db)
    summary = await stats.season_summary(db, GUILD, nights[2])
    assert summary is not None
    prizes = await money.prizes(db, GUILD)
    assert set(summary.champions) == {"A", "B"}
    assert summary.champions["A"] != summary.champions["B"]
    assert summary.prizes == prizes.divisions
    assert [share.place for share in summary.prizes["A"] if share.place] == [1, 2]  # "50,25"
    pots = [(await money.summary(db, GUILD, week)).pot_cents for week in (1, 2)]
    assert summary.weekly_payouts_cents == sum(pots) > 0  # R10.2: each night's pot paid out
    machines = [machine for machine, _ in summary.high_scores]
    assert machines == sorted(machines, key=str.casefold)
    assert machines[:2] == ["Batman", "cirqus Voltaire"]  # the first was vetoed (R4.5)


async def test_r12_a_correction_to_an_earlier_night_owes_no_second_summary(
    league: Database,
) -> None:
    """Every night is final, but the summary comes only with the last one: a
    night refinalized after a correction does not post it again."""
    db = league
    await _season_of_two_nights(db)
    nights = await _night_ids(db)
    assert await stats.season_summary(db, GUILD, nights[1]) is None
