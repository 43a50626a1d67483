"""An approval post of one score made before the scorecards, decided on its own
buttons: the click's answer words the post, and the outbox does not edit it
again (R12)."""

from __future__ import annotations

from tests.cogs.conftest import COMMISSIONER, as_user
from tests.cogs.fakes import FakeBot, click
from tests.cogs.test_outbox_cog import TONIGHT
from tests.cogs.test_posts_before_cards import HEAD, old_post


async def test_r12_an_old_posts_own_button_is_answered_once_in_the_commissioners_name(
    league: FakeBot,
) -> None:
    bot = league
    posted = await old_post(bot)
    clicked = await click(posted.button("Approve"), as_user(bot, COMMISSIONER, TONIGHT))
    assert clicked.edited == [HEAD + "Approved by Koi."]
    await bot.outbox.flush()
    assert posted.edits == 0  # no second edit, worded by the outbox with a mention
