"""Absences, pre-makeups and a machine added mid-season (R2.4, R3.1-R3.8, R6.2)."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from bot.database import Database
from bot.services import (
    approvals,
    attendance,
    finalize,
    machine_list,
    membership,
    picks,
    premakeups,
    scores,
    setup,
    skips,
)
from bot.services.errors import BadInput, Conflict, NotFound, WrongState
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    discord_id,
    notices_on,
    snapshot,
)

P1, P2, P3 = discord_id(1), discord_id(2), discord_id(3)
LIVE = {P1: 300_000_000, P2: 200_000_000}  # P1 wins 3-2 over P2 on every game


def night_of(week: int) -> date:
    return SEASON_START + timedelta(weeks=week - 1)


async def pre_makeup(db: Database, player: int, machine: str, score: int) -> None:
    submitted = await premakeups.submit(
        db, GUILD, player, machine, score, [P1 if player != P1 else P2], now=at(date(2026, 1, 5))
    )
    await approvals.decide_pre_makeup(
        db, GUILD, submitted.pre_makeup.id, True, by=COMMISSIONER, now=at(date(2026, 1, 5))
    )


async def play(db: Database, week: int) -> finalize.NightSummary:
    """P1 and P2 play all five games; P3 has said they are absent."""
    day = night_of(week)
    await picks.lock_picks(db, GUILD, now=at(day, "19:15"))
    for player, score in LIVE.items():
        for game in range(1, 6):
            await scores.submit(db, GUILD, player, game, score, now=at(day, "20:00"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(day, "22:00"))
    return await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(day, "23:00"))


def row(summary: finalize.NightSummary, name: str):
    return next(r for n, r in summary.groups[0].rows if n == name)


def sources(summary: finalize.NightSummary, name: str) -> list[str]:
    return [next(f.source for f in g.finish if f.player == name) for g in summary.groups[0].games]


async def test_r3_5_r3_6_three_absences_with_pre_makeups_then_the_zero_point_rule(
    league: Database,
) -> None:
    db = league
    await add_players(db, 3)
    machines = await add_machines(db, 6)
    for machine in machines:
        await pre_makeup(db, P3, machine, 400_000_000)  # beats P1's 300M + P2's 200M? no: 400 < 500

    notice = await attendance.notify(db, GUILD, P3, "absent", now=at(date(2026, 1, 4)))
    assert notice.notice.timing == "advance"  # R2.1: before league day
    assert notice.pre_makeup_nights_left == 3
    # Before picks lock every working machine is listed with its stand-in score.
    assert [(m.machine, m.pre_makeup) for m in notice.missed] == [
        (name, 400_000_000) for name in machines
    ]
    week1 = await play(db, 1)
    # R3.2: P3's 400M stands in on every game as if P3 played: first, 3 points;
    # 400 < 300 + 200, so third (P2) gets the close point: 3-2-1.
    assert sources(week1, "P3") == ["pre_makeup"] * 5
    assert [row(week1, n).match_points for n in ("P3", "P1", "P2")] == [15, 10, 5]
    assert row(week1, "P3").used_pre_makeup_night and row(week1, "P3").took_part
    assert row(week1, "P3").attendance == "absent"

    for week in (2, 3):
        await attendance.notify(db, GUILD, P3, "absent", now=at(night_of(week), "09:00"))
        summary = await play(db, week)
        assert sources(summary, "P3") == ["pre_makeup"] * 5

    fourth = await attendance.notify(db, GUILD, P3, "absent", now=at(night_of(4), "09:00"))
    assert fourth.pre_makeup_nights_left == 0 and fourth.zero_point_everywhere
    # R3.6: the pre-makeups still stand in for the others, but they count for nothing.
    assert [(m.pre_makeup, m.counts) for m in fourth.missed] == [(400_000_000, False)] * 6
    week4 = await play(db, 4)
    # R3.6: the pre-makeup still stands in for the others (P1 is second, 2 points;
    # P2 third, and 400 < 300 + 200 gives third the close point), P3 gets 0.
    assert sources(week4, "P3") == ["zero_point_limit"] * 5
    assert [row(week4, n).match_points for n in ("P1", "P2", "P3")] == [10, 5, 0]
    assert not row(week4, "P3").took_part  # R3.8: keeps their group position
    assert not row(week4, "P3").used_pre_makeup_night

    # R3.5: the commissioner may grant more; week 5 uses pre-makeups again.
    await membership.grant_pre_makeup_nights(db, GUILD, "P3", 1)
    await attendance.notify(db, GUILD, P3, "absent", now=at(night_of(5), "09:00"))
    assert sources(await play(db, 5), "P3") == ["pre_makeup"] * 5


async def test_r3_1_a_machine_added_mid_season_is_owed_by_everyone(league: Database) -> None:
    db = league
    await add_players(db, 3)
    machines = await add_machines(db, 6)
    for player in (P1, P2, P3):
        for machine in machines:
            await pre_makeup(db, player, machine, 250_000_000)
    assert await premakeups.owed(db, GUILD) == {"P1": [], "P2": [], "P3": []}
    await attendance.notify(db, GUILD, P3, "absent", now=at(night_of(1), "09:00"))
    await play(db, 1)

    await machine_list.add_machine(db, GUILD, "Machine G", par=None, now=at(night_of(2), "10:00"))
    assert await premakeups.owed(db, GUILD) == {n: ["Machine G"] for n in ("P1", "P2", "P3")}
    # R6.2: no par and no approved pre-makeups: no par at all yet.
    assert (await machine_list.set_par(db, GUILD, "Machine G", None)).effective is None
    await pre_makeup(db, P1, "Machine G", 80_000_000)
    await pre_makeup(db, P2, "Machine G", 100_000_000)
    assert (
        await machine_list.set_par(db, GUILD, "Machine G", None)
    ).effective == 90_000_000  # median

    await attendance.notify(db, GUILD, P3, "absent", now=at(night_of(2), "09:00"))
    summary = await play(db, 2)
    games = summary.groups[0].games
    # P = 7: two vetoes, filled in machine order (R4.5): A and B; G is game 5.
    assert [g.machine for g in games] == [*machines[2:], "Machine G"]
    # R3.4: no pre-makeup on G: the Zero Point Rule; the others came from pre-makeups.
    assert sources(summary, "P3") == ["pre_makeup"] * 4 + ["zero_point"]


async def test_pre_makeup_refusals(league: Database) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 2)
    await pre_makeup(db, P1, "Machine A", 1000)
    with pytest.raises(Conflict, match=r"one per machine"):
        await premakeups.submit(db, GUILD, P1, "machine a", 2000, [P2], now=at(date(2026, 1, 5)))
    with pytest.raises(BadInput, match="at least one other league player"):
        await premakeups.submit(db, GUILD, P1, "Machine B", 2000, [P1], now=at(date(2026, 1, 5)))
    with pytest.raises(NotFound, match="must be a league player"):
        await premakeups.submit(db, GUILD, P1, "Machine B", 2000, [42], now=at(date(2026, 1, 5)))
    with pytest.raises(NotFound, match="no machine called 'Machine Z'"):
        await premakeups.submit(db, GUILD, P1, "Machine Z", 2000, [P2], now=at(date(2026, 1, 5)))
    with pytest.raises(BadInput, match="cannot be negative"):
        await premakeups.submit(db, GUILD, P1, "Machine B", -5, [P2], now=at(date(2026, 1, 5)))
    assert await premakeups.owed(db, GUILD) == {
        "P1": ["Machine B"], "P2": ["Machine A", "Machine B"], "P3": ["Machine A", "Machine B"],
    }  # fmt: skip


async def test_r2_1_notices_are_classified_by_the_league_clock(league: Database) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 6)
    day = night_of(1)
    on_time = await attendance.notify(db, GUILD, P1, "late", minutes=20, now=at(day, "14:59"))
    assert on_time.notice.timing == "on_time"
    late = await attendance.notify(db, GUILD, P1, "late", minutes=20, now=at(day, "15:00"))
    assert late.notice.timing == "after_cutoff"
    assert late.grace_until == time(19, 30)
    # The newer notice replaced the older one.
    _, notices = await notices_on(db, day)
    assert [(n.kind, n.timing, n.minutes) for n in notices] == [("late", "after_cutoff", 20)]
    with pytest.raises(NotFound, match="no league night on Thursday 08 January 2026"):
        await attendance.notify(db, GUILD, P1, "absent", day=date(2026, 1, 8), now=at(day))
    with pytest.raises(BadInput, match="from 1 to 240"):
        await attendance.notify(db, GUILD, P1, "late", minutes=0, now=at(day))
    with pytest.raises(NotFound, match="not a player"):
        await attendance.notify(db, GUILD, 777, "late", now=at(day))


async def test_r1_2_skipping_a_date_withdraws_the_notices_given_for_it(league: Database) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 6)
    await attendance.notify(db, GUILD, P3, "absent", day=night_of(2), now=at(night_of(1)))
    await skips.skip_date(db, GUILD, night_of(2), "ice storm", now=at(night_of(1), "23:00"))
    # Week 2 moved to the 21st; P3's absence was for the 14th and no longer stands.
    night, notices = await notices_on(db, night_of(3))
    assert (night.week, notices) == (2, [])


async def test_r2_4_an_absent_player_who_plays_is_present_and_cannot_be_absent_after(
    league: Database,
) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 6)
    await attendance.notify(db, GUILD, P3, "absent", now=at(night_of(1), "09:00"))
    await picks.lock_picks(db, GUILD, now=at(night_of(1), "19:15"))
    await scores.submit(db, GUILD, P3, 1, 1000, now=at(night_of(1), "20:00"))
    _, notices = await notices_on(db, night_of(1))
    assert notices == []  # P3 came after all: the absence is withdrawn
    with pytest.raises(WrongState, match="P3 already has scores for week 1"):
        await attendance.notify(db, GUILD, P3, "absent", now=at(night_of(1), "22:30"))


async def test_r2_4_a_group_mate_cannot_take_back_an_absence_by_submitting_for_them(
    league: Database,
) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 6)
    await attendance.notify(db, GUILD, P3, "absent", now=at(night_of(1), "09:00"))
    await picks.lock_picks(db, GUILD, now=at(night_of(1), "19:15"))
    before = await snapshot(db)
    with pytest.raises(WrongState, match=r"P3 is absent tonight .* P3 submits their own score"):
        await scores.submit(db, GUILD, P1, 1, 1000, player=P3, now=at(night_of(1), "20:00"))
    assert await snapshot(db) == before  # the absence stands; no score was taken
    _, notices = await notices_on(db, night_of(1))
    assert [n.kind for n in notices] == ["absent"]


async def test_r3_1_pre_makeups_are_played_in_week_1_or_before(league: Database) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 2)
    later = at(night_of(2), "18:00")
    with pytest.raises(WrongState, match=r"week 1 or before; week 1 was 07 January"):
        await premakeups.submit(db, GUILD, P1, "Machine A", 1000, [P2], now=later)
    # A player who joined after week 1 owes them as soon as possible: allowed.
    await membership.add_player(
        db, GUILD, "Newcomer", discord_id=99, now=at(night_of(1) + timedelta(days=2))
    )
    done = await premakeups.submit(db, GUILD, 99, "Machine A", 1000, [P2], now=later)
    assert done.player.name == "Newcomer"


async def test_a_new_season_waits_for_the_night_being_played(league: Database) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 6)
    await picks.lock_picks(db, GUILD, now=at(night_of(1), "19:15"))
    with pytest.raises(WrongState) as refused:
        await setup.start_season(db, GUILD, "Summer 2026", night_of(5), now=at(night_of(1)))
    assert str(refused.value) == (
        "Week 1 of Spring 2026 is being played; finalize it before starting a new season."
    )
