"""The season's export carries the league's copies of the scores' photos: the zip
in `photos/` and the command line in the folder, each named in scores.csv's
`photo` column; a score sent before copies were kept names its old link."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest

from bot.photos import clean
from bot.services import approvals, scores
from cogs.league import admin
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, at
from tests.cogs.fakes import GUILD, FakeBot
from tests.cogs.league_play import (
    divisions_from_week_2,
    lock,
    night_of,
)
from tests.cogs.test_commissioner_cog import private
from tests.cogs.test_export_cli import cli, database
from tests.cogs.test_exports_cog import export, tables
from tests.test_photos import phone_jpeg

TONIGHT = at(FIRST_NIGHT, "20:00")
OLD = "https://cdn.discordapp.com/attachments/1/2/IMG_0001.jpg?ex=1&is=2&hm=3&"


async def with_photos(bot: FakeBot) -> dict[str, bytes]:
    """Week 1: P1's games 1 and 2 with photos; P2's game 1 with a photo is rejected
    and sent again with another; P3's game 1 was sent before copies were kept (its
    Discord link only). Returns each photo's expected name and the copy kept."""
    await lock(bot)
    first, second = clean(phone_jpeg()), clean(phone_jpeg((800, 600), orientation=1))
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 61_000_000, photo=first, now=TONIGHT)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 2, 25_000_000, photo=second, now=TONIGHT)
    wrong = await scores.submit(bot.db, GUILD, PLAYERS[2].id, 1, 4_000, photo=first, now=TONIGHT)
    await approvals.decide_score(bot.db, GUILD, wrong.score.id, False, by=COMMISSIONER.id,
                                 now=TONIGHT, reason="one zero short")  # fmt: skip
    await scores.submit(bot.db, GUILD, PLAYERS[2].id, 1, 40_000, photo=second, now=TONIGHT)
    old = await scores.submit(bot.db, GUILD, PLAYERS[3].id, 1, 48_000_000, now=TONIGHT)
    async with bot.db.transaction() as conn:  # as migration 0005 stored it
        await conn.execute("UPDATE scores SET photo_url = ? WHERE id = ?", (OLD, old.score.id))
    return {
        "photos/week-1-group-1-game-1-p1.jpg": first.data,
        "photos/week-1-group-1-game-2-p1.jpg": second.data,
        "photos/week-1-group-1-game-1-p2.jpg": first.data,  # the rejected score's
        "photos/week-1-group-1-game-1-p2-2.jpg": second.data,  # the one sent again
    }


def named(rows: list[dict[str, str]]) -> dict[tuple[str, str, str], str]:
    """(player, game, score) -> the photo column, for week 1's live scores."""
    return {(r["player"], r["game"], r["score"]): r["photo"] for r in rows if r["week"] == "1"}


async def test_the_zip_carries_every_photo_that_scores_csv_names(league: FakeBot) -> None:
    bot = league
    expected = await with_photos(bot)
    said, data = await export(bot)
    assert said.text == (
        "Spring: 11 CSV files in a zip (columns in docs/commands.md), and the scores' 4 photos."
    )
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        kept = {n: archive.read(n) for n in archive.namelist() if n.startswith("photos/")}
    assert kept == expected
    assert named(tables_of(data)["scores"]) == {
        ("P1", "1", "61000000"): "photos/week-1-group-1-game-1-p1.jpg",
        ("P1", "2", "25000000"): "photos/week-1-group-1-game-2-p1.jpg",
        ("P2", "1", "4000"): "photos/week-1-group-1-game-1-p2.jpg",
        ("P2", "1", "40000"): "photos/week-1-group-1-game-1-p2-2.jpg",
        ("P3", "1", "48000000"): OLD,
    }
    again = await export(bot)
    assert again[1] == data  # the same season zips to the same bytes


def tables_of(data: bytes) -> dict[str, list[dict[str, str]]]:
    """The zip's CSV files read back (`tables` reads every entry as a CSV)."""
    return tables(_csv_only(data))


def _csv_only(data: bytes) -> bytes:
    """The zip with its CSV files alone."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as archive, zipfile.ZipFile(out, "w") as kept:
        for name in archive.namelist():
            if name.endswith(".csv"):
                kept.writestr(name, archive.read(name))
    return out.getvalue()


async def test_photos_too_big_for_discord_are_left_out_and_the_reply_says_where_to_get_them(
    league: FakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = league
    await with_photos(bot)
    monkeypatch.setattr(admin, "FILE_LIMIT", 20_000)  # the CSVs fit, the photos do not
    said, data = await export(bot)
    assert said.text.startswith("Spring: 11 CSV files in a zip (columns in docs/commands.md). "
                                "The scores' 4 photos (")  # fmt: skip
    assert said.text.endswith("on the bot's computer, run: league-bot export --database FILE "
                              "--out DIR")  # fmt: skip
    assert private(said)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert not [n for n in archive.namelist() if n.startswith("photos/")]


async def test_the_command_line_writes_the_photos_into_the_folder_and_its_zip(
    league: FakeBot, tmp_path: Path
) -> None:
    bot = league
    expected = await with_photos(bot)
    out = tmp_path / "out"
    done = await cli("--database", database(bot), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"Wrote 11 CSV files and 4 photos of Spring and their zip league-spring.zip to {out}.\n"
    )
    assert {f"photos/{p.name}": p.read_bytes() for p in (out / "photos").iterdir()} == expected
    with zipfile.ZipFile(out / "league-spring.zip") as archive:
        assert {n: archive.read(n) for n in archive.namelist() if n.startswith("photos/")} == (
            expected
        )
        text = archive.read("scores.csv").decode("utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert set(named(rows).values()) == {*expected, OLD}
    assert all((out / name).is_file() for name in expected)


async def test_a_score_sent_without_a_photo_has_an_empty_photo_column(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 61_000_000, now=TONIGHT)
    _, data = await export(bot)
    assert named(tables_of(data)["scores"]) == {("P1", "1", "61000000"): ""}


async def test_a_division_groups_photos_are_named_by_division(league: FakeBot) -> None:
    """R9: from the division week a photo's name says the division too, so two
    divisions' group 1 photos never share a name."""
    bot = league
    await divisions_from_week_2(bot)
    await lock(bot, 2)
    photo = clean(phone_jpeg())
    when = at(night_of(2), "20:00")
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 61_000_000, photo=photo, now=when)
    _, data = await export(bot)
    rows = [r for r in tables_of(data)["scores"] if r["week"] == "2" and r["player"] == "P1"]
    assert [r["photo"] for r in rows] == ["photos/week-2-division-a-group-1-game-1-p1.jpg"]
