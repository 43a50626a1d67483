"""A roster file at its edges (R12.4 import): an IFPA number another current
player already holds is refused naming both, changing nothing, and a Discord
id a spreadsheet turned into a number is quoted up to 25 characters."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.services import groups, membership, roster
from bot.services.roster import BadRoster, read_roster
from tests.services.conftest import GUILD, at, finalize_week_1, snapshot


async def test_an_ifpa_number_already_held_is_refused_naming_its_holder(league: Database) -> None:
    db = league
    await membership.add_player(db, GUILD, "Ann", discord_id=None, now=at(date(2026, 1, 2)))
    await membership.set_ifpa(db, GUILD, "Ann", "12345")
    before = await snapshot(db)
    data = b"name,discord,skill,ifpa\nBob,,5,\nCat,,6,12345\n"
    with pytest.raises(BadRoster) as refused:
        await roster.import_roster(db, GUILD, data, now=at(date(2026, 1, 3)))
    assert str(refused.value) == (
        "Nothing was imported; fix these rows and upload the file again:\n"
        "row 3: Ann already has IFPA number 12345"
    )
    assert await snapshot(db) == before


async def test_a_new_ifpa_number_is_imported(league: Database) -> None:
    done = await roster.import_roster(
        league, GUILD, b"name,discord,skill,ifpa\nCat,,6,12345\n", now=at(date(2026, 1, 3))
    )
    assert [(p.name, p.ifpa_number) for p in done.added] == [("Cat", 12345)]


@pytest.mark.parametrize(("cell", "quoted"), [
    ("1.23456789012345678E+1700", "'1.23456789012345678E+1700'"),  # 25 characters: whole
    ("1.234567890123456789E+1700", "'1.234567890123456789E+170'… (26 characters)"),
])  # fmt: skip
def test_a_discord_id_turned_into_a_number_is_quoted_up_to_25_characters(
    cell: str, quoted: str
) -> None:
    with pytest.raises(BadRoster) as refused:
        read_roster(f"name,discord\nAnn,{cell}\n".encode())
    assert f"discord {quoted}" in str(refused.value)


def test_a_discord_cell_that_is_no_member_is_quoted_up_to_25_characters() -> None:
    with pytest.raises(BadRoster) as refused:
        read_roster(
            b"name,discord\nAnn,abcdefghijklmnopqrstuvwxy\nBob,abcdefghijklmnopqrstuvwxyz\n"
        )
    assert str(refused.value).splitlines()[1:] == [
        "row 2: discord 'abcdefghijklmnopqrstuvwxy' is not a user id or <@id>",
        "row 3: discord 'abcdefghijklmnopqrstuvwxy'… (26 characters) is not a user id or <@id>",
    ]


def test_skills_from_1_to_10_with_a_decimal_comma() -> None:
    rows, _ = read_roster(b'name,skill\nAnn,1\nBob,"7,5"\nCat,10\n')
    assert [(r.name, r.skill) for r in rows] == [("Ann", 1.0), ("Bob", 7.5), ("Cat", 10.0)]


def test_a_skill_out_of_range_is_quoted_up_to_10_characters() -> None:
    with pytest.raises(BadRoster) as refused:
        read_roster(b"name,skill\nAnn,0\nBob,1234567890\nCat,12345678901\n")
    assert str(refused.value).splitlines()[1:] == [
        "row 2: skill '0' is not 1–10",
        "row 3: skill '1234567890' is not 1–10",
        "row 4: skill '1234567890'… (11 characters) is not 1–10",
    ]


def test_two_rows_with_one_ifpa_number_are_refused() -> None:
    rows, _ = read_roster(b"name,ifpa\nAnn,12345\nBob,54321\n")  # two numbers: fine
    assert [r.ifpa_number for r in rows] == [12345, 54321]
    with pytest.raises(BadRoster) as refused:
        read_roster(b"name,ifpa\nAnn,12345\nBob,\nCat,12345\n")
    assert str(refused.value).splitlines()[1:] == ["row 4: the same IFPA number as row 2"]


def test_a_name_with_a_plus_after_its_first_letter_is_kept_whole() -> None:
    """Only a cell the export escaped (a leading apostrophe before a formula)
    loses its first character."""
    rows, _ = read_roster(b"name\nA+B\n")
    assert [r.name for r in rows] == ["A+B"]


def test_a_file_of_100_000_bytes_is_read_and_one_byte_more_refused() -> None:
    head = b"name\nAnn"
    padded = head + b" " * (100_000 - len(head))  # the cell's spaces are trimmed
    rows, _ = read_roster(padded)
    assert [r.name for r in rows] == ["Ann"]
    with pytest.raises(BadRoster) as refused:
        read_roster(padded + b" ")
    assert str(refused.value) == (
        "The file is 100,001 bytes; a roster file is at most 100,000 bytes."
    )


def test_500_players_are_read_and_501_refused() -> None:
    rows, _ = read_roster(("name\n" + "".join(f"P{n}\n" for n in range(500))).encode())
    assert len(rows) == 500
    with pytest.raises(BadRoster) as refused:
        read_roster(("name\n" + "".join(f"P{n}\n" for n in range(501))).encode())
    assert str(refused.value) == "The file has 501 rows; import at most 500."


@pytest.mark.parametrize(("header", "said"), [
    ("discord,skill", ""),
    ("name,abcdefghijklmnopqrst", " Unknown column: 'abcdefghijklmnopqrst'."),
    ("name,abcdefghijklmnopqrstu", " Unknown column: 'abcdefghijklmnopqrst'… (21 characters)."),
])  # fmt: skip
def test_a_header_without_names_or_with_unknown_columns_is_refused(header: str, said: str) -> None:
    with pytest.raises(BadRoster) as refused:
        read_roster(f"{header}\nAnn,1\n".encode())
    assert str(refused.value) == (
        f"The first row names the columns: name, and optionally discord, skill, ifpa.{said}"
    )


def test_every_row_with_too_many_cells_is_listed() -> None:
    with pytest.raises(BadRoster) as refused:
        read_roster(b"name,skill\nAnn,5,x\nBob,6,y\nCat,0\n")
    assert str(refused.value).splitlines()[1:] == [
        "row 2: more cells than columns",
        "row 3: more cells than columns",
        "row 4: skill '0' is not 1–10",
    ]


def test_rows_an_export_marked_removed_are_left_out_by_name_or_row() -> None:
    """A players export marks removed players: they are left out (named, or by
    row when the row stops before its name), and the rows after them still
    count."""
    rows, removed = read_roster(b"status,name\nremoved\nremoved,Dan\ncurrent,Ann\n")
    assert ([r.name for r in rows], removed) == (["Ann"], ["row 2", "Dan"])


def test_a_file_of_removed_players_only_is_refused() -> None:
    with pytest.raises(BadRoster) as refused:
        read_roster(b"name,status\nDan,removed\n")
    assert str(refused.value) == "Every row of the file is marked removed; nothing to import."


async def test_r8_6_players_imported_mid_season_join_the_next_nights_groups(
    players: Database,
) -> None:
    db = players
    await finalize_week_1(db)
    await roster.import_roster(db, GUILD, b"name\nDan\n", now=at(date(2026, 1, 10)))
    view = await groups.week_view(db, GUILD, week=2, now=at(date(2026, 1, 10)))
    assert sorted(name for g in view.groups for name in g.players) == ["Dan", "P1", "P2", "P3"]
