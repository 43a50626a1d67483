"""Standings, play order and playoffs (R11, R13); calendar and notices (R1, R2)."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from bot.scoring import (
    PlayoffField,
    RuleError,
    RuleSettings,
    SeasonLine,
    first_game_order,
    league_nights,
    next_game_order,
    notice_timing,
    playoff_field,
    playoff_night,
    playoff_spots,
    replace_no_shows,
    season_standings,
    weekday_number,
)

NY = ZoneInfo("America/New_York")

# --- R11.1: season standings ------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # Points first: 55 beats 50 whatever the TNS.
        pytest.param(
            [SeasonLine("Ann", 50, 99, 9, 0), SeasonLine("Bob", 55, 1, 1, 1)],
            ["Bob", "Ann"],
            id="R11.1 league points first",
        ),
        # Equal points: season TNS.
        pytest.param(
            [SeasonLine("Ann", 50, 10, 9, 0), SeasonLine("Bob", 50, 12, 1, 1)],
            ["Bob", "Ann"],
            id="R11.1 then TNS",
        ),
        # Equal points and TNS: skill rating (higher first).
        pytest.param(
            [SeasonLine("Ann", 50, 10, 6, 0), SeasonLine("Bob", 50, 10, 8, 1)],
            ["Bob", "Ann"],
            id="R11.1 then skill",
        ),
        # Equal everything but sign-up: earlier sign-up first.
        pytest.param(
            [SeasonLine("Ann", 50, 10, 8, 5), SeasonLine("Bob", 50, 10, 8, 2)],
            ["Bob", "Ann"],
            id="R11.1 then sign-up order",
        ),
        # All together: Bob 55; Cy 50/12.0; Ann, Di, Ed 50/10.0 -> Di and Ed
        # skill 8 (Ed signed up first), Ann skill 7.
        pytest.param(
            [
                SeasonLine("Ann", 50, 10, 7, 1),
                SeasonLine("Bob", 55, 8, 5, 2),
                SeasonLine("Cy", 50, 12, 3, 3),
                SeasonLine("Di", 50, 10, 8, 4),
                SeasonLine("Ed", 50, 10, 8, 0),
            ],
            ["Bob", "Cy", "Ed", "Di", "Ann"],
            id="R11.1 full ordering",
        ),
        # Unrated players sit where a rating of 5.5 would (R8.2 Decision).
        pytest.param(
            [
                SeasonLine("Ann", 50, 10, 5, 0),
                SeasonLine("Bob", 50, 10, None, 1),
                SeasonLine("Cy", 50, 10, 6, 2),
            ],
            ["Cy", "Bob", "Ann"],
            id="R11.1 unrated skill as 5.5",
        ),
    ],
)
def test_r11_1_season_standings(lines: list[SeasonLine], expected: list[str]) -> None:
    standings = season_standings(lines)
    assert [s.line.player for s in standings] == expected
    assert [s.rank for s in standings] == list(range(1, len(expected) + 1))


def test_r11_1_duplicate_player() -> None:
    with pytest.raises(ValueError, match="appears twice"):
        season_standings([SeasonLine("Ann", 1, 1, 5, 0), SeasonLine("Ann", 2, 1, 5, 1)])


# --- R11.2: play order ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("group", "ranks", "expected"),
    [
        # Lowest rank (7) starts, highest (2) plays last.
        pytest.param("ABC", {"A": 2, "B": 7, "C": 4}, "BCA", id="R11.2 game 1 three players"),
        # Four players: 10 first, then 6, 3, and rank 1 last.
        pytest.param(
            "ABCD", {"A": 3, "B": 1, "C": 10, "D": 6}, "CDAB", id="R11.2 game 1 four players"
        ),
        # Two players: the second highest goes first.
        pytest.param("AB", {"A": 1, "B": 2}, "BA", id="R11.2 game 1 two players"),
        pytest.param("AB", {"A": 9, "B": 2}, "AB", id="R11.2 game 1 two players reversed"),
    ],
)
def test_r11_2_first_game_order(group: str, ranks: dict[str, int], expected: str) -> None:
    assert first_game_order(list(group), ranks) == list(expected)


def test_r11_2_an_unranked_player_starts_game_1() -> None:
    """Decision (bot.rules.ranks.UNRANKED): no rank counts below every rank."""
    assert first_game_order(["A", "B", "C"], {"A": 1, "B": 2}) == ["C", "B", "A"]


@pytest.mark.parametrize(
    ("finish", "expected"),
    [
        pytest.param("ABC", "CBA", id="R11.2 last place starts, winner last"),
        pytest.param("CADB", "BDAC", id="R11.2 four players"),
        pytest.param("BA", "AB", id="R11.2 two players"),
    ],
)
def test_r11_2_next_game_order(finish: str, expected: str) -> None:
    assert next_game_order(list(finish)) == list(expected)


# --- R13: playoffs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        pytest.param(2, 2, id="R13.1 2 players: min 2"),
        pytest.param(4, 2, id="R13.1 4 // 3 = 1 -> 2"),
        pytest.param(8, 2, id="R13.1 8 // 3 = 2"),
        pytest.param(9, 3, id="R13.1 9 // 3 = 3"),
        pytest.param(11, 3, id="R13.1 11 // 3 = 3"),
        pytest.param(12, 4, id="R13.1 12 // 3 = 4"),
        pytest.param(20, 4, id="R13.1 20 // 3 = 6 -> max 4"),
    ],
)
def test_r13_1_playoff_spots(size: int, expected: int) -> None:
    assert playoff_spots(size) == expected


def test_r13_1_playoff_spots_are_a_setting() -> None:
    settings = RuleSettings(playoff_divisor=2, playoff_min=1, playoff_max=3)
    assert playoff_spots(5, settings) == 2
    assert playoff_spots(20, settings) == 3
    # The playoff field follows the setting: 3 of 12 qualify (the defaults give 4).
    assert playoff_field(list("ABCDEFGHIJKL"), settings) == PlayoffField(
        list("ABC"), list("DEFGHIJKL")
    )


@pytest.mark.parametrize(
    ("standings", "qualifiers", "alternates"),
    [
        pytest.param("ABCDEFGHI", "ABC", "DEFGHI", id="R13.1 nine: three qualify"),
        pytest.param("ABCDE", "AB", "CDE", id="R13.1 five: two qualify"),
        pytest.param("ABCDEFGHIJKLMN", "ABCD", "EFGHIJKLMN", id="R13.1 fourteen: four qualify"),
    ],
)
def test_r13_1_playoff_field(standings: str, qualifiers: str, alternates: str) -> None:
    assert playoff_field(list(standings)) == PlayoffField(list(qualifiers), list(alternates))


@pytest.mark.parametrize(
    ("unavailable", "expected"),
    [
        pytest.param(set(), "ABC", id="R13.2 everyone comes"),
        pytest.param({"B"}, "ACD", id="R13.2 first alternate replaces"),
        pytest.param({"A", "C"}, "BDE", id="R13.2 two no-shows: first two alternates"),
        pytest.param({"B", "D"}, "ACE", id="R13.2 first alternate also unavailable"),
    ],
)
def test_r13_2_replace_no_shows(unavailable: set[str], expected: str) -> None:
    field = PlayoffField(["A", "B", "C"], ["D", "E", "F"])
    assert sorted(replace_no_shows(field, unavailable)) == sorted(expected)


def test_r13_2_only_the_first_alternate_steps_in() -> None:
    field = PlayoffField(["A", "B", "C"], ["D", "E", "F"])
    final = replace_no_shows(field, {"B"})
    assert len(final) == 3
    assert "B" not in final
    assert "E" not in final


def test_r13_2_more_no_shows_than_alternates() -> None:
    field = PlayoffField(["A", "B"], ["C"])
    assert replace_no_shows(field, {"A", "B"}) == ["C"]


# --- R1: calendar --------------------------------------------------------------------------------

# The document's season: 10 Wednesdays from 15 Sept 1999 (a Wednesday).
DOC_SEASON = [
    date(1999, 9, 15),
    date(1999, 9, 22),
    date(1999, 9, 29),
    date(1999, 10, 6),
    date(1999, 10, 13),
    date(1999, 10, 20),
    date(1999, 10, 27),
    date(1999, 11, 3),
    date(1999, 11, 10),
    date(1999, 11, 17),
]


def test_r1_1_document_season() -> None:
    assert league_nights(date(1999, 9, 15), "Wednesday", 10) == DOC_SEASON


def test_r1_1_start_before_the_league_weekday() -> None:
    # 13 Sept 1999 is a Monday: the first night is Wednesday the 15th.
    assert league_nights(date(1999, 9, 13), "Wednesday", 10) == DOC_SEASON


def test_r1_1_other_weekday() -> None:
    assert league_nights(date(1999, 9, 15), "Thursday", 2) == [
        date(1999, 9, 16),
        date(1999, 9, 23),
    ]


def test_r1_2_skipped_date_moves_later_weeks() -> None:
    # 29 Sept skipped: week 3 is 6 Oct, and week 10 moves to 24 Nov.
    nights = league_nights(date(1999, 9, 15), "Wednesday", 10, skipped={date(1999, 9, 29)})
    assert nights == [*DOC_SEASON[:2], *DOC_SEASON[3:], date(1999, 11, 24)]
    assert nights[2] == date(1999, 10, 6)


def test_r1_2_two_skipped_dates() -> None:
    skipped = {date(1999, 9, 15), date(1999, 11, 10)}
    nights = league_nights(date(1999, 9, 15), "Wednesday", 10, skipped=skipped)
    assert nights[0] == date(1999, 9, 22)
    assert date(1999, 11, 10) not in nights
    assert nights[-1] == date(1999, 12, 1)
    assert len(nights) == 10


@pytest.mark.parametrize(
    ("nights", "skipped", "expected"),
    [
        pytest.param(DOC_SEASON, set(), date(1999, 11, 24), id="R1.1 playoffs week after"),
        # Thanksgiving eve skipped: playoffs on the next Wednesday.
        pytest.param(
            DOC_SEASON, {date(1999, 11, 24)}, date(1999, 12, 1), id="R1.2 playoff date skipped"
        ),
    ],
)
def test_r1_1_playoff_night(nights: list[date], skipped: set[date], expected: date) -> None:
    assert playoff_night(nights, skipped) == expected


def test_r1_1_season_needs_a_night() -> None:
    with pytest.raises(ValueError, match="at least one league night"):
        league_nights(date(1999, 9, 15), "Wednesday", 0)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("Monday", 0, id="R1.1 Monday 0"),
        pytest.param("Wednesday", 2, id="R1.1 Wednesday 2"),
        pytest.param("wednesday", 2, id="R1.1 lower case"),
        pytest.param(" Sunday ", 6, id="R1.1 spaces"),
    ],
)
def test_r1_1_weekday_number(name: str, expected: int) -> None:
    assert weekday_number(name) == expected


def test_r1_1_weekday_number_unknown() -> None:
    with pytest.raises(ValueError, match="not a weekday"):
        weekday_number("Funday")


# --- R2.1: late notices ------------------------------------------------------------

NIGHT = date(2025, 3, 12)  # a Wednesday


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        pytest.param(datetime(2025, 3, 5, 12, 0, tzinfo=NY), "advance", id="R2.1 a week before"),
        pytest.param(datetime(2025, 3, 11, 23, 59, tzinfo=NY), "advance", id="R2.1 day before"),
        pytest.param(datetime(2025, 3, 12, 0, 0, tzinfo=NY), "on_time", id="R2.1 league day 0:00"),
        pytest.param(datetime(2025, 3, 12, 14, 59, tzinfo=NY), "on_time", id="R2.1 14:59 on time"),
        pytest.param(
            datetime(2025, 3, 12, 14, 59, 59, tzinfo=NY), "on_time", id="R2.1 14:59:59 on time"
        ),
        pytest.param(
            datetime(2025, 3, 12, 15, 0, tzinfo=NY), "after_cutoff", id="R2.1 15:00 after cutoff"
        ),
        pytest.param(
            datetime(2025, 3, 12, 19, 20, tzinfo=NY), "after_cutoff", id="R2.1 evening after"
        ),
    ],
)
def test_r2_1_notice_timing(now: datetime, expected: str) -> None:
    assert notice_timing(now, NIGHT) == expected


def test_r2_1_cutoff_is_a_setting() -> None:
    now = datetime(2025, 3, 12, 12, 30, tzinfo=NY)
    assert notice_timing(now, NIGHT, cutoff=time(12, 0)) == "after_cutoff"
    assert notice_timing(now, NIGHT, cutoff=time(13, 0)) == "on_time"


def test_r2_1_notice_after_the_night() -> None:
    with pytest.raises(ValueError, match="is over") as caught:
        notice_timing(datetime(2025, 3, 13, 9, 0, tzinfo=NY), NIGHT)
    assert isinstance(caught.value, RuleError)


def test_r13_1_a_field_is_never_more_than_four_whatever_an_older_setting_says() -> None:
    """A final group or a bracket holds 4 (R13.3): a season stored before the
    settings took 1 to 4 (playoff_max up to 16) still sends at most 4."""
    settings = RuleSettings(playoff_divisor=1, playoff_min=6, playoff_max=16)
    assert playoff_spots(30, settings) == 4
    assert playoff_spots(3, settings) == 4  # a field of 4 from 3 players: all of them
    assert playoff_field(list("ABC"), settings) == PlayoffField(list("ABC"), [])
