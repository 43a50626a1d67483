"""A roster file at its edges (R12.4 import): an IFPA number another current
player already holds is refused naming both, changing nothing, and a Discord
id a spreadsheet turned into a number is quoted up to 25 characters."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.services import membership, roster
from bot.services.roster import BadRoster, read_roster
from tests.services.conftest import GUILD, at, snapshot


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
