"""Pre-makeup submissions refused, in the words the player reads (R3.1): one
score per machine (waiting, or already recorded), played with another league
player present."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.services import approvals, premakeups
from bot.services.errors import BadInput, Conflict, NotFound
from tests.services.conftest import COMMISSIONER, GUILD, at, discord_id, snapshot

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
