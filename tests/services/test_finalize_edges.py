"""Finalizing at its edges (R2, R3.5, R6.2, R7.4): what it refuses and in which
words, a late player's night, a first absence under a one-night limit, and a
newcomer's first multiplier."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from bot.database import Database
from bot.scoring import RuleError
from bot.services import approvals, attendance, finalize, membership, picks, scores, setup
from bot.services.errors import NotReady, WrongState
from tests.moments import SETTING_AT
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    discord_id,
    snapshot,
)
from tests.services.test_absences import pre_makeup, row, sources

WEEK_2 = SEASON_START + timedelta(weeks=1)


async def play(db: Database, day: date, by_player: dict[int, int], *, final: bool = True):
    """Lock the night, every player of `by_player` scores it on all five games,
    the group is approved; then finalized unless `final` is False."""
    await picks.lock_picks(db, GUILD, now=at(day, "19:15"))
    for player, score in by_player.items():
        for game in range(1, 6):
            await scores.submit(db, GUILD, discord_id(player), game, score, now=at(day, "20:00"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(day, "22:00"))
    if final:
        return await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(day, "23:00"))
    return None


async def test_a_night_not_locked_yet_cannot_be_finalized(league: Database) -> None:
    await add_players(league, 3)
    await add_machines(league, 6)
    before = await snapshot(league)
    with pytest.raises(WrongState) as refused:
        await finalize.finalize(league, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))
    assert str(refused.value) == "No night has been played yet: lock tonight's picks first."
    with pytest.raises(WrongState) as refused:
        await finalize.finalize(league, GUILD, week=2, by=COMMISSIONER,
                                now=at(SEASON_START, "23:00"))  # fmt: skip
    assert str(refused.value) == "Week 2's picks are not locked yet; its games are not set."
    assert await snapshot(league) == before


async def test_r3_missing_scores_are_named_with_what_to_do(league: Database) -> None:
    await add_players(league, 3)
    await add_machines(league, 6)
    await play(league, SEASON_START, {1: 300_000_000, 2: 200_000_000}, final=False)
    with pytest.raises(NotReady) as refused:
        await finalize.finalize(league, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))
    missing = "; ".join(f"P3 on game {game} (Group 1)" for game in range(1, 6))
    assert str(refused.value) == (
        f"Week 1 cannot be finalized. Missing scores: {missing}. Submit them, "
        "or mark the player late or absent so pre-makeups are used."
    )


async def test_r6_2_a_machine_with_no_par_and_no_pre_makeups_is_refused_by_name(
    league: Database,
) -> None:
    await add_players(league, 3)
    await add_machines(league, 6, par=None)
    await play(league, SEASON_START, {1: 300_000_000, 2: 200_000_000, 3: 100_000_000},
               final=False)  # fmt: skip
    with pytest.raises(RuleError) as refused:
        await finalize.finalize(league, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))
    assert str(refused.value).endswith(
        "has no par and no approved pre-makeup scores; set its par before finalizing."
    )


async def test_r2_a_late_player_who_played_is_late_in_the_results(league: Database) -> None:
    await add_players(league, 3)
    await add_machines(league, 6)
    await attendance.notify(league, GUILD, discord_id(2), "late", minutes=20,
                            now=at(SEASON_START, "09:00"))  # fmt: skip
    done = await play(league, SEASON_START, {1: 300_000_000, 2: 200_000_000, 3: 100_000_000})
    assert [(name, r.attendance) for name, r in done.groups[0].rows] == [
        ("P1", "present"), ("P2", "late"), ("P3", "present"),
    ]  # fmt: skip


async def test_r2_4_a_late_player_who_played_no_game_is_absent_in_the_results(
    league: Database,
) -> None:
    await add_players(league, 3)
    machines = await add_machines(league, 6)
    for machine in machines:
        await pre_makeup(league, discord_id(3), machine, 400_000_000)
    await attendance.notify(league, GUILD, discord_id(3), "late", minutes=30,
                            now=at(SEASON_START, "09:00"))  # fmt: skip
    done = await play(league, SEASON_START, {1: 300_000_000, 2: 200_000_000})
    assert row(done, "P3").attendance == "absent"
    assert sources(done, "P3") == ["pre_makeup"] * 5 and row(done, "P3").used_pre_makeup_night


async def test_r3_5_a_first_absence_uses_pre_makeups_under_a_one_night_limit(
    league: Database,
) -> None:
    await setup.change_setting(league, GUILD, "pre_makeup_night_limit", 1, now=SETTING_AT)
    await add_players(league, 3)
    machines = await add_machines(league, 6)
    for machine in machines:
        await pre_makeup(league, discord_id(3), machine, 400_000_000)
    await attendance.notify(league, GUILD, discord_id(3), "absent", now=at(date(2026, 1, 4)))
    done = await play(league, SEASON_START, {1: 300_000_000, 2: 200_000_000})
    assert sources(done, "P3") == ["pre_makeup"] * 5
    assert row(done, "P3").used_pre_makeup_night


async def test_r7_4_a_newcomer_starts_at_x1(league: Database) -> None:
    """Multipliers from week 2: P4 joins after week 1 and wins week 2, so
    P4's bonus is the base times 1, not a multiplier P4 never earned."""
    await setup.change_setting(league, GUILD, "bonus_start_week", 1, now=SETTING_AT)
    await setup.change_setting(league, GUILD, "multiplier_start_week", 2, now=SETTING_AT)
    await add_players(league, 3)
    await add_machines(league, 6)
    await play(league, SEASON_START, {1: 300_000_000, 2: 200_000_000, 3: 100_000_000})
    await membership.add_player(league, GUILD, "P4", discord_id=discord_id(4),
                                now=at(WEEK_2 - timedelta(days=3)))  # fmt: skip
    done = await play(league, WEEK_2, {4: 900_000_000, 1: 300_000_000, 2: 200_000_000,
                                       3: 100_000_000})  # fmt: skip
    p4 = row(done, "P4")
    assert p4.place == 1 and p4.bonus_base > 0
    assert (p4.multiplier, p4.bonus) == (1, p4.bonus_base)


