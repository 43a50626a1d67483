"""/score photo: through the real bot and the loopback Discord, a photo of the score
display arrives as Discord sends an attachment option (an attachment id, and the
file in `data.resolved.attachments`), is stored and shown on the scorecard."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import demo
from bot.demo import LeagueNight, Transcript
from standin import DiscordStandIn
from standin.commands import InvalidInvocation

PHOTO = {"filename": "display.jpg", "size": 1_500_000, "content_type": "image/jpeg",
         "width": 1200, "height": 900}  # fmt: skip


async def test_a_photo_reaches_the_scorecard_and_a_non_image_is_refused(
    tmp_path: Path,
) -> None:
    standin = DiscordStandIn(token=demo.TOKEN)
    await standin.start()
    try:
        world = demo.build_world(standin)
        night = LeagueNight(standin, world, Transcript(world.names(), {}))
        settings = demo.settings_for(standin, world, tmp_path / "league.sqlite3")
        async with demo.running_bot(settings) as bot:
            night.bot = bot
            await night.set_up()
            await night.afternoon()
            ann = night.member("Ann")
            before = len(standin.channel_messages(world.approvals))
            refused = await night.run(
                ann, "score", {"game": 1, "score": "1M",
                               "photo": {**PHOTO, "filename": "x.pdf",
                                         "content_type": "application/pdf"}},
            )  # fmt: skip
            assert refused.ephemeral and "must be an image" in refused.content
            assert len(standin.channel_messages(world.approvals)) == before
            with pytest.raises(InvalidInvocation):  # Discord's client refuses the upload
                await night.run(
                    ann, "score", {"game": 1, "score": "1M", "photo": {**PHOTO, "size": 11 << 20}}
                )
            done = await night.run(ann, "score", {"game": 1, "score": "1M", "photo": PHOTO})
            assert "Photo: https://cdn.discordapp.com/" in done.content
            # on Ann's group's scorecard, as a link the commissioner opens
            [card] = standin.channel_messages(world.approvals)[-1]["embeds"]
            [game] = [f["value"] for f in card["fields"] if f["name"].startswith("Game 1 ")]
            assert "Ann 1,000,000 ⏳ [photo](https://cdn.discordapp.com/" in game
            assert "display.jpg)" in game
    finally:
        await standin.stop()
