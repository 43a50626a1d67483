"""Playoff night's check-in, absences and the replacements at the end of the
grace period (R13.2, R13.4, R13.5), and the scheduler's posts that night."""

from __future__ import annotations

import json
import sqlite3
from datetime import date, timedelta

import pytest

from bot.database import Database
from bot.repositories import outbox_items
from bot.services import (
    announcements,
    attendance,
    membership,
    playoff_checkin,
    playoff_play,
    playoffs,
    setup,
)
from bot.services.errors import NotFound, NotReady, WrongState
from bot.services.outcomes.playoffs import PlayoffNightShown, Replacement
from bot.services.outcomes.posts import PlayoffGracePost, PlayoffTonightPost
from bot.ui import render
from tests.services.conftest import GUILD, SEASON_START, at, discord_id, finalize_week_1

PLAYOFF_DAY = SEASON_START + timedelta(days=7)
P = {n: discord_id(n) for n in range(1, 8)}
FIVE = "Machine A, Machine B, Machine C, Machine D, Machine E"


@pytest.fixture
async def field(players: Database) -> Database:
    """A season of one night: P1 300M, P2 200M, P3 100M in every game; P4 and
    P5 joined after it (no points). The field: 1. P1, 2. P2; alternates P3, P4, P5."""
    db = players
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=at(SEASON_START, "09:00"))
    await finalize_week_1(db)
    for n in (4, 5):
        await membership.add_player(db, GUILD, f"P{n}", discord_id=P[n], skill=1,
                                    now=at(SEASON_START, "23:30"))  # fmt: skip
    # The field as announced is the standings when the last night was finalized:
    # set it again so P4 and P5 are its last alternates.
    await setup.change_setting(db, GUILD, "playoff_divisor", 3, now=at(SEASON_START, "23:40"))
    return db


async def shown(db: Database) -> PlayoffNightShown:
    found = await playoffs.night_shown(db, GUILD)
    assert isinstance(found, PlayoffNightShown)
    return found


async def seeds(db: Database) -> tuple[list[str], list[str]]:
    (division,) = (await shown(db)).divisions
    return division.qualifiers, division.alternates


async def check_in(db: Database, names: str, clock: str = "19:00") -> None:
    await playoff_checkin.check_in(db, GUILD, names, now=at(PLAYOFF_DAY, clock))


async def grace(db: Database) -> list[Replacement]:
    return await playoff_checkin.at_grace(db, GUILD, now=at(PLAYOFF_DAY, "19:30"))


async def test_r13_5_a_qualifier_not_checked_in_is_replaced_by_the_next_alternate(field) -> None:
    db = field
    assert await seeds(db) == (["P1", "P2"], ["P3", "P4", "P5"])
    await check_in(db, "P1, p3")
    assert await grace(db) == [Replacement("", "P2", "missing", "P3")]
    assert await seeds(db) == (["P1", "P3"], ["P4", "P5"])
    assert await grace(db) == []  # run again: nobody is replaced twice


async def test_r13_5_an_alternate_who_is_not_there_is_passed_over(field) -> None:
    db = field
    await check_in(db, "P1, P4, P5")
    assert await grace(db) == [Replacement("", "P2", "missing", "P4")]
    assert await seeds(db) == (["P1", "P4"], ["P3", "P5"])


async def test_r13_5_the_field_is_seeded_again_by_standing(field) -> None:
    """P1 (seed 1) is out: P2 becomes seed 1 and the alternate P3 seed 2."""
    db = field
    await check_in(db, "P2, P3")
    assert await grace(db) == [Replacement("", "P1", "missing", "P3")]
    assert await seeds(db) == (["P2", "P3"], ["P4", "P5"])


async def test_r13_2_a_qualifier_who_cannot_come_is_replaced(field) -> None:
    db = field
    given = await attendance.notify(db, GUILD, P[2], "absent", day=PLAYOFF_DAY,
                                    now=at(SEASON_START, "23:50"))  # fmt: skip
    assert given.night.kind == "playoff"
    await check_in(db, "P1, P3, P4")
    assert await grace(db) == [Replacement("", "P2", "absent", "P3")]


async def test_r13_5_checking_in_withdraws_an_absence_notice(field) -> None:
    db = field
    await attendance.notify(db, GUILD, P[2], "absent", now=at(PLAYOFF_DAY, "09:00"))
    await check_in(db, "P1, P2, P3")
    assert await grace(db) == []
    assert await seeds(db) == (["P1", "P2"], ["P3", "P4", "P5"])


async def test_r13_5_with_no_alternate_there_the_field_plays_one_short(field) -> None:
    db = field
    await check_in(db, "P1")
    assert await grace(db) == [Replacement("", "P2", "missing", None)]
    assert await seeds(db) == (["P1", "P2"], ["P3", "P4", "P5"])


