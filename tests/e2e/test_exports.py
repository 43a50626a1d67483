"""/league admin export and /league player import through the real bot and the
loopback Discord (issue #14): the season's zip arrives as an attachment of the
private reply, and a roster file the commissioner uploads is downloaded from
Discord's CDN (the stand-in) and imported."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest

from bot import demo
from bot.demo import ABSENT, NIGHT, PLAYERS, LeagueNight, Transcript, at
from standin import DiscordStandIn
from standin.commands import CommandNotPermitted


async def test_a_played_night_exports_as_a_zip_and_a_roster_file_imports(
    tmp_path: Path,
) -> None:
    standin = DiscordStandIn(token=demo.TOKEN)
    await standin.start()
    try:
        world = demo.build_world(standin)
        names = {world.commissioner: "Koi", **{v: k for k, v in world.players.items()}}
        night = LeagueNight(standin, world, Transcript(names, {}, out=lambda _: None))
        settings = demo.settings_for(standin, world, tmp_path / "league.sqlite3")
        async with demo.running_bot(settings) as bot:
            night.bot = bot
            await night.set_up()
            await night.afternoon()
            await night.dues()
            await night.scores([n for n in PLAYERS if n != ABSENT])
            await night.approve()
            await night.finish()
            koi = world.commissioner
            standin.set_time(at(NIGHT + timedelta(days=1), "10:00"))

            done = await night.run(koi, "league admin export")
            assert done.ephemeral and done.content.startswith("Winter 2026: 9 CSV files")
            (message,) = done.messages
            assert message["attachments"][0]["filename"] == "koi-s-pinball-league-winter-2026.zip"
            with zipfile.ZipFile(io.BytesIO(standin.attachment_bytes(message))) as archive:
                assert archive.testzip() is None
                text = archive.read("results.csv").decode("utf-8")
            results = list(csv.DictReader(io.StringIO(text, newline="")))
            assert sorted(r["player"] for r in results) == sorted(PLAYERS)
            gus = next(r for r in results if r["player"] == ABSENT)
            assert gus["attendance"] == "absent"

            with pytest.raises(CommandNotPermitted):  # Discord does not offer /league to Ann
                await night.run(world.players["Ann"], "league admin export")

            roster = b"name,discord,skill\nHal,,6\nIvy,,11\n"
            bad = await night.run(
                koi, "league player import", {"file": {"filename": "r.csv", "content": roster}}
            )
            assert bad.ephemeral and bad.content.split("\n")[1:] == [
                "row 3: skill '11' is not 1–10"
            ]
            good = await night.run(
                koi,
                "league player import",
                {"file": {"filename": "r.csv", "content": roster.replace(b"11", b"5")}},
            )
            assert good.ephemeral and good.content == "Imported 2 players: Hal, Ivy."
    finally:
        await standin.stop()


async def test_the_standin_cdn_serves_only_files_it_was_given() -> None:
    """Discord's CDN answers 404 for a file it does not have."""
    import aiohttp

    standin = DiscordStandIn(token=demo.TOKEN)
    await standin.start()
    try:
        standin.uploads["42"] = b"name\nHal\n"
        async with aiohttp.ClientSession() as session:
            async with session.get(standin.attachment_url("42", "r.csv")) as found:
                assert found.status == 200 and await found.read() == b"name\nHal\n"
            async with session.get(standin.attachment_url("43", "r.csv")) as missing:
                assert missing.status == 404
    finally:
        await standin.stop()
