"""/score photo: a photo of the score display with a score, checked by
its bytes, kept by the league without its metadata and shown on the scorecard
by a link to the league's own copy; and the season's yes/no `photo_required`."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from typing import Any

import discord
import pytest
from PIL import Image

from bot import photos
from bot.services import approvals, setup
from bot.services.errors import BadInput
from cogs.scores.scores_cog import Scores, cleaned
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, _FakeHTTPResponse, card_text, click, invoke
from tests.cogs.league_play import snapshot
from tests.cogs.test_scores_cog import TONIGHT, locked
from tests.moments import SETTING_AT
from tests.test_photos import phone_jpeg

COG = Scores()
URL = "https://cdn.discordapp.com/attachments/1/2/display.jpg"
JUMP = f"https://discord.com/channels/{GUILD}/{APPROVALS}/"


class CDN:
    """Discord's CDN as discord.py's HTTP client reaches it (`get_from_cdn`): each
    file's bytes by its URL, 404 for one that expired. Counts the downloads."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.downloads = 0

    async def get_from_cdn(self, url: str) -> bytes:
        self.downloads += 1
        if url not in self.files:
            raise discord.NotFound(_FakeHTTPResponse(404), "asset not found")
        return self.files[url]


def attachment(content: bytes | None = None, cdn: CDN | None = None, **changes: Any):  # type: ignore[no-untyped-def]
    """A real discord.py Attachment from the payload Discord sends in `resolved`,
    whose file (`content`, a phone's JPEG by default) Discord's CDN serves."""
    data = {"id": "123", "filename": "display.jpg", "url": URL, "proxy_url": URL,
            "content_type": "image/jpeg", "width": 1200, "height": 900}  # fmt: skip
    content = phone_jpeg() if content is None else content
    data["size"] = len(content)
    data.update(changes)
    state = type("State", (), {"http": cdn or CDN({URL: content})})()
    return discord.Attachment(data=data, state=state)  # type: ignore[arg-type]


def stored_photos(bot: FakeBot) -> list[tuple[str, int, int, bytes]]:
    with sqlite3.connect(bot.settings.database_path) as conn:
        return conn.execute("SELECT format, width, height, data FROM score_photos").fetchall()


async def test_the_league_keeps_a_clean_copy_posts_it_and_the_card_links_to_that_post(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT),
                        game=1, score="850M", photo=attachment())  # fmt: skip
    assert said.deferred is True  # acknowledged before the download
    assert "Photo kept, without its location or other details." in said.text
    assert URL not in said.text
    [(kind, width, height, data)] = stored_photos(bot)
    assert (kind, width, height) == ("jpeg", 1200, 1600)  # upright, downsized
    assert not any(s in data for s in (b"Exif", b"GPS", b"PhoneMaker", b"secret"))
    # the copy is posted in the approvals channel, then the card that links to it
    photo_post, card = bot.channels[APPROVALS].sent
    assert photo_post.files == [data]
    assert photo_post.content.startswith("📷 P1 · Game 1 · ")
    text = card_text(card)
    assert f"P1 850,000,000 ⏳ [📷]({JUMP}{photo_post.id})" in text
    assert URL not in text and "cdn.discordapp.com" not in text


async def test_a_score_without_a_photo_shows_no_photo(league: FakeBot) -> None:
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="850M")
    [card] = bot.channels[APPROVALS].sent
    assert "[📷]" not in card_text(card) and stored_photos(bot) == []


def _html() -> bytes:
    return b"<!doctype html><html><body><a href='https://example.com'>win</a></body></html>"


def _gif() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 64)).save(out, "GIF")
    return out.getvalue()


