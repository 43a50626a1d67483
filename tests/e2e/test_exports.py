"""/league admin export and /league player import through the real bot and the
loopback Discord: the season's zip arrives as an attachment of the
private reply, and a roster file the commissioner uploads is downloaded from
Discord's CDN (the stand-in) and imported. A played season's export is checked
against the database in tests/cogs/test_exports_cog.py."""

from __future__ import annotations

import csv
import io
import zipfile

import aiohttp
import pytest

from bot.config import Settings
from standin import DiscordStandIn
from standin.commands import CommandNotPermitted
from tests.e2e.harness import World, running_bot
from tests.e2e.test_standin import run, start_small_season


async def test_the_export_arrives_as_a_zip_and_a_roster_file_imports(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    koi, ann = world.commissioner, world.players[0]
    async with running_bot(settings):
        await start_small_season(standin, world)
        typing = await standin.autocomplete(
            koi, "league admin export", {"season": "sp"}, "season", channel_id=world.general
        )
        assert [c["value"] for c in (await typing.done()).choices] == ["Spring"]

        done = await run(standin, koi, "league admin export", {"season": "Spring"},
                         channel=world.general)  # fmt: skip
        assert done.ephemeral and done.content.startswith("Spring: 11 CSV files")
        (message,) = done.messages
        assert message["attachments"][0]["filename"] == "koi-s-league-spring.zip"
        with zipfile.ZipFile(io.BytesIO(standin.attachment_bytes(message))) as archive:
            assert archive.testzip() is None
            text = archive.read("players.csv").decode("utf-8-sig")
        players = list(csv.DictReader(io.StringIO(text, newline="")))
        assert [(p["name"], p["discord"]) for p in players] == [
            ("Ann", f"<@{ann}>"), ("Bob", f"<@{world.players[1]}>")
        ]  # fmt: skip
        refused = await run(standin, koi, "league admin export", {"season": "Fall"},
                            channel=world.general)  # fmt: skip
        assert refused.ephemeral and refused.content == (
            "There is no season called 'Fall'. Seasons: Spring."
        )
        assert all(not m.get("attachments") for m in refused.messages)
        # Discord does not offer /league to Ann
        with pytest.raises(CommandNotPermitted, match="Discord does not offer /league to "):
            await standin.invoke(ann, "league admin export", {}, channel_id=world.general)

        roster = f"name,discord,skill\nCal,{world.players[2]},6\nDee,,11\n".encode()
        bad = await run(standin, koi, "league player import",
                        {"file": {"filename": "r.csv", "content": roster}},
                        channel=world.general)  # fmt: skip
        assert bad.ephemeral and bad.content.split("\n")[1:] == ["row 3: skill '11' is not 1–10"]
        good = await run(standin, koi, "league player import",
                         {"file": {"filename": "r.csv", "content": roster.replace(b"11", b"5")}},
                         channel=world.general)  # fmt: skip
        assert good.ephemeral and good.content == "Imported 2 players: Cal, Dee."


async def test_the_standin_cdn_serves_only_files_it_was_given(standin: DiscordStandIn) -> None:
    """Discord's CDN answers 404 for a file it does not have."""
    standin.uploads["42"] = b"name\nHal\n"
    async with aiohttp.ClientSession() as session:
        async with session.get(standin.attachment_url("42", "r.csv")) as found:
            assert found.status == 200 and await found.read() == b"name\nHal\n"
        async with session.get(standin.attachment_url("43", "r.csv")) as missing:
            assert missing.status == 404