async def test_r13_5_an_alternate_who_stepped_in_and_left_is_replaced_in_turn(field) -> None:
    """P3 stepped in for P2, then is marked absent before a second run: the
    place goes to P4, and P2's place is recorded as P4's."""
    db = field
    await check_in(db, "P1, P3, P4")
    await grace(db)
    await attendance.mark(db, GUILD, "P3", "absent", by=1, day=PLAYOFF_DAY,
                          now=at(PLAYOFF_DAY, "19:20"))  # fmt: skip
    assert await grace(db) == [Replacement("", "P3", "absent", "P4")]
    assert await seeds(db) == (["P1", "P4"], ["P5"])


async def test_r13_5_a_replacement_made_by_mistake_is_undone(field) -> None:
    db = field
    await check_in(db, "P1, P3")
    await grace(db)
    undone = await playoff_checkin.undo(db, GUILD, " p2 ", now=at(PLAYOFF_DAY, "19:35"))
    assert (undone.player, undone.alternate) == ("P2", "P3")
    assert await seeds(db) == (["P1", "P2"], ["P3", "P4", "P5"])
    async with db.read() as conn:
        owed = [i for i in await outbox_items.waiting(conn, GUILD) if i.kind == "playoff_night"]
    last = PlayoffNightShown.from_data(json.loads(owed[-1].data or "{}"))
    assert last.updated and last.divisions[0].qualifiers == ["P1", "P2"]
    assert await grace(db) == []  # P2 is checked in now: a late run changes nothing
    with pytest.raises(WrongState) as refused:
        await playoff_checkin.undo(db, GUILD, "P2", now=at(PLAYOFF_DAY, "19:36"))
    assert str(refused.value) == "P2 was not replaced; nothing to undo."


async def test_r13_5_a_replacement_stays_once_a_playoff_score_is_in(field) -> None:
    db = field
    await check_in(db, "P1, P3")
    await grace(db)
    with sqlite3.connect(db.path) as conn:  # a playoff game with P1's score
        (night,) = conn.execute("SELECT id FROM nights WHERE kind = 'playoff'").fetchone()
        group = conn.execute("INSERT INTO night_groups (night_id, position) VALUES (?, 1)",
                             (night,)).lastrowid  # fmt: skip
        game = conn.execute("INSERT INTO games (group_id, number, machine_id) VALUES (?, 1, 1)",
                            (group,)).lastrowid  # fmt: skip
        conn.execute("INSERT INTO scores (game_id, player_id, score, submitted_by, submitted_at)"
                     " VALUES (?, 1, 5, 1, 'x')", (game,))  # fmt: skip
    with pytest.raises(WrongState) as refused:
        await playoff_checkin.undo(db, GUILD, "P2", now=at(PLAYOFF_DAY, "19:45"))
    assert (
        str(refused.value) == "A playoff score is in: the field is final and the replacement stays."
    )
    assert await seeds(db) == (["P1", "P3"], ["P4", "P5"])


async def test_r13_5_check_in_refuses_unknown_names_wholly_and_outside_playoff_night(
    field,
) -> None:
    db = field
    with pytest.raises(NotFound) as refused:
        await check_in(db, "P1, Zed")
    assert str(refused.value) == "'Zed' is not in the playoff field or among its alternates."
    await check_in(db, "P1")  # nothing of the refused check-in was kept: P1 is fresh
    done = await playoff_checkin.check_in(db, GUILD, "P1, P2", now=at(PLAYOFF_DAY, "19:05"))
    assert (done.checked, done.already) == (["P2"], ["P1"])
    with pytest.raises(WrongState) as refused:
        await playoff_checkin.check_in(db, GUILD, "P3", now=at(SEASON_START, "23:55"))
    assert str(refused.value) == (
        "Check-in is on playoff night, Wednesday 14 January, not before or after."
    )


async def test_r13_5_no_check_in_before_playoff_night_is_set(players) -> None:
    with pytest.raises(NotReady):
        await playoff_checkin.check_in(players, GUILD, "P1", now=at(SEASON_START))


async def test_r13_2_on_playoff_night_a_late_notice_or_an_outsider_is_refused(field) -> None:
    db = field
    with pytest.raises(WrongState) as refused:
        await attendance.notify(db, GUILD, P[2], "late", minutes=10, now=at(PLAYOFF_DAY, "10:00"))
    assert str(refused.value) == (
        "Playoff night has no late notices: a qualifier not checked in by 19:30 is replaced "
        "by the first alternate. If you cannot be there by then, use /absent so the "
        "alternate can get ready."
    )
    await membership.add_player(db, GUILD, "P6", discord_id=P[6], now=at(PLAYOFF_DAY, "09:00"))
    with pytest.raises(WrongState) as refused:
        await attendance.notify(db, GUILD, P[6], "absent", now=at(PLAYOFF_DAY, "10:00"))
    assert str(refused.value) == (
        "P6 is not in the playoff field or among its alternates; there is nothing to tell."
    )
    with pytest.raises(WrongState) as refused:
        await attendance.notify(db, GUILD, P[2], "absent", now=at(PLAYOFF_DAY, "19:31"))
    assert str(refused.value) == "Playoff night's grace period is over: its field is set."


async def test_r13_4_a_date_that_is_neither_a_league_night_nor_playoff_night(field) -> None:
    with pytest.raises(NotFound):
        await attendance.notify(field, GUILD, P[2], "absent", day=date(2026, 1, 21),
                                now=at(SEASON_START, "23:50"))  # fmt: skip