@pytest.mark.parametrize(
    ("content", "changes", "message"),
    [
        (_html(), {"content_type": "image/png", "filename": "display.png"}, "PNG, JPEG or WebP"),
        (b"%PDF-1.7 fake", {"content_type": "application/pdf"}, "PNG, JPEG or WebP"),
        (_gif(), {"content_type": "image/gif"}, "PNG, JPEG or WebP"),
        (b"\x00\x00\x00\x18ftypheic" + b"\x00" * 40, {"content_type": "image/heic"}, "HEIC"),
        (None, {"size": 30 * 1024 * 1024}, "at most 10 MB"),
    ],
    ids=["html-as-png", "pdf", "gif", "heic", "over-10-MB"],
)
async def test_a_file_that_is_not_a_usable_photo_is_refused_and_nothing_is_stored(
    league: FakeBot, content: bytes | None, changes: dict[str, Any], message: str
) -> None:
    bot = await locked(league)
    before = await snapshot(bot)
    posts = len(bot.channels[APPROVALS].sent)
    cdn = CDN({URL: content or b"x"})
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1,
                        score="850M", photo=attachment(content, cdn, **changes))  # fmt: skip
    assert message in said.text and all(r.ephemeral for r in said.replies)
    # a file over 10 MB (Discord says its size) is refused without downloading it
    assert cdn.downloads == (0 if "size" in changes else 1)
    assert "Traceback" not in said.text and "123" not in said.text
    assert await snapshot(bot) == before
    assert len(bot.channels[APPROVALS].sent) == posts


async def test_a_photo_discord_no_longer_serves_is_refused_saying_send_it_again(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    before = await snapshot(bot)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT),
                        game=1, score="850M", photo=attachment(cdn=CDN({})))  # fmt: skip
    assert said.text == "The photo could not be fetched from Discord. Send the score again with it."
    assert await snapshot(bot) == before


async def test_photo_required_refuses_a_score_without_a_photo(league: FakeBot) -> None:
    bot = await locked(league)
    changed = await setup.change_setting(bot.db, GUILD, "photo_required", "yes", now=SETTING_AT)
    assert changed.shown == "yes"
    before = await snapshot(bot)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="850M")
    assert "photo of the score display" in said.text and "/score photo:" in said.text
    assert await snapshot(bot) == before
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT),
                        game=1, score="850M", photo=attachment())  # fmt: skip
    assert "Submitted" in said.text
    assert (
        await setup.change_setting(bot.db, GUILD, "photo_required", "no", now=SETTING_AT)
    ).shown == "no"


async def test_photo_required_takes_only_yes_or_no(league: FakeBot) -> None:
    with pytest.raises(BadInput, match="photo_required is yes or no"):
        await setup.change_setting(league.db, GUILD, "photo_required", "maybe", now=SETTING_AT)


async def test_the_photo_stays_on_the_card_once_approved(league: FakeBot) -> None:
    bot = await locked(league)
    for n, player in enumerate(PLAYERS[k] for k in (1, 2, 3)):  # the whole group's game 1
        photo = attachment() if n == 0 else None
        await invoke(COG.score, COG, as_user(bot, player, TONIGHT),
                     game=1, score=f"{n + 1}M", photo=photo)  # fmt: skip
    photo_post, card = bot.channels[APPROVALS].sent
    said = await click(card.button("Approve one game…"),
                       as_user(bot, COMMISSIONER, TONIGHT, message=card), values=["1"])  # fmt: skip
    assert said.text.startswith("Approved 3 scores")
    assert f"P1 1,000,000 ✓ [📷]({JUMP}{photo_post.id})" in card_text(card)
    assert [v.score.status for v in await approvals.pending(bot.db, GUILD)] == []


async def ticks_while(work: asyncio.Future[Any]) -> int:
    """How many times a coroutine got to run before `work` was done."""
    count = 0
    while not work.done():
        count += 1
        await asyncio.sleep(0)
    await work
    return count


async def test_the_bot_keeps_answering_while_a_photo_is_checked_and_cleaned() -> None:
    assert await ticks_while(asyncio.ensure_future(cleaned(attachment()))) > 10

    async def on_the_loop() -> None:  # what the test above is measured against
        photos.clean(phone_jpeg())

    assert await ticks_while(asyncio.ensure_future(on_the_loop())) <= 1
