"""The outbox's sender at its edges, over a real SQLite file and the fake
channels: a lost connection, a refusal of one post's content, refusals Discord
words oddly, a commissioners' DM with no one to send it to, and a player's
closed DMs (the mention in #announcements instead, refused too, or cut off by a
crash)."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from bot.delivery import Sender
from bot.services import announcements, outbox
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, GUILD, FakeBot, FakeChannel
from tests.cogs.league_play import lock
from tests.cogs.test_outbox_cog import (
    TONIGHT,
    Clock,
    FlakyChannel,
    Response,
    league_command,
    score,
    tries_at,
)

PLAYER = 555_000_000_000_000_001  # a member whose DMs are closed
REJECTED = "The commissioner rejected your score.\nReason: a blurry photo"


async def owe(bot: FakeBot, target: str, key: str, text: str) -> int:
    """A post of `text` owed to `target` ('announcements', 'dm:<id>', ...)."""
    async with bot.db.transaction() as conn:
        return await outbox.owe(conn, GUILD, target, "post", key, {"text": text}, now=TONIGHT)


async def status_lines(bot: FakeBot) -> list[str]:
    """/league admin status, its lines about the posts (up to the schedule)."""
    lines = (await league_command(bot, "admin status")).split("\n")
    return lines[2 : lines.index("Next scheduled posts:")]


class ClosedDMs(FakeChannel):
    """A member's DMs that refuse the bot, as Discord does: 403 50007."""

    async def send(self, content: str | None, **kwargs: Any) -> Any:
        raise discord.Forbidden(
            Response(403), {"message": "Cannot send messages to this user", "code": 50007}
        )


async def test_a_post_cut_off_by_a_lost_connection_is_tried_again_after_the_backoff(
    league: FakeBot,
) -> None:
    """No connection to Discord (aiohttp's error, or the socket's): the post waits
    for the backoff and goes then, once; nothing failed."""
    bot, clock = league, Clock()
    flaky = FlakyChannel(
        ANNOUNCEMENTS, [aiohttp.ClientConnectionError("Connection reset"), OSError("unreachable")]
    )
    bot.channels[ANNOUNCEMENTS] = flaky
    bot.outbox = Sender(bot, clock=clock, retry_first=2.0)  # type: ignore[arg-type]
    assert await announcements.enqueue(bot.db, GUILD, "news", "the news", now=TONIGHT)
    await bot.outbox.flush()
    assert await tries_at(bot, clock, flaky, [2, 4]) == [0.0, 2.0, 6.0]
    assert [m.content for m in flaky.sent] == ["the news"]
    report = await outbox.status(bot.db, GUILD)
    assert (report.waiting, report.failed, report.delivered) == ([], [], 1)


class RefusesFirst(FakeChannel):
    """A channel that refuses the first post's content (400), as Discord does a
    message it finds malformed, and takes the next ones."""

    def __init__(self, channel_id: int, status: int = 400, text: str = "Invalid Form Body") -> None:
        super().__init__(channel_id)
        self.status, self.text, self.refused = status, text, False

    async def send(self, content: str | None, **kwargs: Any) -> Any:
        if not self.refused:
            self.refused = True
            raise discord.HTTPException(Response(self.status), self.text)
        return await super().send(content, **kwargs)


async def test_a_post_whose_content_is_refused_fails_alone(league: FakeBot) -> None:
    """A 400 is about that post, not the channel: the next post for the same
    channel still goes, and the commissioner is told of the one refused."""
    bot = league
    bot.channels[ANNOUNCEMENTS] = channel = RefusesFirst(ANNOUNCEMENTS)
    for key in ("first", "second"):
        assert await announcements.enqueue(bot.db, GUILD, key, f"{key} post", now=TONIGHT)
    await bot.outbox.flush()
    assert [m.content for m in channel.sent] == ["second post"]
    report = await outbox.status(bot.db, GUILD)
    assert [i.ref for i in report.failed] == ["first"] and report.waiting == []
    assert (await status_lines(bot))[1:] == [
        "- post to #announcements: Discord refused its content"
    ]