async def test_r13_4_playoff_nights_posts_tonight_and_the_replacements(field) -> None:
    """The groupings-time post says the field and the check-in; there is no
    cutoff or lock post; the grace post makes and says the replacements."""
    db = field
    tonight = await announcements.due(db, GUILD, "groupings", at(PLAYOFF_DAY, "12:00"))
    assert tonight is not None and isinstance(tonight.content, PlayoffTonightPost)
    assert render.post(tonight).startswith("**Playoffs tonight** (Wednesday 14 January)\n")
    assert render.post(tonight).endswith("Players: check in with the commissioner before 19:30.")
    for kind, clock in (("cutoff", "15:00"), ("lock", "19:15")):
        assert await announcements.due(db, GUILD, kind, at(PLAYOFF_DAY, clock)) is None
    await check_in(db, "P1, P3")
    post = await announcements.due(db, GUILD, "grace", at(PLAYOFF_DAY, "19:30"))
    assert post is not None and isinstance(post.content, PlayoffGracePost)
    assert render.post(post) == (
        "**Playoffs: the grace period is over (19:30).**\n"
        "- P2 is not checked in: P3 takes the place.\n"
        "The field, seeded by standing:\n"
        "League: 1. P1, 2. P3\n  Alternates, in order: P4, P5"
    )


async def test_r13_5_no_undo_once_playoff_night_started(field) -> None:
    db = field
    await check_in(db, "P1, P3")
    await playoff_play.start(db, GUILD, FIVE, now=at(PLAYOFF_DAY, "19:31"))
    with pytest.raises(WrongState) as refused:
        await playoff_checkin.undo(db, GUILD, "P2", now=at(PLAYOFF_DAY, "19:35"))
    assert str(refused.value) == (
        "Playoff night has started: its groups are set and the replacement stays."
    )
    assert await seeds(db) == (["P1", "P3"], ["P4", "P5"])


async def test_r13_4_a_moved_playoff_night_starts_its_check_in_afresh(field) -> None:
    """The check-in, the replacements and the absences were for the old date."""
    db = field
    await attendance.notify(db, GUILD, P[2], "absent", now=at(PLAYOFF_DAY, "09:00"))
    await check_in(db, "P1, P3")
    await grace(db)
    later = PLAYOFF_DAY + timedelta(days=7)
    await playoffs.move(db, GUILD, later, now=at(PLAYOFF_DAY, "19:40"))
    assert await seeds(db) == (["P1", "P2"], ["P3", "P4", "P5"])
    await playoff_checkin.check_in(db, GUILD, "P1, P2", now=at(later, "19:00"))
    assert await playoff_checkin.at_grace(db, GUILD, now=at(later, "19:30")) == []


async def test_r13_3_once_players_are_checked_in_only_the_format_may_change(field) -> None:
    db = field
    await check_in(db, "P1, P2")
    with pytest.raises(WrongState) as refused:
        await setup.change_setting(db, GUILD, "playoff_min", 3, now=at(PLAYOFF_DAY, "19:10"))
    assert str(refused.value) == (
        "Players are checked in for playoff night: its field can no longer change."
    )
    await setup.change_setting(db, GUILD, "playoff_games", 3, now=at(PLAYOFF_DAY, "19:10"))
    assert await grace(db) == []  # the check-in stands
    started = await playoff_play.start(db, GUILD, "Machine A, Machine B, Machine C",
                                       now=at(PLAYOFF_DAY, "19:31"))  # fmt: skip
    assert started.groups == [("", ["P1", "P2"])]


async def test_r13_2_an_absence_for_playoff_night_can_be_taken_back(field) -> None:
    db = field
    await attendance.notify(db, GUILD, P[2], "absent", now=at(PLAYOFF_DAY, "09:00"))
    taken = await attendance.withdraw(db, GUILD, P[2], "absent", now=at(PLAYOFF_DAY, "10:00"))
    assert taken.night.kind == "playoff"
    await check_in(db, "P1, P2")
    assert await grace(db) == []


async def test_r13_5_a_name_with_a_comma_is_checked_in_whole(field) -> None:
    """A player called "Smith, Jo" among the alternates: the comma-separated list
    keeps that name whole; a name of the field is still found on either side."""
    db = field
    await membership.add_player(db, GUILD, "Smith, Jo", discord_id=9009, skill=1,
                                now=at(SEASON_START, "23:45"))  # fmt: skip
    await setup.change_setting(db, GUILD, "playoff_divisor", 3, now=at(SEASON_START, "23:50"))
    done = await playoff_checkin.check_in(db, GUILD, "P1, smith,  jo ,P2",
                                          now=at(PLAYOFF_DAY, "19:00"))  # fmt: skip
    assert done.checked == ["P1", "Smith, Jo", "P2"]
    with pytest.raises(NotFound) as refused:  # "Smith" alone is nobody: nothing changes
        await playoff_checkin.check_in(db, GUILD, "P3, Smith", now=at(PLAYOFF_DAY, "19:05"))
    assert str(refused.value) == "'Smith' is not in the playoff field or among its alternates."
