"""The outbox's sender as the bot runs it (started with the bot, stopped when it
closes), at its edges: a post cut off by a stop goes at the next start, a stop
ends every delivery before the bot closes its database, a card posted just
before a crash stays the card, and a fault of the bot's own while sending fails
that post, with an alert, instead of trying it again without end."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.delivery import Sender
from bot.services import announcements, outbox
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, GUILD, FakeBot, FakeChannel, card_text
from tests.cogs.league_play import lock
from tests.cogs.test_outbox_cog import TONIGHT, league_command, score
from tests.cogs.test_sender_edges import status_lines

WITHIN = 10.0  # seconds: a bounded wait for what the sender does at once


class Held(FakeChannel):
    """A channel whose first send waits until the test lets it go (Discord slow to
    answer), saying when the send began and whether it was cut off."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id)
        self.began, self.release = asyncio.Event(), asyncio.Event()
        self.cut_off = False

    async def send(self, content: str | None, **kwargs: Any) -> Any:
        self.began.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cut_off = True
            raise
        return await super().send(content, **kwargs)


class Faulty(FakeChannel):
    """A channel whose sends fail with an error that is no refusal of Discord's."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id)
        self.tries = 0

    async def send(self, content: str | None, **kwargs: Any) -> Any:
        self.tries += 1
        if content == "bad post":
            raise TypeError("a bug of the bot's own")
        return await super().send(content, **kwargs)


@contextlib.asynccontextmanager
async def started(sender: Sender) -> AsyncIterator[Sender]:
    """`sender` running as the bot runs it, stopped after."""
    sender.start()
    try:
        yield sender
    finally:
        await sender.stop()


async def until(condition: Any) -> None:
    """Wait (a bounded time) until `condition()` is true."""
    async with asyncio.timeout(WITHIN):
        while not await condition():  # noqa: ASYNC110 (the database: nothing to await)
            await asyncio.sleep(0.01)


async def test_a_stop_ends_every_delivery_before_the_bot_closes(league: FakeBot) -> None:
    """The bot closes while a post is on its way: the sender's stop cuts the send
    off and returns only once it has ended (so nothing writes to the database
    after the bot closes it); the post stays owed and goes at the next start,
    once, with the same nonce."""
    bot = league
    bot.channels[ANNOUNCEMENTS] = held = Held(ANNOUNCEMENTS)
    assert await announcements.enqueue(bot.db, GUILD, "news", "news post", now=TONIGHT)
    before = asyncio.all_tasks()
    sender = Sender(bot)  # type: ignore[arg-type]
    sender.start()
    async with asyncio.timeout(WITHIN):
        await held.began.wait()
    begun = asyncio.all_tasks() - before
    assert len(begun) == 2  # the sender, and the #announcements lane's delivery
    await sender.stop()
    assert held.cut_off
    assert all(task.done() for task in begun)
    [item] = (await outbox.status(bot.db, GUILD)).waiting
    assert item.status == "sending"  # cut off mid-send: resumed at the next start
    held.release.set()
    again = Sender(bot)  # type: ignore[arg-type]
    async with started(again):
        await until(lambda: _sent(bot, item.id))
    assert [m.content for m in held.sent] == ["news post"]
    assert [m.nonce for m in held.sent] == [f"{item.nonce}.0"]


async def test_a_post_cut_off_by_a_crash_goes_when_the_bot_starts_again(
    league: FakeBot,
) -> None:
    """The bot was killed mid-send: its post was left 'sending'. The sender the
    bot starts next resumes it by itself (the commissioner does nothing)."""
    bot = league
    assert await announcements.enqueue(bot.db, GUILD, "news", "news post", now=TONIGHT)
    [head] = await outbox.heads(bot.db)
    assert await outbox.claim(bot.db, head.id) is not None  # then the crash
    sender = Sender(bot)  # type: ignore[arg-type]
    async with started(sender):
        await until(lambda: _sent(bot, head.id))
    assert [m.content for m in bot.channels[ANNOUNCEMENTS].sent] == ["news post"]


async def test_a_round_that_fails_is_tried_again_after_the_longest_backoff(
    league: FakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sender's look at the outbox fails once (the database busy, say): it
    looks again after its longest backoff by itself, without waiting for a new
    post to wake it, and the post owed goes."""
    bot = league
    assert await announcements.enqueue(bot.db, GUILD, "news", "news post", now=TONIGHT)
    heads, failures = outbox.heads, []

    async def busy_once(*args: Any) -> Any:
        if not failures:
            failures.append("busy")
            raise OSError("database is busy")
        return await heads(*args)

    monkeypatch.setattr(outbox, "heads", busy_once)
    sender = Sender(bot, retry_cap=0.05)  # type: ignore[arg-type]
    async with started(sender):
        await until(lambda: _no_post_waits(bot))
    assert failures == ["busy"]
    assert [m.content for m in bot.channels[ANNOUNCEMENTS].sent] == ["news post"]


class Crash(BaseException):
    """The bot's process dies here (nothing of the bot catches it)."""


async def test_a_card_posted_just_before_a_crash_is_still_the_one_decisions_edit(
    league: FakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord posted a group's card and the outbox noted it, then the bot died
    before it marked the card sent. At the next start the card is not posted
    again, and it is still the message the commissioner's decisions edit."""
    bot = league
    await lock(bot)
    recorded = outbox.sent

    async def crash(*args: Any, **kwargs: Any) -> None:
        raise Crash

    monkeypatch.setattr(outbox, "sent", crash)
    with pytest.raises(Crash):
        await score(bot, 1, 1, "300M")  # owes the group's card, posted at once
    monkeypatch.setattr(outbox, "sent", recorded)
    [card] = bot.channels[APPROVALS].sent
    assert await outbox.recover(bot.db, now=TONIGHT) == 1
    bot.outbox = Sender(bot)  # type: ignore[arg-type]  # the next start
    await bot.outbox.flush()
    assert bot.channels[APPROVALS].sent == [card]  # not posted twice
    said = await league_command(bot, "night approve-all", group="1")
    assert said.startswith("Approved 1 score")
    assert "P1 300,000,000 ✓" in card_text(card)


async def test_a_fault_of_the_bots_own_while_sending_fails_that_post_with_an_alert(
    league: FakeBot,
) -> None:
    """Sending a post raises an error that is no refusal of Discord's (a bug): the
    post is kept as failed, tried once, not again and again; the status says
    why, the commissioner is alerted, and the next post for the channel goes."""
    bot = league
    bot.channels[ANNOUNCEMENTS] = faulty = Faulty(ANNOUNCEMENTS)
    for key, text in [("bad", "bad post"), ("next", "next post")]:
        assert await announcements.enqueue(bot.db, GUILD, key, text, now=TONIGHT)
    sender = Sender(bot)  # type: ignore[arg-type]
    async with started(sender):
        await until(lambda: _alerted(bot))
        await until(lambda: _no_post_waits(bot))
    assert faulty.tries == 2 and [m.content for m in faulty.sent] == ["next post"]
    assert (await status_lines(bot))[1:] == [
        "- post to #announcements: could not be sent: TypeError: a bug of the bot's own"
    ]
    [alert] = bot.channels[APPROVALS].sent
    assert "Discord refused 1 post" in alert.content


async def _sent(bot: FakeBot, item_id: int) -> bool:
    item = await outbox.item(bot.db, item_id)
    return item is not None and item.status == "sent"


async def _alerted(bot: FakeBot) -> bool:
    return bool(bot.channels[APPROVALS].sent)


async def _no_post_waits(bot: FakeBot) -> bool:
    return not (await outbox.status(bot.db, GUILD)).waiting
