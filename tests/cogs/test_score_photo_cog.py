"""/score photo: a photo of the score display with a score (issue #13), and the
season's yes/no setting `photo_required`."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.services import scores, setup
from bot.services.errors import BadInput
from cogs.scores import Scores
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, card_text, click, invoke
from tests.cogs.league_play import snapshot
from tests.cogs.test_scores_cog import TONIGHT, locked

COG = Scores()
URL = "https://cdn.discordapp.com/attachments/1/2/display.jpg"


def attachment(**changes: Any) -> discord.Attachment:
    """A real discord.py Attachment, from the payload Discord sends in `resolved`."""
    data = {"id": "123", "filename": "display.jpg", "size": 2_000_000, "url": URL,
            "proxy_url": URL, "content_type": "image/jpeg", "width": 1200,
            "height": 900}  # fmt: skip
    data.update(changes)
    state = type("State", (), {"http": None})()  # the HTTP client is only used to download
    return discord.Attachment(data=data, state=state)  # type: ignore[arg-type]


async def test_a_photo_is_stored_with_the_score_and_shown_on_its_approval_post(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT),
                        game=1, score="850M", photo=attachment())  # fmt: skip
    assert f"Photo: {URL}" in said.text
    assert [v.score.photo_url for v in await scores.pending(bot.db, GUILD)] == [URL]
    # on the group's card, as a link the commissioner opens
    assert f"P1 850,000,000 ⏳ [photo]({URL})" in card_text(bot.channels[APPROVALS].sent[-1])


async def test_a_score_without_a_photo_shows_no_photo_line(league: FakeBot) -> None:
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="850M")
    assert "photo" not in card_text(bot.channels[APPROVALS].sent[-1])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"content_type": "application/pdf", "filename": "x.pdf"}, "must be an image"),
        ({"content_type": None}, "must be an image"),
        ({"size": 30 * 1024 * 1024}, "at most 10 MB"),
    ],
)
async def test_a_photo_that_is_not_an_image_or_too_big_is_refused_and_nothing_stored(
    league: FakeBot, changes: dict[str, Any], message: str
) -> None:
    bot = await locked(league)
    before = await snapshot(bot)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT),
                        game=1, score="850M", photo=attachment(**changes))  # fmt: skip
    assert message in said.text and all(r.ephemeral for r in said.replies)
    assert await snapshot(bot) == before


async def test_photo_required_refuses_a_score_without_a_photo(league: FakeBot) -> None:
    bot = await locked(league)
    changed = await setup.change_setting(bot.db, GUILD, "photo_required", "yes")
    assert changed.shown == "yes"
    before = await snapshot(bot)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="850M")
    assert "photo of the score display" in said.text and "/score photo:" in said.text
    assert await snapshot(bot) == before
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT),
                        game=1, score="850M", photo=attachment())  # fmt: skip
    assert "Submitted" in said.text
    assert (await setup.change_setting(bot.db, GUILD, "photo_required", "no")).shown == "no"


async def test_photo_required_takes_only_yes_or_no(league: FakeBot) -> None:
    with pytest.raises(BadInput, match="photo_required is yes or no"):
        await setup.change_setting(league.db, GUILD, "photo_required", "maybe")


async def test_the_photo_stays_on_the_card_once_approved(league: FakeBot) -> None:
    bot = await locked(league)
    for n, player in enumerate(PLAYERS[k] for k in (1, 2, 3)):  # the whole group's game 1
        photo = attachment() if n == 0 else None
        await invoke(COG.score, COG, as_user(bot, player, TONIGHT),
                     game=1, score=f"{n + 1}M", photo=photo)  # fmt: skip
    [card] = bot.channels[APPROVALS].sent
    said = await click(card.button("Approve one game…"),
                       as_user(bot, COMMISSIONER, TONIGHT, message=card), values=["1"])  # fmt: skip
    assert said.text.startswith("Approved 3 scores")
    assert f"P1 1,000,000 ✓ [photo]({URL})" in card_text(card)
