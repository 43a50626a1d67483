"""Late notices and absences at their edges (R2, R3.5): the words of the
refusals, a finalized night, a removed player and granted pre-makeup nights."""

from __future__ import annotations

from datetime import date

import pytest

from bot.services import attendance, membership, picks, scores
from bot.services.errors import BadInput, NotFound, WrongState
from cogs.attendance import attendance_text
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    at,
    discord_id,
    finalize_week_1,
    notices_on,
)

NIGHT = SEASON_START  # Wednesday 7 January 2026, week 1
WEEK_2 = date(2026, 1, 14)
P1, P2, P3 = discord_id(1), discord_id(2), discord_id(3)


async def test_r2_a_player_with_scores_tonight_is_told_to_give_a_date_to_miss_a_later_night(
    players,
) -> None:
    db = players
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    await scores.submit(db, GUILD, P1, 1, 1_000, now=at(NIGHT, "19:40"))
    with pytest.raises(WrongState) as refused:
        await attendance.notify(db, GUILD, P1, "absent", now=at(NIGHT, "19:45"))
    assert str(refused.value) == (
        "P1 already has scores for week 1, so cannot be absent from it. "
        "To miss a later night, give its date."
    )


async def test_r3_5_granted_pre_makeup_nights_are_counted_in_an_absences_reply(players) -> None:
    """R3.5: the season's limit plus the nights the commissioner granted."""
    db = players
    await membership.grant_pre_makeup_nights(db, GUILD, "P1", 2)
    given = await attendance.notify(db, GUILD, P1, "absent", now=at(NIGHT, "10:00"))
    limit = given.pre_makeup_nights_left
    other = await attendance.notify(db, GUILD, P2, "absent", now=at(NIGHT, "10:00"))
    assert limit == other.pre_makeup_nights_left + 2
    assert f"Pre-makeup nights left before this one: {limit} " in attendance_text.notice(given)


async def test_a_removed_player_cannot_be_marked_for_a_night_they_are_not_in(players) -> None:
    """P3 left during week 1 and is in no group of week 2: the commissioner
    cannot mark P3 absent on 14 January, even while week 1 is being played."""
    db = players
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "19:30"))
    with pytest.raises(NotFound, match=r"There is no player called 'P3' in this league\."):
        await attendance.mark(db, GUILD, "P3", "absent", by=COMMISSIONER, day=WEEK_2,
                              now=at(NIGHT, "21:00"))  # fmt: skip
    _, notices = await notices_on(db, WEEK_2)
    assert notices == []


async def test_r2_taking_back_an_absence_after_tonight_was_finalized_means_next_week(
    players,
) -> None:
    """After week 1 is finalized on its own evening, `/absent cancel:True`
    without a date is about the next night still to play: week 2."""
    db = players
    await attendance.notify(db, GUILD, P1, "absent", day=WEEK_2, now=at(NIGHT, "10:00"))
    await finalize_week_1(db)
    taken = await attendance.withdraw(db, GUILD, P1, "absent", now=at(NIGHT, "23:30"))
    assert taken.night.week == 2
    _, notices = await notices_on(db, WEEK_2)
    assert notices == []


async def test_r2_a_notice_of_a_night_finalized_tonight_cannot_be_taken_back(players) -> None:
    """Week 1 was finalized at 23:00 on its own day: P2's late notice for it stands."""
    db = players
    await attendance.notify(db, GUILD, P2, "late", minutes=15, now=at(NIGHT, "10:00"))
    await finalize_week_1(db)
    with pytest.raises(WrongState) as refused:
        await attendance.withdraw(db, GUILD, P2, "late", day=NIGHT, now=at(NIGHT, "23:30"))
    assert str(refused.value) == "Week 1 on 07 January is over; its notices stand."
    night = await notices_on(db, NIGHT)
    assert [(n.kind, n.minutes) for n in night[1]] == [("late", 15)]


async def test_r2_taking_back_the_wrong_kind_of_notice_names_the_command_to_use(players) -> None:
    db = players
    await attendance.notify(db, GUILD, P1, "late", minutes=10, now=at(NIGHT, "10:00"))
    with pytest.raises(BadInput) as late:
        await attendance.withdraw(db, GUILD, P1, "absent", now=at(NIGHT, "11:00"))
    assert str(late.value) == (
        "Your notice for week 1 (Wednesday 07 January) is a late notice; "
        "take it back with /late cancel:True."
    )
    await attendance.notify(db, GUILD, P2, "absent", now=at(NIGHT, "10:00"))
    with pytest.raises(BadInput) as absent:
        await attendance.withdraw(db, GUILD, P2, "late", now=at(NIGHT, "11:00"))
    assert str(absent.value) == (
        "Your notice for week 1 (Wednesday 07 January) is an absence; "
        "take it back with /absent cancel:True."
    )


async def test_r2_an_absence_for_tonight_once_it_is_finalized_is_refused(players) -> None:
    """Week 1 was finalized at 23:00: an absence dated that same evening is for
    a night that is over."""
    db = players
    await finalize_week_1(db)
    with pytest.raises(WrongState) as refused:
        await attendance.notify(db, GUILD, P2, "absent", day=NIGHT, now=at(NIGHT, "23:30"))
    assert str(refused.value) == (
        "Week 1 on 07 January is over; a notice is for a coming night (/groups shows the next one)."
    )
