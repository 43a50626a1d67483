"""Every bound the bot enforces, tried at low - 1, low, high and high + 1, one
table per kind. The bounds are written here, not read from the code: a bound
changed in the code fails these tables until they are changed with it."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import date

import pytest
from PIL import Image

from bot import photos
from bot.database import Database
from bot.parsing import InputError
from bot.services import (
    approvals,
    attendance,
    machine_list,
    membership,
    score_changes,
    scores,
    setup,
    skips,
)
from bot.services.errors import BadInput
from cogs.money import money
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, SEASON_START, at, close_running, discord_id
from tests.services.test_scores import NIGHT, locked_league

# --- season settings (/league season setting) ---------------------------------------------

SETTINGS = {
    "regular_nights": (1, 52),
    "games_per_night": (1, 10),
    "pre_makeup_night_limit": (0, 52),
    "bonus_start_week": (1, 52),
    "multiplier_start_week": (2, 52),
    "division_week": (2, 52),
    "division_min_players": (4, 1000),
    "two_swap_match_points": (0, 40),
    "dues_cents": (0, 100_000),
    "payout_first_percent": (50, 100),
    "playoff_divisor": (1, 20),
    "playoff_min": (1, 4),
    "playoff_max": (1, 4),
    "playoff_games": (1, 10),  # R13.3
    "playoff_best_of": (1, 9),  # R13.3: odd numbers only (tests/services/test_playoff_format.py)
    "prize_consolation_a": (0, 100),
    "prize_consolation_b": (0, 100),
}


def edges(low: int, high: int) -> list[tuple[int, bool]]:
    return [(low - 1, False), (low, True), (high, True), (high + 1, False)]


def test_the_table_names_every_whole_number_setting() -> None:
    assert set(SETTINGS) == set(setup.SETTING_LIMITS)


@pytest.mark.parametrize(
    ("name", "value", "taken"),
    [(name, value, taken) for name, (low, high) in SETTINGS.items()
     for value, taken in edges(low, high)],
)  # fmt: skip
async def test_each_setting_at_its_edges(
    league: Database, name: str, value: int, taken: bool
) -> None:
    if name == "playoff_min":  # playoff_min may not pass playoff_max: give it room
        await setup.change_setting(league, GUILD, "playoff_max", 4, now=SETTING_AT)
    if name == "playoff_max":
        await setup.change_setting(league, GUILD, "playoff_min", 1, now=SETTING_AT)
    if taken:
        done = await setup.change_setting(league, GUILD, name, str(value), now=SETTING_AT)
        assert done.shown == str(value)
    else:
        low, high = SETTINGS[name]
        message = f"{name} must be a whole number from {low} to {high}."
        with pytest.raises(BadInput, match=re.escape(message)):
            await setup.change_setting(league, GUILD, name, str(value), now=SETTING_AT)


# --- text people type ----------------------------------------------------------------------

Check = Callable[[Database, str], Awaitable[object]]


async def player_name(db: Database, text: str) -> object:
    return await membership.add_player(db, GUILD, text, discord_id=None, now=at(SEASON_START))


async def machine_name(db: Database, text: str) -> object:
    return await machine_list.add_machine(db, GUILD, text, now=at(SEASON_START))


async def league_name(db: Database, text: str) -> object:
    """Another Discord server's league (the fixture's server has one)."""
    return await setup.create_league(db, GUILD + 1, text, now=at(SEASON_START))


async def season_name(db: Database, text: str) -> object:
    async with db.read() as conn:
        (running,) = await (await conn.execute(
            "SELECT count(*) FROM seasons WHERE status = 'open'")).fetchone()  # fmt: skip
    if running:
        await close_running(db, at(SEASON_START))
    return await setup.start_season(db, GUILD, text, date(2026, 9, 2), now=at(SEASON_START))


async def late_note(db: Database, text: str) -> object:
    await membership.add_player(db, GUILD, "Ann", discord_id=discord_id(1), now=at(SEASON_START))
    when = at(SEASON_START, "09:00")
    return await attendance.notify(db, GUILD, discord_id(1), "late", day=SEASON_START,
                                   minutes=10, note=text, now=when)  # fmt: skip


async def fund_note(db: Database, text: str) -> object:
    return await money.add_to_fund(db, GUILD, 500, text, by=1, now=at(SEASON_START))


async def skip_reason(db: Database, text: str) -> object:
    return await skips.skip_date(db, GUILD, SEASON_START, text, now=at(SEASON_START))


def reject_reason(text: str) -> object:
    return approvals.check_reason(text)


TEXTS: list[tuple[str, Check, int, str, str]] = [
    # what, how it is given, the most characters, refused when too long, when empty
    ("player name", player_name, 64, "The player's name is too long (at most 64 characters).",
     "Give the player a name."),
    ("machine name", machine_name, 64, "The machine's name is too long (at most 64 characters).",
     "Give the machine a name."),
    ("league name", league_name, 100, "The league's name is too long (at most 100 characters).",
     "Give the league a name."),
    ("season name", season_name, 100, "The season's name is too long (at most 100 characters).",
     "Give the season a name."),
    ("late note", late_note, 200, "The note is too long: 201 characters, at most 200.", ""),
    ("fund note", fund_note, 200, "The note is too long: 201 characters, at most 200.", ""),
    ("skip reason", skip_reason, 200, "The reason is too long: 201 characters, at most 200.", ""),
]  # fmt: skip


@pytest.mark.parametrize(("what", "check", "most", "too_long", "empty"), TEXTS,
                         ids=[t[0] for t in TEXTS])  # fmt: skip
@pytest.mark.parametrize("length", ["low - 1", "low", "high", "high + 1"])
async def test_each_text_at_its_edges(
    league: Database, what: str, check: Check, most: int, too_long: str, empty: str, length: str
) -> None:
    size = {"low - 1": 0, "low": 1, "high": most, "high + 1": most + 1}[length]
    text = "x" * size
    if length == "high + 1":
        with pytest.raises(BadInput, match=re.escape(too_long)):
            await check(league, text)
    elif length == "low - 1" and empty:  # a name must be given; a note may be left out
        with pytest.raises(BadInput, match=re.escape(empty)):
            await check(league, text)
    else:
        await check(league, text)


@pytest.mark.parametrize(("size", "taken"), [(0, None), (1, "x"), (300, "x" * 300), (301, False)])
def test_a_rejection_reason_at_its_edges(size: int, taken: str | bool | None) -> None:
    if taken is False:
        with pytest.raises(BadInput, match=re.escape("(at most 300 characters)")):
            approvals.check_reason("x" * size)
    else:
        assert approvals.check_reason("x" * size) == taken  # none given: None


@pytest.mark.parametrize(("size", "whole"), [(39, True), (40, True), (41, False)])
async def test_what_a_refusal_echoes_at_its_edge(league: Database, size: int, whole: bool) -> None:
    """A refusal quotes what was typed up to 40 characters, and cuts it after."""
    typed = "y" * size
    with pytest.raises(BadInput) as refused:
        await setup.change_setting(league, GUILD, typed, 1, now=SETTING_AT)
    quoted = repr(typed) if whole else f"{typed[:40]!r}… ({size} characters)"
    assert str(refused.value).startswith(f"Unknown setting {quoted}. Settings: ")


@pytest.mark.parametrize(("size", "taken"), [(0, False), (1, True), (500, True), (501, False)])
async def test_a_score_change_reason_at_its_edges(league: Database, size: int, taken: bool) -> None:
    await locked_league(league, 3)
    await scores.submit(league, GUILD, discord_id(1), 1, 1_000_000, now=at(NIGHT, "20:00"))
    change = score_changes.change(league, GUILD, week=1, player_name="P1", game_number=1,
                                  kind="penalty", reason="x" * size, by=1,
                                  now=at(NIGHT, "21:00"))  # fmt: skip
    if taken:
        assert (await change).change.new_score == 0
    else:
        message = "Give a reason" if size == 0 else "(at most 500 characters)"
        with pytest.raises(BadInput, match=re.escape(message)):
            await change


# --- numbers people type -------------------------------------------------------------------


@pytest.mark.parametrize(("value", "taken"), [(0, False), (1, True), (10, True), (11, False)])
async def test_a_skill_rating_at_its_edges(league: Database, value: int, taken: bool) -> None:
    add = membership.add_player(league, GUILD, "Ann", discord_id=None, skill=value,
                                now=at(SEASON_START))  # fmt: skip
    if taken:
        assert (await add).player.skill == value
    else:
        with pytest.raises(BadInput) as refused:
            await add
        assert str(refused.value) == "A skill rating is from 1 (novice) to 10 (expert)."


@pytest.mark.parametrize(("minutes", "taken"), [(0, False), (1, True), (240, True), (241, False)])
async def test_minutes_late_at_their_edges(league: Database, minutes: int, taken: bool) -> None:
    await membership.add_player(
        league, GUILD, "Ann", discord_id=discord_id(1), now=at(SEASON_START)
    )
    notify = attendance.notify(league, GUILD, discord_id(1), "late", day=SEASON_START,
                               minutes=minutes, now=at(SEASON_START, "09:00"))  # fmt: skip
    if taken:
        await notify
    else:
        with pytest.raises(BadInput, match=re.escape("in minutes, from 1 to 240")):
            await notify


@pytest.mark.parametrize(
    ("cents", "taken"), [(0, False), (1, True), (10_000_000, True), (10_000_001, False)]
)
async def test_a_fund_addition_at_its_edges(league: Database, cents: int, taken: bool) -> None:
    add = money.add_to_fund(league, GUILD, cents, by=1, now=at(SEASON_START))
    if taken:
        assert await add >= cents
    else:
        with pytest.raises(BadInput, match=re.escape("Add from $0.01 to $100,000.00.")):
            await add


@pytest.mark.parametrize(
    ("score", "taken"),
    [(-1, False), (0, True), (10_000_000_000_000, True), (10_000_000_000_001, False)],
)
async def test_a_score_at_its_edges(league: Database, score: int, taken: bool) -> None:
    await locked_league(league, 3)
    submit = scores.submit(league, GUILD, discord_id(1), 1, score, now=at(NIGHT, "20:00"))
    if taken:
        assert (await submit).score.score == score
    else:
        with pytest.raises(BadInput, match="score"):
            await submit


@pytest.mark.parametrize(
    ("par", "taken"),
    [(0, False), (1, True), (10_000_000_000_000, True), (10_000_000_000_001, False)],
)
async def test_a_par_at_its_edges(league: Database, par: int, taken: bool) -> None:
    """R6.1: a par is a score, set with the machine or changed later."""
    await machine_list.add_machine(league, GUILD, "Funhouse", now=at(SEASON_START))
    add = machine_list.add_machine(league, GUILD, "Medieval Madness", par=par,
                                   now=at(SEASON_START))  # fmt: skip
    change = machine_list.set_par(league, GUILD, "Funhouse", par)
    if taken:
        assert (await add).par == par
        assert (await change).effective == par
    else:
        for refused in (add, change):
            with pytest.raises(BadInput) as said:
                await refused
            assert str(said.value) == "A par is a score from 1 to 10,000,000,000,000."


# --- a photo of the score display ----------------------------------------------------------

MB = 1024 * 1024


@pytest.mark.parametrize(
    ("size", "taken"), [(0, False), (1, True), (10 * MB, True), (10 * MB + 1, False)]
)
def test_a_photos_size_at_its_edges(size: int, taken: bool) -> None:
    if taken:
        photos.check_size(size)
    else:
        with pytest.raises(InputError, match=re.escape("at most 10 MB")):
            photos.check_size(size)


def jpeg_header(width: int, height: int) -> bytes:
    """A JPEG whose header says `width` × `height` (Pillow reads the size from it
    before decoding anything: the pixel cap is checked there)."""
    import io

    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, "JPEG")
    data = bytearray(out.getvalue())
    sof = data.index(b"\xff\xc0")
    data[sof + 5 : sof + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


@pytest.mark.parametrize(
    ("width", "height", "taken"),
    [(8000, 5000, True), (8000, 5001, False)],  # 40,000,000 pixels, then one row more
)
def test_a_photos_pixels_at_their_edge(width: int, height: int, taken: bool) -> None:
    assert photos.MAX_PIXELS == 40_000_000
    data = jpeg_header(width, height)
    if taken:  # past the cap: decoded (8 × 8 pixels of data: whatever comes of it)
        try:
            photos.clean(data)
        except InputError as error:
            assert "pixels" not in str(error)
    else:
        with pytest.raises(InputError, match="pixels"):
            photos.clean(data)
