"""More of the outbox's sender at its edges, as the league sees them: a post the
bot cannot word, a channel deleted under the bot, a 404 that is not the
channel's, a commissioner's DM refused once, and a 500 Discord gave up on."""

from __future__ import annotations

from typing import Any

import discord

from bot.delivery import Sender
from bot.repositories import commissioners
from bot.services import announcements, outbox
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, GUILD, FakeBot, FakeChannel
from tests.cogs.test_outbox_cog import TONIGHT, Clock, FlakyChannel, Response, tries_at
from tests.cogs.test_sender_edges import ClosedDMs, owe, status_lines

COMMISSIONER_ID = 555_000_000_000_000_009  # a commissioner the bot has recorded


class Refuses(FakeChannel):
    """A channel whose sends raise `error`: every time, or (`times`) the first ones."""

    def __init__(self, channel_id: int, error: Exception, times: int = 1_000) -> None:
        super().__init__(channel_id)
        self.error, self.times, self.tries = error, times, 0

    async def send(self, content: str | None, **kwargs: Any) -> Any:
        self.tries += 1
        if self.tries <= self.times:
            raise self.error
        return await super().send(content, **kwargs)


def not_found(code: int, message: str = "Unknown Channel") -> discord.NotFound:
    return discord.NotFound(Response(404), {"message": message, "code": code})


async def enqueue(bot: FakeBot, *keys: str) -> None:
    for key in keys:
        assert await announcements.enqueue(bot.db, GUILD, key, f"{key} post", now=TONIGHT)


async def test_a_post_that_cannot_be_worded_fails_saying_why_and_the_next_goes(
    league: FakeBot,
) -> None:
    """An item the bot cannot word (a kind an older version owed): it is kept as
    failed, the status says why, the commissioner is alerted, and the post owed
    after it to the same channel still goes."""
    bot = league
    async with bot.db.transaction() as conn:
        await outbox.owe(conn, GUILD, "announcements", "retired_kind", "old", {}, now=TONIGHT)
    await enqueue(bot, "next")
    await bot.outbox.flush()
    assert [m.content for m in bot.channels[ANNOUNCEMENTS].sent] == ["next post"]
    assert (await status_lines(bot))[1:] == [
        "- post to #announcements: could not be worded: "
        "ValueError: an outbox item of unknown kind 'retired_kind'"
    ]
    [alert] = bot.channels[APPROVALS].sent
    assert "Discord refused 1 post" in alert.content


async def test_a_deleted_channel_fails_its_waiting_posts_with_one_try(league: FakeBot) -> None:
    """#announcements deleted (404 Unknown Channel): the first post fails, the
    ones waiting for the channel fail with it untried, the commissioner hears of
    them in one alert, and the status says what happened to each."""
    bot = league
    bot.channels[ANNOUNCEMENTS] = gone = Refuses(ANNOUNCEMENTS, not_found(10003))
    await enqueue(bot, "first", "second")
    await bot.outbox.flush()
    assert gone.tries == 1 and gone.sent == []
    report = await outbox.status(bot.db, GUILD)
    assert [i.ref for i in report.failed] == ["first", "second"] and report.waiting == []
    assert (await status_lines(bot))[1:] == [
        "- post to #announcements: Discord cannot find the channel",
        "- post to #announcements: not tried, as the channel refused an earlier post",
    ]
    [alert] = bot.channels[APPROVALS].sent
    assert "Discord refused 2 posts" in alert.content


async def test_a_404_that_is_not_the_channels_fails_that_post_alone(league: FakeBot) -> None:
    """A 404 on one post that does not say the channel is unknown (no code, as a
    404 page in front of Discord gives): that post fails, the next one goes."""
    bot = league
    bot.channels[ANNOUNCEMENTS] = channel = Refuses(
        ANNOUNCEMENTS, discord.NotFound(Response(404), "404: Not Found"), times=1
    )
    await enqueue(bot, "first", "second")
    await bot.outbox.flush()
    assert [m.content for m in channel.sent] == ["second post"]
    report = await outbox.status(bot.db, GUILD)
    assert [i.ref for i in report.failed] == ["first"] and report.waiting == []


async def test_a_commissioners_dm_refused_once_does_not_fail_the_next(league: FakeBot) -> None:
    """A DM to the commissioners refused (403) fails alone: it is not a channel,
    so the next DM owed to them is still tried, and goes."""
    bot = league
    async with bot.db.transaction() as conn:
        await commissioners.record(conn, GUILD, COMMISSIONER_ID, outbox.moment(TONIGHT))
    refused = discord.Forbidden(
        Response(403), {"message": "Cannot send messages to this user", "code": 50007}
    )
    bot.dms[COMMISSIONER_ID] = dms = Refuses(COMMISSIONER_ID, refused, times=1)
    await owe(bot, "commissioners", "first", "first note")
    await owe(bot, "commissioners", "second", "second note")
    await bot.outbox.flush()
    assert [m.content for m in dms.sent] == ["second note"]
    report = await outbox.status(bot.db, GUILD)
    assert [i.ref for i in report.failed] == ["first"] and report.waiting == []


async def test_a_500_discordpy_gave_up_on_is_tried_again_later(league: FakeBot) -> None:
    """Discord's 500 Internal Server Error (discord.py retried it and gave up): the
    post waits for the backoff and goes then, once; nothing failed."""
    bot, clock = league, Clock()
    bot.channels[ANNOUNCEMENTS] = flaky = FlakyChannel(ANNOUNCEMENTS, [500])
    bot.outbox = Sender(bot, clock=clock, retry_first=2.0)  # type: ignore[arg-type]
    await enqueue(bot, "news")
    await bot.outbox.flush()
    assert await tries_at(bot, clock, flaky, [2]) == [0.0, 2.0]
    assert [m.content for m in flaky.sent] == ["news post"]
    report = await outbox.status(bot.db, GUILD)
    assert (report.waiting, report.failed, report.delivered) == ([], [], 1)


async def test_a_note_to_the_commissioners_one_of_them_refuses_is_delivered(
    league: FakeBot,
) -> None:
    """Two commissioners, one with closed DMs: the other gets the note, and the
    note counts as delivered (not failed, no alert about it)."""
    bot = league
    other = COMMISSIONER_ID + 1
    async with bot.db.transaction() as conn:
        for person in (COMMISSIONER_ID, other):
            await commissioners.record(conn, GUILD, person, outbox.moment(TONIGHT))
    bot.dms[COMMISSIONER_ID] = ClosedDMs(COMMISSIONER_ID)
    await owe(bot, "commissioners", "note", "a note")
    await bot.outbox.flush()
    assert [m.content for m in bot.dms[other].sent] == ["a note"]
    report = await outbox.status(bot.db, GUILD)
    assert (report.failed, report.waiting, report.delivered) == ([], [], 1)
    assert bot.channels[APPROVALS].sent == []
