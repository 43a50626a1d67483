"""Setup refusals and acceptances at their exact edges (R3.5, R6.1, R8.2, R10.4, R1.3)."""

from __future__ import annotations

import time as time_module
from datetime import date, time
from pathlib import Path

import pytest

from bot.database import Database
from bot.services import audit, backup, machine_list, membership, setup
from bot.services.errors import BadInput, NotFound
from bot.services.roster import BadRoster, read_roster
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, at


@pytest.mark.parametrize("value", ["100", "1,1,1,1,1", "60,40", "1"])
async def test_r10_4_prize_places_at_the_edges_are_accepted(league: Database, value: str) -> None:
    """R10.4: five places, a 1% place, a single 100% place and exactly 100 in all are fine."""
    changed = await setup.change_setting(league, GUILD, "prize_places_a", value, now=SETTING_AT)
    assert changed.shown == value


@pytest.mark.parametrize("value", ["101", "60,41", "1,1,1,1,1,1", "0"])
async def test_r10_4_prize_places_past_the_edges_are_refused(league: Database, value: str) -> None:
    """R10.4: a place over 100%, more than 100 in all, six places, a 0% place are refused."""
    with pytest.raises(BadInput) as refused:
        await setup.change_setting(league, GUILD, "prize_places_a", value, now=SETTING_AT)
    assert str(refused.value) == (
        "prize_places_a is 1 to 5 percents of the prize fund, best place first, "
        "comma-separated and 100 at most in all, e.g. 30,15,10."
    )


async def test_r3_5_ten_extra_pre_makeup_nights_is_allowed_eleven_is_refused_in_words(
    players: Database,
) -> None:
    """R3.5: the commissioner grants 1 to 10 extra pre-makeup nights at a time."""
    before = (await membership.roster(players, GUILD))[0][0]
    granted = await membership.grant_pre_makeup_nights(players, GUILD, before.name, 10)
    assert granted.id == before.id
    with pytest.raises(BadInput) as refused:
        await membership.grant_pre_makeup_nights(players, GUILD, before.name, 11)
    assert str(refused.value) == "Grant 1 to 10 extra pre-makeup nights at a time."


@pytest.mark.parametrize("skill", [1, 10])
async def test_r8_2_skill_ratings_of_exactly_1_and_10_are_accepted(
    players: Database, skill: int
) -> None:
    """R8.2: the skill scale runs from 1 to 10, both ends included."""
    changed = await membership.set_skill(players, GUILD, "P1", skill)
    assert changed.skill == skill


@pytest.mark.parametrize(("typed", "number"), [("#12345", 12345), ("", None), ("-", None)])
def test_an_ifpa_number_typed_with_a_hash_or_cleared_with_a_dash_or_nothing(
    typed: str, number: int | None
) -> None:
    assert membership.parse_ifpa(typed) == number


async def test_r1_3_an_unknown_league_time_is_refused_listing_the_times(league: Database) -> None:
    """R1.3: the refusal names the times there are."""
    with pytest.raises(BadInput) as refused:
        await setup.set_league_time(league, GUILD, "bed_time", time(22, 0))
    assert str(refused.value) == (
        "Unknown time 'bed_time'. Times: play_time, grace_until, late_cutoff, "
        "groupings_time, picks_lock_time."
    )


async def test_r6_1_a_par_set_mid_season_is_the_par_that_applies(players: Database) -> None:
    """R6.1: a par the commissioner sets applies as set, not the median."""
    machine = await machine_list.add_machine(
        players, GUILD, "Twilight Zone", now=at(date(2026, 1, 2))
    )
    done = await machine_list.set_par(players, GUILD, machine.name, 2_500_000)
    assert done.effective == 2_500_000


def test_a_roster_with_exactly_ten_bad_rows_lists_them_all_without_an_and_more_line() -> None:
    rows = "".join(f"P{n},,11\n" for n in range(10))
    with pytest.raises(BadRoster) as refused:
        read_roster(f"name,discord,skill\n{rows}".encode())
    lines = str(refused.value).splitlines()
    assert len(lines) == 11 and lines[-1] == "row 11: skill '11' is not 1–10"


def test_an_ifpa_number_with_a_stray_letter_in_front_is_refused() -> None:
    with pytest.raises(BadInput, match="is not an IFPA number"):
        membership.parse_ifpa("X12345")


async def test_r12_4_an_audit_of_a_two_word_name_with_no_changes_names_the_player(
    league: Database,
) -> None:
    """R12.4: the refusal names the player asked about, spaces and all."""
    await membership.add_player(league, GUILD, "Ann Lee", discord_id=7001, now=at(date(2026, 1, 2)))
    with pytest.raises(NotFound) as refused:
        await audit.trail(league, GUILD, player="ann  lee")
    assert str(refused.value) == "No score changes match for Ann Lee."


async def test_a_backup_is_named_in_utc_whatever_the_host_clock_zone(
    league: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time_module.tzset()
    try:
        copy = await backup.backup(league, tmp_path, now=at(date(2026, 1, 7), "21:00"))
    finally:
        monkeypatch.undo()
        time_module.tzset()
    assert copy.name == "league-20260108-020000.sqlite3"
