"""`/groups` at its edges (R8, R11.2, R3.1, R4.2): the fewest players who make
groups, the last week of the longest season, a night left ungrouped at its
finalize, a past week seen later, and the picks line of unusual nights."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from bot.services import approvals, finalize, groups, membership, picks, premakeups, scores, setup
from bot.services.errors import NotReady
from bot.services.season import TOO_FEW_FOR_GROUPS, groups_wait_for
from bot.ui.embeds import week_notes
from tests.moments import SETTING_AT
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    discord_id,
    finalize_week_1,
    play_week_1,
)

WEEK_2 = SEASON_START + timedelta(days=7)
P1, P2 = discord_id(1), discord_id(2)


async def test_r8_2_two_players_are_enough_for_groups(league) -> None:
    db = league
    await add_players(db, 2)
    await add_machines(db, 5)
    now = at(SEASON_START, "10:00")
    assert await groups.check_week(db, GUILD, now=now) == 1
    view = await groups.week_view(db, GUILD, now=now)
    assert [sorted(g.players) for g in view.groups] == [["P1", "P2"]]


async def test_r8_2_one_player_is_told_groups_need_two(league) -> None:
    db = league
    await add_players(db, 1)
    with pytest.raises(NotReady) as refused:
        await groups.check_week(db, GUILD, now=at(SEASON_START, "10:00"))
    assert str(refused.value) == TOO_FEW_FOR_GROUPS


async def test_r1_1_the_last_night_of_a_52_night_season_is_a_week(db) -> None:
    """The longest season's week 52 is a week like any other: it waits for
    week 51, it is not "not a week"."""
    now = at(date(2026, 1, 1))
    await setup.create_league(db, GUILD, "League", now=now)
    await setup.start_season(db, GUILD, "Long", SEASON_START, regular_nights=52, now=now)
    await add_players(db, 3)
    with pytest.raises(NotReady) as refused:
        await groups.check_week(db, GUILD, week=52, now=now)
    assert str(refused.value) == groups_wait_for(52, 51)


async def test_r8_6_a_night_left_ungrouped_at_finalize_is_grouped_once_players_join(
    players,
) -> None:
    """Everyone but P1 left before week 1 was finalized, so week 2 had nobody
    to group; once two players join, week 2's groups are cut, not refused as
    waiting for week 1."""
    db = players
    await play_week_1(db)
    for name in ("P2", "P3"):
        await membership.remove_player(db, GUILD, name, now=at(SEASON_START, "22:30"))
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))
    for name, number in (("P4", 4), ("P5", 5)):
        await membership.add_player(db, GUILD, name, discord_id=discord_id(number), now=at(WEEK_2))
    assert await groups.check_week(db, GUILD, week=2, now=at(WEEK_2)) == 2
    view = await groups.week_view(db, GUILD, week=2, now=at(WEEK_2))
    assert sorted(name for g in view.groups for name in g.players) == ["P1", "P4", "P5"]


async def test_r8_1_two_players_left_at_finalize_make_a_group_of_two(players) -> None:
    """P3 left before week 1 was finalized: P1 and P2 are week 2's one group
    (a group of two is the smallest there is), named in week 1's results post."""
    db = players
    await play_week_1(db)
    await membership.remove_player(db, GUILD, "P3", now=at(SEASON_START, "22:30"))
    done = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))
    assert done.next_groups == [("Group 1", ["P1", "P2"])]
    assert await groups.check_week(db, GUILD, week=2, now=at(WEEK_2)) == 2
    view = await groups.week_view(db, GUILD, week=2, now=at(WEEK_2))
    assert [g.players for g in view.groups] == [["P1", "P2"]]


async def test_r8_1_four_players_without_divisions_stay_one_group_of_four(league) -> None:
    """Before divisions, four players are one group of four week after week
    (only a division of four is cut 2 + 2, R9.4)."""
    db = league
    await add_players(db, 4)
    await add_machines(db, 6)
    [locked] = await picks.lock_picks(db, GUILD, now=at(SEASON_START, "19:15"))
    assert len(locked.group.members) == 4
    for number in range(1, 5):
        for game in range(1, 6):
            await scores.submit(db, GUILD, discord_id(number), game, 100_000_000 * number,
                                now=at(SEASON_START, "20:00"))  # fmt: skip
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(SEASON_START, "22:00"))
    done = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))
    assert [(label, len(names)) for label, names in done.next_groups] == [("Group 1", 4)]


