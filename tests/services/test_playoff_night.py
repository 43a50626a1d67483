"""Playoff night set by finalizing the last regular night, with its field, and
moved by the commissioner (R13.1, R13.4)."""

from __future__ import annotations

import json
import sqlite3
from datetime import date, timedelta

import pytest

from bot.database import Database
from bot.models import OutboxItem
from bot.repositories import outbox_items
from bot.services import (
    approvals,
    finalize,
    membership,
    picks,
    playoffs,
    score_changes,
    scores,
    setup,
    standings,
)
from bot.services.errors import BadInput, NotReady, WrongState
from bot.services.outcomes.playoffs import PlayoffFormat, PlayoffNightShown, PlayoffPreview
from bot.ui.playoffs import night_announcement
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    discord_id,
    play_week_1,
)
from tests.services.conftest import finalize_week_1 as finalize_week_1_of
from tests.services.test_season import play_week

PLAYOFF_DAY = SEASON_START + timedelta(days=7)  # the league weekday after the last night


async def finalize_week_2(db: Database) -> None:
    """P1-P3 play week 2 as week 1 (300M, 200M, 100M), finalized."""
    night = PLAYOFF_DAY
    await picks.lock_picks(db, GUILD, now=at(night, "19:15"))
    for number, score in ((1, 300_000_000), (2, 200_000_000), (3, 100_000_000)):
        for game in range(1, 6):
            await scores.submit(db, GUILD, discord_id(number), game, score, now=at(night, "20:00"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(night, "22:00"))
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(night, "23:00"))


async def announced(db: Database) -> list[PlayoffNightShown]:
    async with db.read() as conn:
        items: list[OutboxItem] = await outbox_items.waiting(conn, GUILD)
    return [
        PlayoffNightShown.from_data(json.loads(i.data or "{}"))
        for i in items
        if i.kind == "playoff_night"
    ]


async def one_night_season(db: Database) -> Database:
    """P1-P3 (300M, 200M, 100M in each game) in a season of one night, finalized."""
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=at(SEASON_START, "09:00"))
    await finalize_week_1_of(db)
    return db


async def shown(db: Database) -> PlayoffNightShown:
    found = await playoffs.night_shown(db, GUILD)
    assert isinstance(found, PlayoffNightShown)
    return found


async def test_r13_4_the_last_night_finalized_sets_playoff_night_with_its_field(players) -> None:
    db = await one_night_season(players)
    night = await shown(db)
    assert night.day == PLAYOFF_DAY
    assert (f"{night.play_time:%H:%M}", f"{night.grace_until:%H:%M}") == ("19:15", "19:30")
    assert night.format == PlayoffFormat("final_group", 5, 3)
    # R13.1: 3 players // 3 = 1 spot, clamped up to 2: P1 and P2 qualify, P3 waits.
    (field,) = night.divisions
    assert (field.division, field.qualifiers, field.alternates) == ("", ["P1", "P2"], ["P3"])
    assert night.pings == [discord_id(1), discord_id(2), discord_id(3)]
    assert await announced(db) == [night]
    assert night_announcement(night) == (
        "**Playoffs: Wednesday 14 January**\n"
        "Play starts at 19:15. A qualifier not checked in by 19:30 is replaced by the first "
        "alternate. No dues on playoff night.\n"
        "A final group in each division: the field plays 5 games together, scored as on a "
        "league night. Most points wins; a tie goes to the better normalized scores, then the "
        "better standing.\n"
        "League: 1. P1, 2. P2\n  Alternates, in order: P3\n"
        "Can't make it? Use /absent, so the first alternate can get ready.\n"
        f"In the field or next up: <@{discord_id(1)}> <@{discord_id(2)}> <@{discord_id(3)}>"
    )


async def test_r13_4_an_earlier_night_sets_no_playoff_night(players) -> None:
    db = players
    await finalize_week_1_of(db)  # week 1 of 10
    assert isinstance(await playoffs.night_shown(db, GUILD), PlayoffPreview)
    assert await announced(db) == []


async def test_r13_4_the_playoff_night_is_not_a_regular_night(players) -> None:
    """The standings, the calendar and the season's length stay the regular
    season's: the playoff night is not a week 2."""
    db = await one_night_season(players)
    with pytest.raises(WrongState) as refused:  # there is no week 2 to correct
        await score_changes.change(
            db, GUILD, week=2, player_name="P1", game_number=1, kind="penalty",
            reason="x", by=COMMISSIONER, now=at(PLAYOFF_DAY),
        )  # fmt: skip
    assert str(refused.value) == "Week 2 has not been played."


