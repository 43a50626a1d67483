"""R2: a player takes back their own late notice or absence (`/late cancel`,
`/absent cancel`); it is kept, marked withdrawn."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.services import attendance, picks, scores
from bot.services.errors import BadInput, NotFound, WrongState
from tests.services.conftest import GUILD, at, discord_id, notices_on, snapshot

P1, P2 = discord_id(1), discord_id(2)
JAN_7, JAN_14, JAN_28 = date(2026, 1, 7), date(2026, 1, 14), date(2026, 1, 28)
MONDAY = at(date(2026, 1, 12))  # before week 2 (14 January)


async def live(db: Database, day: date) -> list[tuple[int, str]]:
    _, notices = await notices_on(db, day)
    return [(n.player_id, n.kind) for n in notices]


async def test_r2_a_player_takes_back_an_absence_for_a_later_date(players: Database) -> None:
    db = players
    await attendance.notify(db, GUILD, P1, "absent", day=JAN_28, now=MONDAY)
    await attendance.notify(db, GUILD, P2, "absent", day=JAN_28, now=MONDAY)
    taken = await attendance.withdraw(db, GUILD, P1, "absent", day=JAN_28, now=MONDAY)
    assert (taken.player.name, taken.night.week, taken.night.date, taken.kind) == (
        "P1", 4, JAN_28, "absent",
    )  # fmt: skip
    assert [kind for _, kind in await live(db, JAN_28)] == ["absent"]  # P2's stands
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT withdrawn_at IS NOT NULL FROM notices ORDER BY id"
        )
    assert [tuple(r) for r in rows] == [(1,), (0,)]  # kept, marked withdrawn
    # The player can give it again.
    await attendance.notify(db, GUILD, P1, "absent", day=JAN_28, now=MONDAY)
    assert len(await live(db, JAN_28)) == 2


async def test_r2_a_player_takes_back_a_late_notice_for_tonight(players: Database) -> None:
    db = players
    await attendance.notify(db, GUILD, P1, "late", minutes=20, now=at(JAN_14, "10:00"))
    taken = await attendance.withdraw(db, GUILD, P1, "late", now=at(JAN_14, "16:00"))
    assert (taken.night.week, taken.kind) == (2, "late")
    assert await live(db, JAN_14) == []


async def test_r2_taking_back_what_was_not_given_is_refused_and_changes_nothing(
    players: Database,
) -> None:
    db = players
    await attendance.notify(db, GUILD, P1, "absent", now=MONDAY)
    before = await snapshot(db)
    with pytest.raises(BadInput, match=r"no late notice or absence for week 2 \(Wednesday 14"):
        await attendance.withdraw(db, GUILD, P2, "late", now=MONDAY)
    with pytest.raises(BadInput, match="is an absence; take it back with /absent cancel:True"):
        await attendance.withdraw(db, GUILD, P1, "late", now=MONDAY)
    with pytest.raises(BadInput, match="no late notice or absence for week 4"):
        await attendance.withdraw(db, GUILD, P1, "absent", day=JAN_28, now=MONDAY)
    with pytest.raises(NotFound, match="no league night on Thursday 15 January 2026"):
        await attendance.withdraw(db, GUILD, P1, "absent", day=date(2026, 1, 15), now=MONDAY)
    with pytest.raises(NotFound, match="not a player"):
        await attendance.withdraw(db, GUILD, 777, "absent", now=MONDAY)
    with pytest.raises(BadInput, match="late or absent"):
        await attendance.withdraw(db, GUILD, P1, "early", now=MONDAY)
    assert await snapshot(db) == before


async def test_r2_a_notice_for_a_night_that_is_over_stands(players: Database) -> None:
    db = players
    await attendance.notify(db, GUILD, P1, "late", now=at(JAN_7, "10:00"))
    await picks.lock_picks(db, GUILD, now=at(JAN_7, "19:15"))
    await scores.submit(db, GUILD, P2, 1, 1000, now=at(JAN_7, "20:00"))
    before = await snapshot(db)
    with pytest.raises(WrongState, match="Week 1 on 07 January is over; its notices stand"):
        await attendance.withdraw(db, GUILD, P1, "late", day=JAN_7, now=at(date(2026, 1, 8)))
    assert await snapshot(db) == before
