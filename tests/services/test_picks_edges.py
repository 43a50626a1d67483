"""Vetoes, repeats and the commissioner's games at their edges (R4): the words
of each refusal, the night picks are for once tonight is finalized, and a
season of more games a night than the default."""

from __future__ import annotations

from datetime import date

import pytest

from bot.repositories import leagues, nights, people
from bot.services import announcements, machine_list, membership, picks, scores, setup
from bot.services.context import season_of
from bot.services.errors import BadInput, Conflict, WrongState
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, SEASON_START, at, discord_id, finalize_week_1

NIGHT = SEASON_START  # Wednesday 7 January 2026, week 1
P1, P2, P3 = discord_id(1), discord_id(2), discord_id(3)
GAMES = ["Machine A", "Machine B", "Machine C", "Machine D", "Machine E"]


async def test_r4_3_once_tonight_is_finalized_a_veto_is_for_next_week(players) -> None:
    db = players
    await finalize_week_1(db)
    chosen = await picks.add_pick(db, GUILD, P1, "Machine A", now=at(NIGHT, "23:30"))
    assert (chosen.night.week, chosen.night.date) == (2, date(2026, 1, 14))
    cleared = await picks.clear_picks(db, GUILD, P1, now=at(NIGHT, "23:40"))
    assert (cleared.night.week, cleared.picks) == (2, [])


async def test_r4_2_as_many_working_machines_as_games_leaves_nothing_to_pick(players) -> None:
    """R4.2: six games a night and six working machines: P equals the games."""
    db = players
    await setup.change_setting(db, GUILD, "games_per_night", 6, now=SETTING_AT)
    with pytest.raises(BadInput) as refused:
        await picks.add_pick(db, GUILD, P1, "Machine A", now=at(NIGHT, "10:00"))
    assert str(refused.value) == (
        "There are exactly 6 working machines: all are played, nothing to pick."
    )


async def test_r4_1_locking_with_no_machine_working_is_refused_in_words(players) -> None:
    """Every machine out of order: the lock says what to do, and nothing is locked."""
    db = players
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        names = [m.name for m in await people.machines(conn, ctx.league.id)]
    for name in names:
        await machine_list.set_working(db, GUILD, name, False)
    with pytest.raises(WrongState) as refused:
        await picks.lock_picks(db, GUILD, week=1, now=at(NIGHT, "19:15"))
    assert str(refused.value) == "No machine is working; mark machines as working first."
    async with db.read() as conn:
        assert (await leagues.night_by_date(conn, ctx.season.id, NIGHT)).status == "scheduled"


async def games_of_week_1(db) -> list[list[str]]:
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        night = await leagues.night_by_date(conn, ctx.season.id, NIGHT)
        return [[g.machine for g in await nights.games(conn, group.id)]
                for group in await nights.groups(conn, night.id)]  # fmt: skip


async def test_r4_a_finalized_week_is_not_locked_again(players) -> None:
    """`/league night lock week:1` after week 1 is finalized: refused in words,
    and the games it was played on stay as they were."""
    db = players
    await finalize_week_1(db)
    played = await games_of_week_1(db)
    await picks.add_pick(db, GUILD, P1, "Machine A", now=at(NIGHT, "23:10"))  # for week 2
    with pytest.raises(WrongState) as refused:
        await picks.lock_picks(db, GUILD, week=1, now=at(NIGHT, "23:30"))
    assert str(refused.value) == "Week 1 is already finalized."
    assert await games_of_week_1(db) == played


async def test_r11_2_a_player_removed_after_the_lock_is_still_in_the_play_order(players) -> None:
    """P3 leaves the league mid-night (they stay in that night); locking again
    shows the same night, P3 still in their group's order, by name."""
    db = players
    first = await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "19:30"))
    again = await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:45"))
    assert [g.play_order for g in again] == [g.play_order for g in first]
    assert any("P3" in g.play_order for g in again)


async def test_r4_3_vetoing_a_machine_twice_lists_the_picks_so_far(players) -> None:
    db = players
    for machine in ("Machine A", "Machine B"):
        await picks.add_pick(db, GUILD, P1, machine, now=at(NIGHT, "10:00"))
    with pytest.raises(Conflict) as refused:
        await picks.add_pick(db, GUILD, P1, "Machine A", now=at(NIGHT, "10:05"))
    assert str(refused.value) == ("You already vetoed Machine A. Your picks: Machine A, Machine B.")


async def test_r4_3_repeats_stop_at_one_per_working_machine(players) -> None:
    """R4.2: four working machines for five games: repeats, at most four."""
    db = players
    for machine in ("Machine E", "Machine F"):
        await machine_list.set_working(db, GUILD, machine, False)
    for machine in ("Machine A", "Machine A", "Machine B", "Machine C"):
        chosen = await picks.add_pick(db, GUILD, P1, machine, now=at(NIGHT, "10:00"))
    assert chosen.kind == "repeat" and len(chosen.picks) == 4
    with pytest.raises(BadInput) as refused:
        await picks.add_pick(db, GUILD, P1, "Machine D", now=at(NIGHT, "10:05"))
    assert str(refused.value) == "You have 4 picks already; clear them to start again."


async def test_r4_5_games_are_overridden_only_once_picks_are_locked(players) -> None:
    db = players
    with pytest.raises(WrongState) as refused:
        await picks.set_games(db, GUILD, "1", GAMES, now=at(NIGHT, "18:00"))
    assert str(refused.value) == "Lock the night's picks before changing a group's games."


async def test_r4_5_an_unknown_group_is_named_in_capitals(players) -> None:
    db = players
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    with pytest.raises(BadInput) as refused:
        await picks.set_games(db, GUILD, " b7 ", GAMES, now=at(NIGHT, "19:20"))
    assert str(refused.value) == "There is no group B7 in week 1."


async def test_r4_5_a_groups_games_are_set_once_a_score_is_in(players) -> None:
    db = players
    locked = await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    await scores.submit(db, GUILD, P1, 1, 1_000, now=at(NIGHT, "19:30"))
    with pytest.raises(WrongState) as refused:
        await picks.set_games(db, GUILD, "1", GAMES, now=at(NIGHT, "19:35"))
    assert str(refused.value) == (
        "Scores were already submitted for this group; its games are set."
    )
    again = await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:40"))
    assert again[0].games == locked[0].games


async def test_r4_4_locking_again_gives_the_same_lock_post_for_the_nights_date(players) -> None:
    """R4.4: `/league night lock` on a night already locked answers with its
    games and makes the same lock post (its key claimed once)."""
    db = players
    first = await picks.lock_picks(db, GUILD, now=at(NIGHT, "18:00"))
    again = await picks.lock_picks(db, GUILD, now=at(NIGHT, "18:30"))
    assert not again[0].newly_locked and again[0].day == NIGHT
    assert again[0].games == first[0].games
    post = await announcements.lock_post(db, GUILD, again)
    assert post is not None and post.key == "lock:2026-01-07"