async def test_r13_4_a_longer_season_calls_playoff_night_off_until_its_new_last_night(
    players,
) -> None:
    db = await one_night_season(players)
    changed = await setup.change_setting(db, GUILD, "regular_nights", 2, now=at(PLAYOFF_DAY))
    assert changed.shown == "2"
    assert isinstance(await playoffs.night_shown(db, GUILD), PlayoffPreview)
    async with db.read() as conn:
        owed = [i for i in await outbox_items.waiting(conn, GUILD) if i.kind == "playoff_night"]
    assert json.loads(owed[-1].data or "{}") == {"called_off": "2026-01-14", "nights": 2}
    # Week 2 is a regular night on the date playoff night had; then playoff night follows.
    await finalize_week_2(db)
    assert (await shown(db)).day == PLAYOFF_DAY + timedelta(days=7)


async def test_r13_4_the_season_cannot_change_length_once_playoff_night_started(
    players,
) -> None:
    db = await one_night_season(players)
    with sqlite3.connect(db.path) as conn:
        conn.execute("UPDATE nights SET status = 'locked' WHERE kind = 'playoff'")
    with pytest.raises(WrongState) as refused:
        await setup.change_setting(db, GUILD, "regular_nights", 2, now=at(PLAYOFF_DAY))
    assert str(refused.value) == (
        "Playoff night has started: the season's nights can no longer change."
    )


async def test_r13_4_a_season_has_one_playoff_night(players) -> None:
    db = await one_night_season(players)
    async with db.read() as conn:
        (season_id,) = await (await conn.execute("SELECT id FROM seasons")).fetchone()
    with sqlite3.connect(db.path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO nights (season_id, week, date, kind)"
            " VALUES (?, 3, '2026-01-28', 'playoff')",
            (season_id,),
        )


async def test_r13_4_a_correction_that_changes_the_field_sets_it_again(players) -> None:
    """P2 loses every game to a penalty (0): P3 passes P2 and qualifies; the
    field is announced again. A correction that changes no place owes nothing."""
    db = await one_night_season(players)
    for game in range(1, 6):
        await score_changes.change(
            db, GUILD, week=1, player_name="P2", game_number=game, kind="penalty",
            reason="tilted away P1's ball twice", by=COMMISSIONER, now=at(PLAYOFF_DAY, "09:00"),
        )  # fmt: skip
    first, again = await announced(db)
    assert first.divisions[0].qualifiers == ["P1", "P2"]
    assert (again.divisions[0].qualifiers, again.divisions[0].alternates) == (["P1", "P3"], ["P2"])
    assert again.updated and night_announcement(again).startswith(
        "**Playoffs: Wednesday 14 January** (field updated)"
    )
    assert len(await announced(db)) == 2


async def test_r13_4_a_playoff_setting_changed_after_it_is_set_sets_the_field_again(
    players,
) -> None:
    db = await one_night_season(players)
    changed = await setup.change_setting(db, GUILD, "playoff_divisor", 1, now=at(PLAYOFF_DAY))
    assert changed.announced
    _, again = await announced(db)
    assert (again.divisions[0].qualifiers, again.divisions[0].alternates) == (
        ["P1", "P2", "P3"], [],
    )  # fmt: skip
    await setup.change_setting(db, GUILD, "playoff_format", "bracket", now=at(PLAYOFF_DAY))
    assert (await announced(db))[-1].format == PlayoffFormat("bracket", 5, 3)


async def test_r13_3_the_format_cannot_change_once_playoff_night_started(players) -> None:
    db = await one_night_season(players)
    with sqlite3.connect(db.path) as conn:
        conn.execute("UPDATE nights SET status = 'locked' WHERE kind = 'playoff'")
    for name, value in (("playoff_format", "bracket"), ("playoff_max", 3)):
        with pytest.raises(WrongState) as refused:
            await setup.change_setting(db, GUILD, name, value, now=at(PLAYOFF_DAY))
        assert str(refused.value) == (
            "Playoff night has started: its format and field can no longer change."
        )
    assert (await shown(db)).format == PlayoffFormat("final_group", 5, 3)
    with pytest.raises(WrongState) as refused:
        await score_changes.change(
            db, GUILD, week=1, player_name="P2", game_number=1, kind="penalty",
            reason="late find", by=COMMISSIONER, now=at(PLAYOFF_DAY, "21:00"),
        )  # fmt: skip
    assert str(refused.value) == "Playoff night has started; week 1's results can no longer change."


async def test_r13_4_the_commissioner_moves_playoff_night_and_the_field_is_told(players) -> None:
    db = await one_night_season(players)
    later = PLAYOFF_DAY + timedelta(days=7)
    moved = await playoffs.move(db, GUILD, later, now=at(SEASON_START, "23:30"))
    assert (moved.day, moved.moved_from) == (later, PLAYOFF_DAY)
    assert (await shown(db)).day == later
    announcement = (await announced(db))[-1]
    assert announcement == moved
    assert night_announcement(moved).startswith(
        "**Playoff night moves to Wednesday 21 January** (it was Wednesday 14 January)\n"
    )
    assert night_announcement(moved).endswith(
        f"In the field or next up: <@{discord_id(1)}> <@{discord_id(2)}> <@{discord_id(3)}>"
    )


