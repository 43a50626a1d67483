"""League and season setup, players, machines, skipped dates, backup (R1, R8.2, R8.6)."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

import pytest

from bot.database import Database
from bot.repositories import leagues, nights
from bot.services import backup, machine_list, membership, picks, setup, skips, standings
from bot.services.context import season_of
from bot.services.errors import BadInput, Conflict, NotFound, NotSetUp, WrongState
from bot.services.season import groups_of
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, SEASON_START, add_machines, add_players, at


async def test_r1_1_season_nights_and_r1_2_a_skipped_date_moves_later_weeks(
    league: Database,
) -> None:
    db = league
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
    assert (ctx.season.weekday, ctx.season.regular_nights) == ("Wednesday", 10)
    skipped = await skips.skip_date(db, GUILD, date(2026, 1, 21), "snow", now=at(date(2026, 1, 2)))
    nights = skipped.nights
    assert [(n.week, n.date) for n in nights[:4]] == [
        (1, date(2026, 1, 7)),
        (2, date(2026, 1, 14)),
        (3, date(2026, 1, 28)),
        (4, date(2026, 2, 4)),
    ]
    assert nights[-1] == nights[9] and nights[-1].date == date(2026, 3, 18)
    with pytest.raises(NotFound, match="not a league night"):
        await skips.skip_date(db, GUILD, date(2026, 1, 21), now=at(date(2026, 1, 2)))
    with pytest.raises(NotFound, match="Thursday 08 January 2026 is not a league night"):
        await skips.skip_date(db, GUILD, date(2026, 1, 8), now=at(date(2026, 1, 2)))


async def test_setup_refusals(db: Database) -> None:
    now = at(date(2026, 1, 1))
    with pytest.raises(NotSetUp, match="no league yet"):
        await setup.start_season(db, GUILD, "Spring", SEASON_START, now=now)
    with pytest.raises(BadInput, match="not a time zone"):
        await setup.create_league(db, GUILD, "League", time_zone="Mars/Olympus", now=now)
    await setup.create_league(db, GUILD, "League", now=now)
    with pytest.raises(Conflict, match="already has a league"):
        await setup.create_league(db, GUILD, "Again", now=now)
    with pytest.raises(NotSetUp, match="no season running"):
        await standings.standings(db, GUILD)
    with pytest.raises(BadInput, match="not a weekday"):
        await setup.start_season(db, GUILD, "Spring", SEASON_START, weekday="Funday", now=now)
    with pytest.raises(BadInput, match="1 to 52 regular nights"):
        await setup.start_season(db, GUILD, "Spring", SEASON_START, regular_nights=0, now=now)
    await setup.start_season(db, GUILD, "Spring", SEASON_START, now=now)
    with pytest.raises(BadInput, match="skill rating is from 1"):
        await membership.add_player(db, GUILD, "Ann", discord_id=1, skill=11, now=now)
    await membership.add_player(db, GUILD, "Ann", discord_id=1, skill=7, now=now)
    with pytest.raises(Conflict, match="Ann is already a player"):
        await membership.add_player(db, GUILD, "Annie", discord_id=1, now=now)
    with pytest.raises(Conflict, match="already a player called Ann"):
        await membership.add_player(db, GUILD, "ann", discord_id=2, now=now)
    with pytest.raises(BadInput, match="Give the player a name"):
        await membership.add_player(db, GUILD, "   ", discord_id=3, now=now)
    with pytest.raises(BadInput, match="par is a score from 1"):
        await machine_list.add_machine(db, GUILD, "Attack from Mars", par=0, now=now)
    await machine_list.add_machine(db, GUILD, "Attack from Mars", par=10**9, now=now)
    with pytest.raises(Conflict, match="already a machine called"):
        await machine_list.add_machine(db, GUILD, "attack from mars", now=now)
    with pytest.raises(BadInput, match="Unknown setting 'bonus'"):
        await setup.change_setting(db, GUILD, "bonus", 3, now=SETTING_AT)
    with pytest.raises(BadInput, match="dues_cents must be a whole number from 0"):
        await setup.change_setting(db, GUILD, "dues_cents", -1, now=SETTING_AT)
    changed = await setup.change_setting(db, GUILD, "dues_cents", 500, now=SETTING_AT)
    assert changed.shown == "500"


async def test_data_is_per_guild(league: Database) -> None:
    db = league
    await add_players(db, 3)
    now = at(date(2026, 1, 1))
    await setup.create_league(db, 2002, "Other league", now=now)
    await setup.start_season(db, 2002, "Their season", SEASON_START, now=now)
    await membership.add_player(
        db, 2002, "P1", discord_id=5001, now=now
    )  # same member, other league
    assert [r.player.name for r in await standings.standings(db, 2002)] == ["P1"]
    assert len(await standings.standings(db, GUILD)) == 3


async def test_r8_2_week_one_by_skill_even_for_late_joiners_and_new_ratings(
    league: Database,
) -> None:
    db = league
    now = at(date(2026, 1, 2))
    for name, skill in [("Ann", 9), ("Bob", None), ("Cat", 3), ("Dan", 6), ("Eve", None)]:
        await membership.add_player(
            db, GUILD, name, discord_id=hash(name) % 10**6, skill=skill, now=now
        )
    async with db.transaction() as conn:
        ctx = await season_of(conn, GUILD)
        night = (await leagues.nights(conn, ctx.season.id))[0]
        groups = await groups_of(conn, ctx, night)
    names = {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan", 5: "Eve"}
    # 9, then Dan 6, then the unrated at 5.5 in sign-up order, then Cat 3 (R8.2).
    assert [[names[p] for p in g.members] for g in groups] == [
        ["Ann", "Dan", "Bob"],
        ["Eve", "Cat"],
    ]
    await membership.add_player(db, GUILD, "Fay", discord_id=77, skill=10, now=now)
    async with db.read() as conn:
        groups = await nights.groups(conn, night.id)
    names[6] = "Fay"
    # R8.2: before week 1 is played a newcomer is seeded by skill like everyone.
    assert [[names[p] for p in g.members] for g in groups] == [
        ["Fay", "Ann", "Dan"],
        ["Bob", "Eve", "Cat"],
    ]
    await membership.set_skill(db, GUILD, "Cat", 9.5)  # a new rating re-seeds week 1 too
    async with db.read() as conn:
        groups = await nights.groups(conn, night.id)
    assert [[names[p] for p in g.members] for g in groups] == [
        ["Fay", "Cat", "Ann"],
        ["Dan", "Bob", "Eve"],
    ]
    removed = await membership.remove_player(db, GUILD, "Bob", now=now)
    assert removed.player.removed and removed.playing_week is None
    with pytest.raises(NotFound, match="no player called 'Bob'"):
        await membership.remove_player(db, GUILD, "Bob", now=now)


async def test_backup_is_a_consistent_copy(league: Database, tmp_path: Path) -> None:
    db = league
    await add_players(db, 3)
    await add_machines(db, 6)
    await picks.lock_picks(db, GUILD, now=at(SEASON_START, "19:15"))
    folder = tmp_path / "backups"
    folder.mkdir()
    copy = await backup.backup(db, folder, now=at(SEASON_START, "21:00"))
    assert copy.name == "league-20260108-020000.sqlite3"
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) FROM players").fetchone() == (3,)
        assert conn.execute("SELECT status FROM nights WHERE week = 1").fetchone() == ("locked",)
    with pytest.raises(BadInput, match="does not exist"):
        await backup.backup(db, tmp_path / "nowhere", now=at(SEASON_START))
    with pytest.raises(WrongState, match="already started"):
        await skips.skip_date(db, GUILD, SEASON_START, now=at(date(2026, 1, 2)))


async def test_r8_6_a_newcomer_after_week_1_joins_the_bottom_of_the_ladder(
    league: Database,
) -> None:
    from bot.services import approvals, finalize, scores

    db = league
    await add_players(db, 6)  # [P1 P2 P3] [P4 P5 P6]
    await add_machines(db, 6)
    await picks.lock_picks(db, GUILD, now=at(SEASON_START, "19:15"))
    for n in range(1, 7):
        for game in range(1, 6):
            await scores.submit(
                db, GUILD, 5000 + n, game, 1000 * (10 - n), now=at(SEASON_START, "20:00")
            )
    await approvals.approve_all(db, GUILD, "1", by=1, now=at(SEASON_START, "22:00"))
    await approvals.approve_all(db, GUILD, "2", by=1, now=at(SEASON_START, "22:00"))
    await finalize.finalize(db, GUILD, by=1, now=at(SEASON_START, "23:00"))
    await membership.add_player(
        db, GUILD, "Zed", discord_id=77, skill=10, now=at(SEASON_START, "23:30")
    )
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        week2 = (await leagues.nights(conn, ctx.season.id))[1]
        groups = await nights.groups(conn, week2.id)
    # R8.3 movement: P3 and P4 swap; R8.6: Zed, skill 10 or not, starts at the bottom.
    assert [list(g.members) for g in groups] == [[1, 2, 4], [3, 5, 6, 7]]


async def test_r10_4_r13_1_a_new_season_keeps_the_rule_defaults(league: Database) -> None:
    """Migration 0003's defaults are RuleSettings' own: nothing changes for old seasons."""
    from bot.scoring import DEFAULT_SETTINGS
    from bot.services.context import season_of

    async with league.read() as conn:
        settings = (await season_of(conn, GUILD)).settings()
    assert settings.prize_split == DEFAULT_SETTINGS.prize_split
    assert (settings.playoff_divisor, settings.playoff_min, settings.playoff_max) == (3, 2, 4)