async def test_a_refusal_with_no_words_is_shown_by_its_status_and_kind(league: FakeBot) -> None:
    """A 405 with an empty body (no message from Discord): the commissioner reads
    the status and discord.py's name for the refusal."""
    bot = league
    bot.channels[ANNOUNCEMENTS] = RefusesFirst(ANNOUNCEMENTS, 405, "")
    assert await announcements.enqueue(bot.db, GUILD, "news", "the news", now=TONIGHT)
    await bot.outbox.flush()
    assert (await status_lines(bot))[1:] == ["- post to #announcements: 405 HTTPException"]


async def test_a_long_refusal_is_shown_cut_to_300_characters(league: FakeBot) -> None:
    bot = league
    bot.channels[ANNOUNCEMENTS] = RefusesFirst(ANNOUNCEMENTS, 413, "x" * 400)
    assert await announcements.enqueue(bot.db, GUILD, "news", "the news", now=TONIGHT)
    await bot.outbox.flush()
    [line] = (await status_lines(bot))[1:]
    assert line == "- post to #announcements: 413 " + "x" * 296  # "413 " and 296: 300


async def test_a_dm_to_the_commissioners_with_none_known_fails_saying_why(
    league: FakeBot,
) -> None:
    """The approvals channel refuses the bot, so the alert goes to the
    commissioners' DMs; the bot knows no commissioner yet (no owner in its cache,
    no one recorded): the alert is kept as failed, and the status says why."""
    bot = league
    await lock(bot)
    bot.channels[APPROVALS].refuse = True
    await score(bot, 1, 1, "300M")
    assert (await status_lines(bot))[1:] == [
        "- approval post to #approvals: the bot is not allowed to post there",
        "- alert to the commissioner by DM: "
        "Refused: no member with the commissioner role is known to the bot",
    ]


async def test_a_closed_dm_refused_in_announcements_too_fails_saying_both(
    league: FakeBot,
) -> None:
    """The player's DMs are closed and the announcements channel refuses the bot:
    the notice is kept as failed, and the status tells both refusals."""
    bot = league
    bot.dms[PLAYER] = ClosedDMs(PLAYER)
    bot.channels[ANNOUNCEMENTS].refuse = True
    await owe(bot, f"dm:{PLAYER}", "rejected", REJECTED)
    await bot.outbox.flush()
    assert bot.channels[ANNOUNCEMENTS].sent == []
    report = await outbox.status(bot.db, GUILD)
    assert [i.target for i in report.failed] == [f"dm:{PLAYER}"] and report.waiting == []
    assert (await status_lines(bot))[1:] == [
        f"- post by DM to <@{PLAYER}>: DM: 403 Cannot send messages to this user; "
        "announcements: 403 Missing Permissions"
    ]


async def test_a_mention_cut_off_by_a_crash_is_not_posted_twice(league: FakeBot) -> None:
    """The bot stopped after Discord took the mention that stands in for a closed
    DM, before the outbox recorded it: at the next start the mention is sent again
    with the same nonce, and Discord hands back the first instead of a second."""
    bot = league
    bot.dms[PLAYER] = ClosedDMs(PLAYER)
    item_id = await owe(bot, f"dm:{PLAYER}", "rejected", REJECTED)
    claimed = await outbox.claim(bot.db, item_id)
    assert claimed is not None
    channel = bot.channels[ANNOUNCEMENTS]
    mention = f"<@{PLAYER}> The commissioner rejected your score."
    await channel.send(mention, nonce=f"{claimed.nonce}.a")  # the crash: not recorded
    assert await outbox.recover(bot.db, now=TONIGHT) == 1
    await Sender(bot).flush()  # type: ignore[arg-type]
    assert [m.content for m in channel.sent] == [mention]
    done = await outbox.item(bot.db, item_id)
    assert done is not None and done.status == "sent"
    assert done.message_id == channel.sent[0].id
