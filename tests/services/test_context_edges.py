"""What every command shares, at its edges: a note over two lines, the last
week of the longest season, a machine or season named in a league with none,
names typed with extra spaces, a date after the season, and a past season read
with its own settings (R1.1, R10.4)."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.services import attendance, machine_list, membership, picks, score_changes, setup
from bot.services.context import check_text
from bot.services.errors import NotFound, WrongState
from cogs.exports import exports
from tests.moments import SETTING_AT
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    close_running,
    discord_id,
)
from tests.services.test_season import play_week


def test_a_note_may_run_over_two_lines() -> None:
    assert check_text(" Stuck in traffic\nback by 8 ", "note", 200) == "Stuck in traffic\nback by 8"


async def test_r1_1_week_52_of_a_52_night_season_is_a_week_not_yet_played(db: Database) -> None:
    now = at(date(2026, 1, 1))
    await setup.create_league(db, GUILD, "League", now=now)
    await setup.start_season(db, GUILD, "Long", SEASON_START, regular_nights=52, now=now)
    await membership.add_player(db, GUILD, "Ann", discord_id=discord_id(1), now=now)
    for week, refusal in (
        (52, WrongState("Week 52 has not been played.")),
        (53, NotFound("Week 53 is not a night of this season (1 to 52).")),
    ):
        with pytest.raises(type(refusal)) as refused:
            await score_changes.change(
                db,
                GUILD,
                week=week,
                player_name="Ann",
                game_number=1,
                kind="penalty",
                reason="x",
                by=COMMISSIONER,
                now=now,
            )
        assert str(refused.value) == str(refusal)  # fmt: skip


async def test_a_machine_named_in_a_league_without_machines(league: Database) -> None:
    with pytest.raises(NotFound) as refused:
        await machine_list.set_par(league, GUILD, "Medieval Madness", 1_000)
    assert str(refused.value) == (
        "There is no machine called 'Medieval Madness'. Machines: none yet."
    )


async def test_a_season_named_in_a_league_without_seasons(db: Database) -> None:
    await setup.create_league(db, GUILD, "League", now=at(date(2026, 1, 1)))
    with pytest.raises(NotFound) as refused:
        await exports.export_season(db, GUILD, "Spring")
    assert str(refused.value) == "There is no season called 'Spring'. Seasons: none yet."


async def test_seasons_named_in_words_however_they_are_spaced(league: Database) -> None:
    """A season's name typed with extra spaces is that season; an unknown one
    is refused with every season listed."""
    await close_running(league, at(date(2026, 8, 1)))
    await setup.start_season(league, GUILD, "Fall 2026", date(2026, 9, 2), now=at(date(2026, 8, 1)))
    found = await exports.export_season(league, GUILD, " Spring   2026 ")
    assert found.season == "Spring 2026"
    with pytest.raises(NotFound) as refused:
        await exports.export_season(league, GUILD, "Winter")
    assert str(refused.value) == (
        "There is no season called 'Winter'. Seasons: Spring 2026, Fall 2026."
    )


async def test_a_removed_players_two_word_name_however_it_is_typed(league: Database) -> None:
    """Ann Lee left during the night she played: her score can still be changed,
    named with extra spaces and in other capitals."""
    db = league
    now = at(SEASON_START, "09:00")
    for number, name in enumerate(("Ann Lee", "Bob", "Cat"), start=1):
        await membership.add_player(db, GUILD, name, discord_id=discord_id(number), now=now)
    await machine_list.add_machine(db, GUILD, "Medieval Madness", now=now)
    await picks.lock_picks(db, GUILD, now=at(SEASON_START, "19:15"))
    await membership.remove_player(db, GUILD, "Ann Lee", now=at(SEASON_START, "20:00"))
    changed = await score_changes.change(
        db, GUILD, week=1, player_name="  ann   LEE ", game_number=1, kind="penalty",
        reason="left early", by=COMMISSIONER, now=at(SEASON_START, "21:00"),
    )  # fmt: skip
    assert changed.view.player.name == "Ann Lee"


async def test_r1_1_a_date_after_the_season_has_no_next_night_to_name(league: Database) -> None:
    db = league
    await membership.add_player(db, GUILD, "Ann", discord_id=discord_id(1), now=at(SEASON_START))
    with pytest.raises(NotFound) as refused:
        await attendance.notify(db, GUILD, discord_id(1), "absent", day=date(2026, 3, 25),
                                now=at(SEASON_START))  # fmt: skip
    assert str(refused.value) == "There is no league night on Wednesday 25 March 2026."


async def test_r10_4_a_season_named_is_read_with_its_own_prize_split(league: Database) -> None:
    """The export of the running season, named or not, shares its prizes by
    the season's own places (two places in A: 50% and 25%)."""
    db = league
    await setup.change_setting(db, GUILD, "prize_places_a", "50,25", now=SETTING_AT)
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=SETTING_AT)
    await add_players(db, 10)
    await add_machines(db, 6)
    await play_week(db, 1)
    running = await exports.export_season(db, GUILD)
    named = await exports.export_season(db, GUILD, "Spring 2026")
    prizes = [row[5] for row in named.table("money").rows if row[0] == "prize"]
    assert prizes[:2] == ["place 1", "place 2"] and "place 3" not in prizes
    assert named.table("money") == running.table("money")