async def test_r8_6_removing_one_of_three_leaves_a_group_of_two(players) -> None:
    """Week 2 was grouped; P3 leaves, so P1 and P2 are week 2's group."""
    db = players
    await finalize_week_1(db)
    await membership.remove_player(db, GUILD, "P3", now=at(WEEK_2, "09:00"))
    assert await groups.check_week(db, GUILD, week=2, now=at(WEEK_2, "09:30")) == 2
    view = await groups.week_view(db, GUILD, week=2, now=at(WEEK_2, "09:30"))
    assert [g.players for g in view.groups] == [["P1", "P2"]]


async def test_r8_6_removing_all_but_one_player_leaves_the_next_night_to_be_cut(
    players,
) -> None:
    """Week 2 was grouped; P2 and P3 leave, so P1 has nobody to play: the
    removals go through, and a newcomer is grouped with P1."""
    db = players
    await finalize_week_1(db)
    for name in ("P2", "P3"):
        await membership.remove_player(db, GUILD, name, now=at(WEEK_2, "09:00"))
    with pytest.raises(NotReady) as refused:
        await groups.check_week(db, GUILD, week=2, now=at(WEEK_2, "09:30"))
    assert str(refused.value) == TOO_FEW_FOR_GROUPS
    await membership.add_player(db, GUILD, "P4", discord_id=discord_id(4), now=at(WEEK_2, "10:00"))
    view = await groups.week_view(db, GUILD, week=2, now=at(WEEK_2, "10:30"))
    assert [sorted(g.players) for g in view.groups] == [["P1", "P4"]]


async def test_r11_2_a_past_week_shows_its_own_groups_and_play_order(players) -> None:
    """Week 1 asked for after it was played: its own night, games and game 1
    order as on the night, not the coming week's, and a player removed since
    still named in it."""
    db = players
    before = await groups.week_view(db, GUILD, week=1, now=at(SEASON_START, "18:00"))
    await finalize_week_1(db)
    await membership.remove_player(db, GUILD, "P3", now=at(WEEK_2, "09:00"))
    after = await groups.week_view(db, GUILD, week=1, now=at(WEEK_2, "10:00"))
    assert after.night.week == 1
    assert [g.players for g in after.groups] == [g.players for g in before.groups]
    assert [g.play_order for g in after.groups] == [g.play_order for g in before.groups]
    assert "P3" in after.groups[0].players
    assert [n for n, _ in after.groups[0].games] == [1, 2, 3, 4, 5]


async def test_r11_2_week_2_play_order_is_from_the_ranks_before_it(players) -> None:
    """Week 2's game 1 order stays the one from week 1's results, also once
    week 2 is played and turned the ranks around."""
    db = players
    await finalize_week_1(db)
    before = await groups.week_view(db, GUILD, week=2, now=at(WEEK_2, "10:00"))
    await picks.lock_picks(db, GUILD, now=at(WEEK_2, "19:15"))
    for number, score in ((1, 1_000), (2, 2_000), (3, 900_000_000)):
        for game in range(1, 6):
            await scores.submit(db, GUILD, discord_id(number), game, score, now=at(WEEK_2, "20:00"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(WEEK_2, "22:00"))
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(WEEK_2, "23:00"))
    after = await groups.week_view(db, GUILD, week=2, now=at(WEEK_2, "23:30"))
    assert [g.play_order for g in after.groups] == [g.play_order for g in before.groups]


async def test_r3_1_an_approved_pre_makeup_is_no_longer_owed(players) -> None:
    db = players
    made = await premakeups.submit(
        db, GUILD, P1, "Machine A", 1_000, [P2], now=at(date(2026, 1, 3))
    )
    await approvals.decide_pre_makeup(
        db, GUILD, made.pre_makeup.id, True, by=COMMISSIONER, now=at(date(2026, 1, 3))
    )
    view = await groups.week_view(db, GUILD, week=1, now=at(SEASON_START, "10:00"))
    assert "Machine A" not in view.owes_pre_makeups["P1"]
    assert "Machine A" in view.owes_pre_makeups["P2"]


async def test_r4_2_a_league_without_working_machines_has_no_picks_line(league) -> None:
    db = league
    await add_players(db, 3)
    view = await groups.week_view(db, GUILD, week=1, now=at(SEASON_START, "10:00"))
    assert (view.pick_kind, view.picks_needed) == ("none", 0)
    assert week_notes(view) == []


async def test_r4_2_four_games_a_night_on_five_machines_is_one_veto(league) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 5)
    await setup.change_setting(db, GUILD, "games_per_night", 4, now=SETTING_AT)
    view = await groups.week_view(db, GUILD, week=1, now=at(SEASON_START, "10:00"))
    assert week_notes(view) == [
        "Each group will veto 1 machine(s):",
        "use /veto before 19:15.",
    ]
