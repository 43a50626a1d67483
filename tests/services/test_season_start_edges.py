"""Starting a season at its edges (R1.1): its first night from a year before
today to two years after, 1 to 52 regular nights, each refusal in full, and a
refused start changes nothing."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from bot.database import Database
from bot.services import setup
from bot.services.errors import BadInput, Conflict, WrongState
from tests.services.conftest import GUILD, at, close_running, snapshot

TODAY = date(2026, 6, 1)


@pytest.mark.parametrize(
    ("days", "taken"), [(-367, False), (-366, True), (732, True), (733, False)]
)  # fmt: skip
async def test_r1_1_a_season_starts_within_a_year_before_or_two_after_today(
    league: Database, days: int, taken: bool
) -> None:
    start = TODAY + timedelta(days=days)
    await close_running(league, at(TODAY))
    begin = setup.start_season(league, GUILD, "Summer", start, now=at(TODAY))
    if taken:
        season, nights = await begin
        assert (season.name, season.start_date) == ("Summer", start)
        first = nights[0].date  # the first Wednesday on or after the start
        assert first.weekday() == 2 and 0 <= (first - start).days < 7
        return
    before = await snapshot(league)
    with pytest.raises(BadInput) as refused:
        await begin
    assert str(refused.value) == (
        "A season starts within a year before or two years after today, from 31 May 2025 "
        f"to 02 June 2028; not on {start:%d %B %Y}."
    )
    assert await snapshot(league) == before


@pytest.mark.parametrize(("nights", "taken"), [(0, False), (1, True), (52, True), (53, False)])
async def test_r1_1_a_season_has_1_to_52_regular_nights(
    league: Database, nights: int, taken: bool
) -> None:
    await close_running(league, at(TODAY))
    begin = setup.start_season(league, GUILD, "Summer", TODAY + timedelta(days=2),
                               regular_nights=nights, now=at(TODAY))  # fmt: skip
    if taken:
        _, made = await begin
        assert len(made) == nights
        return
    with pytest.raises(BadInput) as refused:
        await begin
    assert str(refused.value) == f"A season has 1 to 52 regular nights, not {nights}."


async def test_r1_1_a_season_name_is_used_once(league: Database) -> None:
    """The running season's name (in any case) is refused as already running;
    a past season's as taken."""
    with pytest.raises(Conflict) as refused:
        await setup.start_season(league, GUILD, "spring 2026", TODAY, now=at(TODAY))
    assert str(refused.value) == "The season 'spring 2026' is already running."
    await close_running(league, at(TODAY))
    await setup.start_season(league, GUILD, "Summer", TODAY, now=at(TODAY))
    await close_running(league, at(TODAY))
    with pytest.raises(Conflict) as refused:
        await setup.start_season(league, GUILD, "SPRING 2026", TODAY, now=at(TODAY))
    assert str(refused.value) == (
        "There was already a season called 'SPRING 2026'; pick another name."
    )


async def test_r13_6_a_season_with_nights_left_is_closed_first_not_by_the_next(
    league: Database,
) -> None:
    """Starting the next season does not close a running one: closing it is
    confirmed with /season close, which says what it ends."""
    before = await snapshot(league)
    with pytest.raises(WrongState) as refused:
        await setup.start_season(league, GUILD, "Summer", TODAY, now=at(TODAY))
    assert str(refused.value) == (
        "Spring 2026 is still running (weeks 1-10 to play). Close it first with /season close, "
        "which says what that ends and asks you to confirm."
    )
    assert await snapshot(league) == before
