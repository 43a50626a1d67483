"""R1.2: a skipped date moves every later week; late notices and absences
belong to a date, so only those for the skipped date are withdrawn."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.repositories import leagues, nights, people
from bot.services import attendance, picks, skips
from bot.services.context import season_of
from bot.services.errors import NotFound, WrongState
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    at,
    discord_id,
    notices_on,
    snapshot,
)

P1, P2, P3 = discord_id(1), discord_id(2), discord_id(3)
JAN_7, JAN_14, JAN_21, JAN_28 = (date(2026, 1, day) for day in (7, 14, 21, 28))
FEB_4 = date(2026, 2, 4)
THURSDAY = at(date(2026, 1, 8))  # the day after week 1: /late is for 14 January


async def live(db: Database, day: date) -> tuple[int, list[tuple[str, str]]]:
    """The week on `day` and its live notices as (player, kind)."""
    night, notices = await notices_on(db, day)
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        names = {p.id: p.name for p in await people.players(conn, ctx.league.id)}
    return night.week, [(names[n.player_id], n.kind) for n in notices]


async def night_ids(db: Database) -> dict[date, int]:
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        return {n.date: n.id for n in await leagues.nights(conn, ctx.season.id)}


async def test_r1_2_a_notice_for_the_skipped_date_is_withdrawn_and_its_player_named(
    players: Database,
) -> None:
    db = players
    await attendance.notify(db, GUILD, P1, "absent", day=JAN_14, now=THURSDAY)
    await attendance.notify(db, GUILD, P2, "late", minutes=15, now=THURSDAY)
    skipped = await skips.skip_date(db, GUILD, JAN_14, " snow ", now=at(date(2026, 1, 9)))
    assert [(w.player.name, w.player.discord_id, w.kind, w.day) for w in skipped.withdrawn] == [
        ("P1", P1, "absent", JAN_14),
        ("P2", P2, "late", JAN_14),
    ]
    assert (skipped.day, skipped.reason, skipped.kept, skipped.stranded) == (JAN_14, "snow", 0, [])
    # Week 2 is now on the 21st; the notices were for the 14th and no longer stand.
    assert await live(db, JAN_21) == (2, [])
    with pytest.raises(NotFound, match="no league night on Wednesday 14 January 2026"):
        await notices_on(db, JAN_14)
    # The withdrawn notices are kept, marked withdrawn.
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT withdrawn_at IS NOT NULL FROM notices")
    assert [tuple(r) for r in rows] == [(1,), (1,)]


async def test_r1_2_a_notice_for_a_later_date_stays_with_that_date(players: Database) -> None:
    db = players
    before = await night_ids(db)
    await attendance.notify(db, GUILD, P1, "absent", day=JAN_14, now=THURSDAY)
    await attendance.notify(db, GUILD, P3, "absent", day=JAN_28, now=THURSDAY, note="away")
    assert await live(db, JAN_28) == (4, [("P3", "absent")])
    skipped = await skips.skip_date(db, GUILD, JAN_14, "snow", now=THURSDAY)
    assert [w.player.name for w in skipped.withdrawn] == ["P1"]
    assert (skipped.kept, skipped.stranded) == (1, [])
    # 28 January is now week 3, and P3 is still absent on it.
    assert await live(db, JAN_28) == (3, [("P3", "absent")])
    after = await night_ids(db)
    assert after[JAN_28] == before[JAN_21]  # the night that now carries the date has it
    async with db.read() as conn:
        carried = await nights.notices(conn, after[JAN_28])
        moved_away = await nights.notices(conn, before[JAN_28])  # now on 4 February
    assert [(n.kind, n.timing, n.note) for n in carried] == [("absent", "advance", "away")]
    assert moved_away == []
    assert await live(db, FEB_4) == (4, [])


async def test_r1_2_notices_for_two_later_dates_by_one_player_stay_with_their_dates(
    players: Database,
) -> None:
    db = players
    await attendance.notify(db, GUILD, P3, "absent", day=JAN_21, now=THURSDAY)
    await attendance.mark(db, GUILD, "P3", "late", by=COMMISSIONER, day=JAN_28, now=THURSDAY)
    await attendance.notify(db, GUILD, P2, "absent", day=FEB_4, now=THURSDAY)
    skipped = await skips.skip_date(db, GUILD, JAN_14, now=THURSDAY)
    assert (skipped.withdrawn, skipped.kept, skipped.stranded) == ([], 3, [])
    assert await live(db, JAN_21) == (2, [("P3", "absent")])
    assert await live(db, JAN_28) == (3, [("P3", "late")])
    assert await live(db, FEB_4) == (4, [("P2", "absent")])
    assert await live(db, date(2026, 2, 11)) == (5, [])
    # A second skip moves them again, still by date.
    again = await skips.skip_date(db, GUILD, JAN_21, now=THURSDAY)
    assert ([w.player.name for w in again.withdrawn], again.kept) == (["P3"], 2)
    assert await live(db, JAN_28) == (2, [("P3", "late")])
    assert await live(db, FEB_4) == (3, [("P2", "absent")])


async def test_r1_2_skipping_with_no_notices(players: Database) -> None:
    db = players
    skipped = await skips.skip_date(db, GUILD, JAN_14, now=THURSDAY)
    assert (skipped.withdrawn, skipped.kept, skipped.stranded) == ([], 0, [])
    assert [n.date for n in skipped.nights[:3]] == [JAN_7, JAN_21, JAN_28]


async def test_r1_2_a_bad_date_is_refused_and_nothing_changes(players: Database) -> None:
    db = players
    await attendance.notify(db, GUILD, P1, "absent", day=JAN_14, now=at(JAN_7, "09:00"))
    await attendance.notify(db, GUILD, P2, "late", now=at(JAN_7, "09:00"))
    await picks.lock_picks(db, GUILD, now=at(JAN_7, "19:15"))
    before = await snapshot(db)
    with pytest.raises(NotFound, match="Thursday 15 January 2026 is not a league night"):
        await skips.skip_date(db, GUILD, date(2026, 1, 15), now=at(JAN_7, "20:00"))
    with pytest.raises(WrongState, match="Week 1 on 07 January has already started"):
        await skips.skip_date(db, GUILD, JAN_7, now=at(JAN_7, "20:00"))
    assert await snapshot(db) == before
    assert await live(db, JAN_14) == (2, [("P1", "absent")])


async def test_r1_2_a_notice_whose_date_is_left_without_a_night_is_withdrawn(
    players: Database,
) -> None:
    """Not reachable through the commands (dates only move later), but should a
    night have sat on an odd date, its notices are withdrawn and reported."""
    db = players
    odd = date(2026, 1, 22)  # a Thursday
    async with db.transaction() as conn:
        await conn.execute("UPDATE nights SET date = ? WHERE week = 3", (odd.isoformat(),))
    await attendance.notify(db, GUILD, P3, "absent", day=odd, now=THURSDAY)
    skipped = await skips.skip_date(db, GUILD, JAN_14, now=THURSDAY)
    assert [(w.player.name, w.kind, w.day) for w in skipped.stranded] == [("P3", "absent", odd)]
    assert skipped.kept == 0
    assert await live(db, JAN_28) == (3, [])
