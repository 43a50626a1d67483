"""/score photo: through the real bot and the loopback Discord, a photo of the score
display arrives as Discord sends an attachment option (an attachment id, and the
file in `data.resolved.attachments`, served as Discord's CDN serves it). The bot
downloads it, checks its bytes, keeps a copy without metadata, posts that copy in
the approvals channel and links the scorecard to the post."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot import demo, demo_script, stage
from bot.demo_night import LeagueNight
from bot.stage import Stage
from bot.transcript import Transcript
from standin import DiscordStandIn, Limits
from standin.commands import InvalidInvocation
from tests.test_photos import phone_jpeg

HTML = b"<!doctype html><html><body><a href='https://example.com'>prize</a></body></html>"


@asynccontextmanager
async def afternoon(
    tmp_path: Path, limits: Limits | None = None
) -> AsyncIterator[tuple[DiscordStandIn, Stage, LeagueNight]]:
    """The demo's league on its league night's afternoon, the real bot running."""
    standin = DiscordStandIn(token=demo_script.TOKEN, limits=limits)
    await standin.start()
    try:
        world = demo.build_world(standin)
        night = LeagueNight(standin, world, Transcript(world.names(), {}))
        settings = demo.settings_for(standin, world, tmp_path / "league.sqlite3")
        async with stage.running_bot(settings) as bot:
            night.bot = bot
            await night.set_up()
            await night.afternoon()
            yield standin, world, night
    finally:
        await standin.stop()


def photo(content: bytes, **changes: object) -> dict[str, object]:
    return {"filename": "display.jpg", "content_type": "image/jpeg", "width": 4032,
            "height": 3024, "content": content, **changes}  # fmt: skip


async def test_a_photo_is_kept_clean_posted_once_and_linked_and_a_disguised_file_is_refused(
    tmp_path: Path,
) -> None:
    async with afternoon(tmp_path) as (standin, world, night):
        ann = night.member("Ann")
        before = len(standin.channel_messages(world.approvals))
        # an HTML file sent as image/png: its bytes are not a picture
        refused = await night.run(
            ann, "score", {"game": 1, "score": "1M", "photo": photo(
                HTML, filename="display.png", content_type="image/png")}, quiet=True,
        )  # fmt: skip
        assert refused.ephemeral and "must be a PNG, JPEG or WebP picture" in refused.content
        assert len(standin.channel_messages(world.approvals)) == before
        # Discord's client refuses the upload
        with pytest.raises(InvalidInvocation, match="uploads files of 1 to 10,485,760 bytes"):
            await night.run(
                ann,
                "score",
                {"game": 1, "score": "1M", "photo": photo(b"x" * (11 << 20))},
                quiet=True,
            )
        done = await night.run(
            ann, "score", {"game": 1, "score": "1M", "photo": photo(phone_jpeg())}, quiet=True
        )
        assert "Photo kept, without its location or other details." in done.content
        assert "cdn" not in done.content and "http" not in done.content
        # the league's copy, posted once in the approvals channel, then the card
        photo_post, card = standin.channel_messages(world.approvals)[before:]
        [file] = photo_post["attachments"]
        assert file["filename"] == "week-1-group-1-game-1-ann.jpg"
        kept = standin.attachment_bytes(photo_post)
        assert kept[:2] == b"\xff\xd8" and b"Exif" not in kept and b"PhoneMaker" not in kept
        assert photo_post["content"].startswith("📷 Ann · Game 1 · ")
        [embed] = card["embeds"]
        [game] = [f["value"] for f in embed["fields"] if f["name"].startswith("Game 1 ")]
        link = f"https://discord.com/channels/{world.guild}/{world.approvals}/{photo_post['id']}"
        assert f"Ann 1,000,000 ⏳ [📷]({link})" in game
        assert "cdn" not in str(embed) and "attachments" not in str(embed)
        assert standin.rejected == []


async def test_a_photo_discord_refuses_to_post_is_coming_on_the_card_until_it_is_resent(
    tmp_path: Path,
) -> None:
    """Without Attach Files in the approvals channel Discord refuses the photo's post
    (403 50013): the card goes out anyway, saying the photo is coming; once the
    permission is given, /league admin resend posts it and the card links to it."""
    async with afternoon(tmp_path, limits=Limits()) as (standin, world, night):
        standin.deny(world.approvals, "attach")
        before = len(standin.channel_messages(world.approvals))
        await night.run(night.member("Ann"), "score", {"game": 1, "score": "1M",
                                                       "photo": photo(phone_jpeg())},
                        quiet=True)  # fmt: skip
        assert [(r.status, r.method) for r in standin.rejected][-1:] == [(403, "POST")]
        assert standin.rejected[-1].error == "Missing Permissions"  # 50013
        [card] = [m for m in standin.channel_messages(world.approvals)[before:] if m["embeds"]]
        assert "Ann 1,000,000 ⏳ 📷 coming" in str(card["embeds"])
        standin.allow(world.approvals, "attach")
        resent = await night.run(world.commissioner, "league admin resend", quiet=True)
        assert resent.content.startswith("1 failed post will be sent again.")
        await night.delivered()
        [photo_post] = [m for m in standin.channel_messages(world.approvals)[before:]
                        if m.get("attachments")]  # fmt: skip
        card = standin.message(int(card["id"]))
        assert card is not None
        link = f"https://discord.com/channels/{world.guild}/{world.approvals}/{photo_post['id']}"
        assert f"Ann 1,000,000 ⏳ [📷]({link})" in str(card["embeds"])