async def test_r7_2_an_exact_tie_in_match_points_and_tns_goes_by_rank(league: Database) -> None:
    """Four games a night. Week 1: P4 wins group 2 and moves up to group 1
    (R8.3), below P2 on the ladder but above P2 in the standings. Week 2: P2
    and P4 each win two games with the same scores, so match points and TNS
    tie exactly, and P4, ranked above P2 before the night, is placed higher."""
    await setup.change_setting(league, GUILD, "games_per_night", 4, now=SETTING_AT)
    await add_players(league, 6)
    await add_machines(league, 6)
    week_1 = {n: (400 - 100 * ((n - 1) % 3)) * 1_000_000 for n in range(1, 7)}
    await picks.lock_picks(league, GUILD, now=at(SEASON_START, "19:15"))
    for player, score in week_1.items():
        for game in range(1, 5):
            await scores.submit(league, GUILD, discord_id(player), game, score,
                                now=at(SEASON_START, "20:00"))  # fmt: skip
    for label in ("1", "2"):
        await approvals.approve_all(league, GUILD, label, by=COMMISSIONER,
                                    now=at(SEASON_START, "22:00"))  # fmt: skip
    first = await finalize.finalize(league, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))
    assert first.next_groups[0] == ("Group 1", ["P1", "P2", "P4"])

    locked = await picks.lock_picks(league, GUILD, now=at(WEEK_2, "19:15"))
    assert locked[0].group.members == (1, 2, 4)  # the ladder: P2 above P4
    for game in range(1, 5):
        high, low = (2, 4) if game % 2 else (4, 2)
        for player, score in ((high, 300_000_000), (low, 200_000_000), (1, 100_000_000)):
            await scores.submit(league, GUILD, discord_id(player), game, score,
                                now=at(WEEK_2, "20:00"))  # fmt: skip
    for n in (3, 5, 6):
        for game in range(1, 5):
            await scores.submit(league, GUILD, discord_id(n), game, 50_000_000 * n,
                                now=at(WEEK_2, "20:00"))  # fmt: skip
    for label in ("1", "2"):
        await approvals.approve_all(league, GUILD, label, by=COMMISSIONER, now=at(WEEK_2, "22:00"))
    done = await finalize.finalize(league, GUILD, by=COMMISSIONER, now=at(WEEK_2, "23:00"))
    p2, p4 = row(done, "P2"), row(done, "P4")
    assert (p2.match_points, p2.tns) == (p4.match_points, p4.tns)
    assert (p4.place, p2.place) == (1, 2)
