"""Dues and the money summary at their edges (R10.1): the amounts and counts
accepted, a season without dues, what each player owes, and the default week."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.services import membership, picks, setup
from bot.services.errors import BadInput
from cogs.money import money
from cogs.money.money_outcomes import PlayerDues
from tests.moments import SETTING_AT
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_players,
    at,
    discord_id,
    finalize_week_1,
)

NIGHT = SEASON_START  # Wednesday 7 January 2026, week 1
WEEK_2 = date(2026, 1, 14)
P1, P2, P3 = discord_id(1), discord_id(2), discord_id(3)


async def refused(db: Database, names: list[str], **options: int) -> str:
    with pytest.raises(BadInput) as error:
        await money.record_dues_of(db, GUILD, names, 1, by=COMMISSIONER, now=at(NIGHT), **options)
    return str(error.value)


async def play_week_1(db: Database) -> None:
    """P1-P3 play week 1 and it is finalized; week 2's picks lock."""
    await finalize_week_1(db)
    await picks.lock_picks(db, GUILD, now=at(WEEK_2, "19:15"))


async def test_r10_1_dues_of_one_cent_and_of_a_thousand_dollars_are_recorded(players) -> None:
    db = players
    done = await money.record_dues_of(db, GUILD, ["P1"], 1, cents=1, by=COMMISSIONER,
                                      now=at(NIGHT))  # fmt: skip
    assert done.paid == [("P1", 1)]
    done = await money.record_dues_of(db, GUILD, ["P2"], 1, cents=100_000, by=COMMISSIONER,
                                      now=at(NIGHT))  # fmt: skip
    assert done.paid == [("P2", 100_000)] and done.pot.dues_cents == 100_001
    assert await refused(db, ["P3"], cents=100_001) == "Dues are from $0.01 to $1,000.00."
    assert await refused(db, ["P3"], cents=0) == "Dues are from $0.01 to $1,000.00."


async def test_r10_1_naming_nobody_is_refused_in_words(players) -> None:
    assert await refused(players, [" ", ""]) == "Name at least one player."


async def test_r10_1_sixty_players_pay_at_once_but_not_sixty_one(league) -> None:
    db = league
    await add_players(db, 60)
    names = [f"P{n}" for n in range(1, 61)]
    done = await money.record_dues_of(db, GUILD, names, 1, by=COMMISSIONER, now=at(NIGHT))
    assert len(done.paid) == 60
    assert await refused(db, [*names, "P61"]) == "Record at most 60 players at once."


async def test_r10_1_a_season_without_dues_refuses_dues_at_the_seasons_amount(players) -> None:
    db = players
    await setup.change_setting(db, GUILD, "dues_cents", 0, now=SETTING_AT)
    assert await refused(db, ["P1"]) == "This season has no dues."
    assert (await money.summary(db, GUILD)).players[0].paid_cents == 0


async def test_r10_1_a_season_with_dues_of_one_cent_records_them(players) -> None:
    db = players
    await setup.change_setting(db, GUILD, "dues_cents", 1, now=SETTING_AT)
    done = await money.record_dues_of(db, GUILD, ["P1"], 1, by=COMMISSIONER, now=at(NIGHT))
    assert done.paid == [("P1", 1)]


async def test_r10_1_before_any_night_nobody_owes_and_the_summary_is_of_week_1(players) -> None:
    found = await money.summary(players, GUILD)
    assert found.week == 1
    assert found.players == [PlayerDues(f"P{n}", 0, 0) for n in (1, 2, 3)]


async def test_r10_1_unpaid_dues_add_up_over_the_nights_played(players) -> None:
    """P1 paid week 1; nobody paid week 2: P2 and P3 owe two nights' dues."""
    db = players
    await money.record_dues(db, GUILD, "P1", 1, by=COMMISSIONER, now=at(NIGHT))
    await play_week_1(db)
    latest = await money.summary(db, GUILD)
    assert latest.week == 2
    assert latest.players == [
        PlayerDues("P2", 0, 1200),
        PlayerDues("P3", 0, 1200),
        PlayerDues("P1", 600, 600),
    ]
    first = await money.summary(db, GUILD, 1)
    assert first.week == 1
    assert first.players == [
        PlayerDues("P2", 0, 600),
        PlayerDues("P3", 0, 600),
        PlayerDues("P1", 600, 0),
    ]


async def test_r10_1_a_removed_player_is_listed_with_the_dues_they_paid(players) -> None:
    """P3 paid week 1's dues, then left before the night: the summary still
    shows what P3 paid. P4 left before paying or playing and is not listed."""
    db = players
    await membership.add_player(db, GUILD, "P4", discord_id=discord_id(4), now=at(date(2026, 1, 2)))
    await money.record_dues(db, GUILD, "P3", 1, by=COMMISSIONER, now=at(NIGHT, "10:00"))
    await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "11:00"))
    await membership.remove_player(db, GUILD, "P4", now=at(NIGHT, "11:00"))
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    found = await money.summary(db, GUILD, 1)
    assert found.players == [
        PlayerDues("P1", 0, 600),
        PlayerDues("P2", 0, 600),
        PlayerDues("P3", 600, 0),
    ]
