"""/league player import: a roster CSV adds players at once; a bad
file changes nothing and names each bad row. Over real services and a real
SQLite file; the attachment is a real discord.py Attachment whose download
returns the file's bytes."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.database import Database
from bot.migrate import migrate
from bot.services import membership, roster, setup
from cogs.exports import exports
from cogs.exports.exports_text import csv_bytes
from cogs.exports.exports_text import imported as reply
from tests.cogs.conftest import PLAYERS, at
from tests.cogs.fakes import GUILD, FakeBot, Said
from tests.cogs.league_play import snapshot
from tests.cogs.test_commissioner_cog import private, run
from tests.cogs.test_exports_cog import played

MONDAY = at(date(2026, 1, 5))
ZED, YU = 800000000000000042, 800000000000000043


class _Gone:
    status, reason = 404, "Not Found"


class _CDN:
    """discord.py downloads an attachment with `http.get_from_cdn(url)`."""

    def __init__(self, data: bytes | None) -> None:
        self.data = data
        self.downloads = 0

    async def get_from_cdn(self, url: str) -> bytes:
        self.downloads += 1
        if self.data is None:  # what discord.py raises when the CDN answers 404
            raise discord.NotFound(_Gone(), "404: Not Found")
        return self.data


def upload(data: bytes | None, filename: str = "roster.csv", **changes: Any) -> discord.Attachment:
    url = f"https://cdn.discordapp.com/ephemeral-attachments/1/2/{filename}"
    payload = {"id": "123", "filename": filename, "size": len(data or b"x"), "url": url,
               "proxy_url": url, "content_type": "text/csv; charset=utf-8"}  # fmt: skip
    payload.update(changes)
    state = type("State", (), {"http": _CDN(data)})()
    return discord.Attachment(data=payload, state=state)  # type: ignore[arg-type]


async def import_file(bot: FakeBot, data: bytes, **changes: Any) -> Said:
    said = await run(bot, "player import", when=MONDAY, file=upload(data, **changes))
    assert said.deferred is True and private(said)
    return said


async def names(bot: FakeBot) -> list[tuple[str, int | None, float | None]]:
    players, _ = await membership.roster(bot.db, GUILD)
    return [(p.name, p.discord_id, p.skill) for p in players]


async def test_a_good_file_adds_everyone_at_once(league: FakeBot) -> None:
    bot = league
    data = (
        "Name,Discord,Skill,IFPA\r\n"
        f"Zed,{ZED},4,\r\n"
        f"Yu,<@{YU}>,7.5,#4242\r\n"
        "Xavier,,,\r\n"  # no Discord: the commissioner enters their scores
    ).encode()
    said = await import_file(bot, data)
    assert said.text == "Imported 3 players: Zed, Yu, Xavier."
    assert (await names(bot))[6:] == [("Zed", ZED, 4.0), ("Yu", YU, 7.5), ("Xavier", None, None)]
    done = await exports.export_season(bot.db, GUILD)
    assert [r[3] for r in done.table("players").rows][6:] == [None, 4242, None]


async def test_an_export_of_the_players_imports_into_a_new_league(
    league: FakeBot, tmp_path: Path
) -> None:
    """players.csv's first columns are the import's; its other columns are ignored,
    and the players it lists as removed are left out."""
    bot = await played(league)  # P6 played, then left: listed as removed
    await membership.remove_player(bot.db, GUILD, "P6", now=MONDAY)
    done = await exports.export_season(bot.db, GUILD)
    data = csv_bytes(done.table("players"))
    assert data.count(b",removed,") == 1
    path = tmp_path / "next.sqlite3"
    await migrate(path)
    other = await Database.open(path)
    try:
        await setup.create_league(other, GUILD, "Next League", now=MONDAY)
        imported = await roster.import_roster(other, GUILD, data, now=MONDAY)
        players, _ = await membership.roster(other, GUILD)
    finally:
        await other.close()
    assert reply(imported).split("\n") == [
        "Imported 5 players: P1, P2, P3, P4, P5.",
        "Left out (marked removed): P6.",
    ]
    assert [(p.name, p.discord_id, p.skill) for p in players] == [
        (f"P{n}", PLAYERS[n].id, 11.0 - n) for n in range(1, 6)
    ]


BAD_FILES = [
    (b"\xff\xfename\n", "The file is not UTF-8 text. Save it as CSV UTF-8 (comma delimited)."),
    (b"", "The file is empty. The first row names the columns: name,discord,skill."),
    (
        b"player,skil\nZed,4\n",
        "The first row names the columns: name, and optionally discord, skill, ifpa. "
        "Unknown column: 'player', 'skil'.",
    ),
    (b"name\n", "The file has no players, only the row of column names."),
    (b"name,name\nZed,Zed\n", "A column is named twice in the first row."),
    (b'name\n"Zed\n', "The file is not a CSV file (unexpected end of data)."),
    (b"name\n" + b"x\n" * 501, "The file has 501 rows; import at most 500."),
]


@pytest.mark.parametrize(("data", "message"), BAD_FILES,
                         ids=["not-utf8", "empty", "bad-header", "no-rows", "twice", "not-csv",
                              "too-many-rows"])  # fmt: skip
async def test_a_bad_file_is_refused_and_changes_nothing(
    league: FakeBot, data: bytes, message: str
) -> None:
    bot = league
    await run(bot, "admin status")  # the commissioner's name is recorded before the snapshot
    before = await snapshot(bot)
    said = await import_file(bot, data)
    assert said.text == message
    assert await snapshot(bot) == before


async def test_each_bad_row_is_named_and_nothing_is_added(league: FakeBot) -> None:
    bot = league
    await run(bot, "admin status")
    before = await snapshot(bot)
    data = (
        "name,discord,skill\n"
        f"Zed,{ZED},4\n"  # row 2: fine on its own
        "Yu,,11\n"  # row 3
        ",,3\n"  # row 4
        f"zed,{YU},2\n"  # row 5: the name again
        f"Wu,{ZED},\n"  # row 6: the member again
        f"P1,{800000000000000044},\n"  # row 7: a player already
        f"Vi,{PLAYERS[2].id},\n"  # row 8: P2's member
        "Ur,someone,\n"  # row 9
        f"{'T' * 65},,\n"  # row 10
        "Sam,,ten\n"  # row 11
        "Ro,,5,extra\n"  # row 12
    ).encode()
    said = await import_file(bot, data)
    assert said.text.split("\n") == [
        "Nothing was imported; fix these rows and upload the file again:",
        "row 3: skill '11' is not 1–10",
        "row 4: Give the player a name.",
        "row 5: zed is also on row 2",
        "row 6: the same Discord member as row 2",
        "row 9: discord 'someone' is not a user id or <@id>",
        "row 10: The player's name is too long (at most 64 characters).",
        "row 11: skill 'ten' is not 1–10",
        "row 12: more cells than columns",
    ]
    assert await snapshot(bot) == before
    # Rows fine in the file but clashing with the roster are named once the file is clean.
    data = f"name,discord\nZed,{ZED}\nP1,800000000000000044\nVi,{PLAYERS[2].id}\n".encode()
    said = await import_file(bot, data)
    assert said.text.split("\n")[1:] == [
        "row 3: there is already a player called P1",
        "row 4: that Discord member already plays as P2",
    ]
    assert await snapshot(bot) == before


async def test_at_most_ten_bad_rows_are_listed(league: FakeBot) -> None:
    data = ("name,skill\n" + "".join(f"N{n},0\n" for n in range(14))).encode()
    said = await import_file(league, data)
    lines = said.text.split("\n")
    assert len(lines) == 1 + 10 + 1 and lines[-1] == "and 4 more"
    assert lines[1] == "row 2: skill '0' is not 1–10"


async def test_a_file_too_big_is_refused_before_it_is_downloaded(league: FakeBot) -> None:
    bot = league
    attachment = upload(b"name\nZed\n", size=roster.MAX_BYTES + 1)
    said = await run(bot, "player import", when=MONDAY, file=attachment)
    assert said.text == "The file is 100,001 bytes; a roster file is at most 100,000 bytes."
    assert attachment._http.downloads == 0  # type: ignore[attr-defined]


async def test_the_import_is_for_the_commissioner_only(league: FakeBot) -> None:
    bot = league
    before = await snapshot(bot)
    attachment = upload(b"name\nZed\n")
    said = await run(bot, "player import", user=PLAYERS[1], when=MONDAY, file=attachment)
    assert said.text == "Only the commissioner can do that."
    assert attachment._http.downloads == 0  # type: ignore[attr-defined]
    assert await snapshot(bot) == before


async def test_a_file_discord_cannot_hand_over_is_refused_plainly(league: FakeBot) -> None:
    bot = league
    await run(bot, "admin status")
    before = await snapshot(bot)
    said = await run(bot, "player import", when=MONDAY, file=upload(None))
    assert said.text == "Discord did not hand over the file; upload it again." and private(said)
    assert await snapshot(bot) == before


async def test_a_removed_member_comes_back_with_their_history(league: FakeBot) -> None:
    bot = league
    await membership.remove_player(bot.db, GUILD, "P6", now=MONDAY)
    said = await import_file(bot, f"name,discord\nSix,<@!{PLAYERS[6].id}>\n".encode())
    assert said.text.split("\n") == [
        "Imported 1 player: Six.",
        "Welcome back (history kept): Six.",
    ]
    assert (await names(bot))[-1] == ("Six", PLAYERS[6].id, None)