@pytest.mark.parametrize(
    ("day", "why"),
    [(PLAYOFF_DAY, "Playoff night is already on Wednesday 14 January 2026."),
     (SEASON_START, "Playoff night comes after the last regular night (Wednesday 07 January "
                    "2026)."),
     (PLAYOFF_DAY + timedelta(days=93), "Playoff night can move up to 3 months ahead, no "
                                         "further."),
     (date(2026, 1, 9), "Friday 09 January 2026 is past; pick a date from today on.")],
)  # fmt: skip
async def test_r13_4_a_move_to_a_date_that_cannot_be_is_refused(
    players, day: date, why: str
) -> None:
    db = await one_night_season(players)
    with pytest.raises(BadInput) as refused:
        await playoffs.move(db, GUILD, day, now=at(date(2026, 1, 10)))
    assert str(refused.value) == why
    assert (await shown(db)).day == PLAYOFF_DAY and len(await announced(db)) == 1


async def test_r13_4_playoff_night_cannot_move_before_it_is_set_or_once_started(
    players,
) -> None:
    db = players
    with pytest.raises(NotReady) as refused:
        await playoffs.move(db, GUILD, date(2026, 3, 25), now=at(SEASON_START))
    assert str(refused.value) == (
        "Playoff night is set when the last regular night, week 10, is finalized."
    )
    await one_night_season(db)
    with sqlite3.connect(db.path) as conn:
        conn.execute("UPDATE nights SET status = 'locked' WHERE kind = 'playoff'")
    with pytest.raises(WrongState) as refused:
        await playoffs.move(db, GUILD, PLAYOFF_DAY + timedelta(days=7), now=at(SEASON_START))
    assert str(refused.value) == "Playoff night has started; its date can no longer move."


async def test_r13_1_a_player_with_no_group_yet_is_at_the_bottom_of_b(league: Database) -> None:
    """R8.6: with divisions, a player who joined after the last night is in no
    group: the last alternate of B, not a field of their own."""
    db = league
    await setup.change_setting(db, GUILD, "regular_nights", 2, now=at(SEASON_START, "09:00"))
    await setup.change_setting(db, GUILD, "division_week", 2, now=at(SEASON_START, "09:00"))
    await add_players(db, 10)
    await add_machines(db, 6)
    await play_week(db, 1)
    await play_week(db, 2)
    await membership.add_player(db, GUILD, "Newbie", discord_id=7777, now=at(PLAYOFF_DAY, "23:30"))
    # a playoff setting changed: the field is set again, Newbie in it
    await setup.change_setting(db, GUILD, "playoff_divisor", 3, now=at(PLAYOFF_DAY, "23:40"))
    found = await shown(db)
    assert [d.division for d in found.divisions] == ["A", "B"]
    (b,) = [d for d in found.divisions if d.division == "B"]
    assert "Newbie" not in b.qualifiers and b.alternates[-1:] == ["Newbie"]
    assert (await playoffs.night_shown(db, GUILD)) == found
    field = await standings.playoffs(db, GUILD)
    assert [d.division for d in field] == ["A", "B"]


async def test_r13_1_a_division_smaller_than_its_spots_sends_everyone(players) -> None:
    """Three players, spots clamped to at least 4: all three qualify, no alternate."""
    db = players
    await setup.change_setting(db, GUILD, "playoff_min", 4, now=at(SEASON_START, "09:00"))
    db = await one_night_season(db)
    (field,) = (await shown(db)).divisions
    assert (field.qualifiers, field.alternates) == (["P1", "P2", "P3"], [])


async def test_r13_4_a_season_made_shorter_after_its_new_last_night_sets_playoff_night(
    players,
) -> None:
    db = players
    await finalize_week_1_of(db)  # week 1 of 10
    later = at(SEASON_START, "23:30")
    changed = await setup.change_setting(db, GUILD, "regular_nights", 1, now=later)
    assert changed.shown == "1"
    assert (await shown(db)).day == PLAYOFF_DAY
    assert len(await announced(db)) == 1


async def test_r13_4_a_last_night_finalized_late_sets_playoff_night_on_a_coming_weekday(
    players,
) -> None:
    """Finalized after the league weekday that follows it: playoff night is the
    next league weekday from then, not a date already past."""
    db = players
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=at(SEASON_START, "09:00"))
    await play_week_1(db)
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(PLAYOFF_DAY + timedelta(days=2)))
    assert (await shown(db)).day == PLAYOFF_DAY + timedelta(days=7)
