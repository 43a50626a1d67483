"""Pre-makeup submissions refused, in the words the player reads (R3.1): one
score per machine (waiting, or already recorded), played with another league
player present."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from bot.database import Database
from bot.services import approvals, machine_list, membership, premakeups
from bot.services.errors import BadInput, Conflict, NotFound, WrongState
from tests.services.conftest import COMMISSIONER, GUILD, SEASON_START, at, discord_id, snapshot

P1, P2 = discord_id(1), discord_id(2)
BEFORE = at(date(2026, 1, 5))


async def test_r3_1_a_second_score_on_a_machine_names_the_first_and_its_state(
    players: Database,
) -> None:
    db = players
    first = await premakeups.submit(db, GUILD, P1, "Machine A", 1000, [P2], now=BEFORE)
    with pytest.raises(Conflict) as waiting:
        await premakeups.submit(db, GUILD, P1, "machine a", 2000, [P2], now=BEFORE)
    assert str(waiting.value) == (
        "Your pre-makeup score on Machine A (1,000) is waiting for approval; "
        "there is one per machine."
    )
    await approvals.decide_pre_makeup(
        db, GUILD, first.pre_makeup.id, True, by=COMMISSIONER, now=BEFORE
    )
    with pytest.raises(Conflict) as recorded:
        await premakeups.submit(db, GUILD, P1, "Machine A", 2000, [P2], now=BEFORE)
    assert str(recorded.value) == (
        "Your pre-makeup score on Machine A (1,000) is recorded; there is one per machine."
    )


async def test_r3_1_who_was_there_must_be_another_league_player(players: Database) -> None:
    db = players
    before = await snapshot(db)
    with pytest.raises(NotFound) as stranger:
        await premakeups.submit(db, GUILD, P1, "Machine A", 1000, [P2, 42], now=BEFORE)
    assert str(stranger.value) == "Everyone named as present must be a league player."
    with pytest.raises(BadInput) as alone:
        await premakeups.submit(db, GUILD, P1, "Machine A", 1000, [P1], now=BEFORE)
    assert str(alone.value) == (
        "A pre-makeup score is played with at least one other league player present; "
        "name who was there."
    )
    assert await snapshot(db) == before


WEEK_2 = SEASON_START + timedelta(weeks=1)


@pytest.mark.parametrize("clock", ["20:00", "23:30"])  # 23:30 in New York is the next day in UTC
async def test_r3_1_a_machine_added_on_week_1s_night_is_not_added_after_it(
    players: Database, clock: str
) -> None:
    """Week 1's own day, in the league's time zone, is not after week 1: a
    pre-makeup on that machine in week 2 is refused as for any other."""
    db = players
    await machine_list.add_machine(db, GUILD, "Funhouse", par=1_000_000,
                                   now=at(SEASON_START, clock))  # fmt: skip
    with pytest.raises(WrongState, match=r"^Pre-makeup scores are played in week 1 or before"):
        await premakeups.submit(db, GUILD, P1, "Funhouse", 1000, [P2], now=at(WEEK_2, "10:00"))
    added_later = at(SEASON_START + timedelta(days=1), "09:00")
    await machine_list.add_machine(db, GUILD, "Taxi", par=1_000_000, now=added_later)
    done = await premakeups.submit(db, GUILD, P1, "Taxi", 1000, [P2], now=at(WEEK_2, "10:00"))
    assert done.machine.name == "Taxi"


async def test_r3_1_a_player_who_joined_on_week_1s_day_did_not_join_after_it(
    players: Database,
) -> None:
    db = players
    await membership.add_player(db, GUILD, "P4", discord_id=discord_id(4),
                                now=at(SEASON_START, "23:30"))  # fmt: skip
    with pytest.raises(WrongState, match=r"^Pre-makeup scores are played in week 1 or before"):
        await premakeups.submit(db, GUILD, discord_id(4), "Machine A", 1000, [P2],
                                now=at(WEEK_2, "10:00"))  # fmt: skip
