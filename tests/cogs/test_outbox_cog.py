"""The outbox through the cogs: what a player or the commissioner sees when
Discord refuses, fails or is slow, over a real SQLite file and the real sender
(bot/delivery), with channels that raise discord.py's own exceptions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.delivery import Sender
from bot.delivery.words import words
from bot.migrate import load_migrations
from bot.services import announcements, approvals, outbox
from cogs.commissioner import Commissioner
from cogs.scores.scores_cog import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import (
    ANNOUNCEMENTS,
    APPROVALS,
    GUILD,
    FakeBot,
    FakeChannel,
    card_text,
    click,
    invoke,
)
from tests.cogs.league_play import lock

TONIGHT = at(FIRST_NIGHT, "20:00")
LATEST = load_migrations()[-1].version  # the newest migration's number
SCORES, LEAGUE = Scores(), Commissioner()
COMMANDS = {
    command.qualified_name.removeprefix("league "): command
    for command in LEAGUE.walk_app_commands()
    if isinstance(command, app_commands.Command)
}


async def league_command(bot: FakeBot, name: str, **options: Any) -> str:
    said = await invoke(COMMANDS[name], LEAGUE, as_user(bot, COMMISSIONER, TONIGHT), **options)
    return said.text


async def score(bot: FakeBot, player: int, game: int, value: str) -> str:
    said = await invoke(SCORES.score, SCORES, as_user(bot, PLAYERS[player], TONIGHT),
                        game=game, score=value)  # fmt: skip
    return said.text


class Response:
    """What discord.py's exceptions read from an aiohttp response."""

    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = "Service Unavailable" if status >= 500 else "Too Many Requests"
        self.headers = headers or {}


class FlakyChannel(FakeChannel):
    """A channel whose next sends fail with the given HTTP statuses, as Discord
    answers when it is overloaded (5xx) or rate-limits the bot (429); a failure
    given as (status, "30") carries Retry-After: 30, and an exception is raised
    as it is."""

    def __init__(self, channel_id: int, failures: list[Any]) -> None:
        super().__init__(channel_id)
        self.failures = failures
        self.tries = 0

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.tries += 1
        if self.failures:
            failure = self.failures.pop(0)
            if isinstance(failure, BaseException):
                raise failure
            status, retry_after = failure if isinstance(failure, tuple) else (failure, None)
            headers = {"Retry-After": retry_after} if retry_after is not None else {}
            error = discord.DiscordServerError if status >= 500 else discord.HTTPException
            raise error(Response(status, headers), "try again")
        return await super().send(content, **kwargs)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 8, 1, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_score_refused_by_the_approvals_channel_is_kept_and_resent(
    league: FakeBot,
) -> None:
    bot = league
    await lock(bot)
    bot.channels[APPROVALS].refuse = True  # the bot lost Send Messages there
    said = await score(bot, 1, 1, "300M")
    # The answer stays true: the post is owed in the same transaction as the score.
    assert said.startswith("Submitted:") and "Waiting for the commissioner." in said
    assert bot.channels[APPROVALS].sent == []
    status = await league_command(bot, "admin status")
    # the post, and the alert about it (the commissioners' DMs: no one known to the fake)
    assert "failed: 2" in status
    assert "- approval post to #approvals: the bot is not allowed to post there" in status
    # Resubmitting is refused as before (the score waits); fixing the channel and
    # resending brings the post, with working buttons.
    assert "already has a score on game 1 waiting" in await score(bot, 1, 1, "300M")
    bot.channels[APPROVALS].refuse = False
    assert (await league_command(bot, "admin resend")).startswith("1 failed post will be sent")
    [posted] = bot.channels[APPROVALS].sent
    assert "P1 300,000,000 ⏳" in card_text(posted)
    clicked = await click(posted.button("Approve one game…"), as_user(bot, COMMISSIONER, TONIGHT),
                          ["1"])  # fmt: skip
    assert clicked.text == "Approved 1 score: Game 1 · Medieval Madness."
    view = await approvals.score_approval(bot.db, 1)
    assert view is not None and view.score is not None
    assert view.score.score.status == "approved" and "P1 300,000,000 ✓" in card_text(posted)


async def test_approve_all_brings_every_approval_message_up_to_date(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    for player in (1, 2, 3):  # group 1
        assert (await score(bot, player, 2, f"{player}00M")).startswith("Submitted:")
    [card] = bot.channels[APPROVALS].sent  # one card for the group
    assert card.view is not None
    assert await league_command(bot, "night approve-all", group="1") == (
        "Approved 3 score(s) of group 1."
    )
    # no live buttons left on a card with nothing waiting; edited, not posted again
    assert card.view is None and len(bot.channels[APPROVALS].sent) == 1
    assert all(f"P{p} {p}00,000,000 ✓" in card_text(card) for p in (1, 2, 3))


async def test_a_correction_of_a_waiting_score_updates_its_approval_message(
    league: FakeBot,
) -> None:
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "4.0M")
    [posted] = bot.channels[APPROVALS].sent
    text = await league_command(bot, "score change", kind="correction", week=1, player="P1",
                                game=1, reason="typo", score="40M")  # fmt: skip
    assert text == "P1, week 1 game 1: 4,000,000 → 40,000,000 (correction)."
    # the card shows the corrected score, approved; nothing waits, so no buttons
    assert posted.view is None and "P1 40,000,000 ✓" in card_text(posted)


async def test_an_edit_of_a_deleted_card_with_nothing_waiting_is_dropped(league: FakeBot) -> None:
    """A moderator deleted a card whose scores were all decided; a later
    correction owes its edit, which finds the message gone: the edit is dropped,
    the card is not posted again (nothing waits on it), and nothing is left
    owed or failed for the commissioner to see."""
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "4.0M")
    assert await league_command(bot, "night approve-all", group="1") == (
        "Approved 1 score(s) of group 1."
    )
    [card] = bot.channels[APPROVALS].sent
    card.deleted = True
    text = await league_command(bot, "score change", kind="correction", week=1, player="P1",
                                game=1, reason="typo", score="40M")  # fmt: skip
    assert text == "P1, week 1 game 1: 4,000,000 → 40,000,000 (correction)."
    assert bot.channels[APPROVALS].sent == [card]  # not posted again
    report = await outbox.status(bot.db, GUILD)
    assert (report.waiting, report.failed) == ([], [])
    status = await league_command(bot, "admin status")
    assert "Posts waiting: 0 · failed: 0" in status


async def test_a_server_error_or_rate_limit_is_retried_later_in_order(league: FakeBot) -> None:
    bot = league
    clock = Clock()
    flaky = FlakyChannel(ANNOUNCEMENTS, [503, 429])
    bot.channels[ANNOUNCEMENTS] = flaky
    bot.outbox = Sender(bot, clock=clock)  # type: ignore[arg-type]
    for key in ("first", "second"):
        assert await announcements.enqueue(bot.db, GUILD, key, f"{key} post", now=TONIGHT)
    await bot.outbox.flush()
    assert flaky.sent == [] and flaky.tries == 1  # 503: the second waits behind the first
    clock.now += timedelta(seconds=1)
    await bot.outbox.flush()
    assert flaky.tries == 1  # backing off: not tried again yet
    clock.now += timedelta(seconds=2)
    await bot.outbox.flush()
    assert flaky.sent == [] and flaky.tries == 2  # 429 this time: backing off longer
    clock.now += timedelta(seconds=3)
    await bot.outbox.flush()
    assert flaky.tries == 2
    clock.now += timedelta(seconds=2)
    await bot.outbox.flush()
    assert [m.content for m in flaky.sent] == ["first post", "second post"]
    report = await outbox.status(bot.db, GUILD)
    assert report.waiting == [] and report.failed == [] and report.delivered == 2


async def tries_at(
    bot: FakeBot, clock: Clock, flaky: FlakyChannel, waits: list[float]
) -> list[float]:
    """Step the clock a tenth of a second at a time over `waits` in all, flushing
    the sender at each step: the seconds (from the first try) of every try."""
    started, tries, seen = clock.now, [0.0], flaky.tries
    for _ in range(int(sum(waits) * 10) + 1):
        clock.now += timedelta(seconds=0.1)
        await bot.outbox.flush()
        if flaky.tries > seen:
            seen = flaky.tries
            tries.append(round((clock.now - started).total_seconds(), 1))
    return tries


async def test_the_backoff_doubles_from_its_first_wait_up_to_its_cap(league: FakeBot) -> None:
    """Five 503s in a row: tried again 2, 4, 8, then 10 and 10 s later (the cap
    here), never sooner, and then posted once."""
    bot, clock = league, Clock()
    flaky = FlakyChannel(ANNOUNCEMENTS, [503] * 5)
    bot.channels[ANNOUNCEMENTS] = flaky
    bot.outbox = Sender(bot, clock=clock, retry_first=2.0, retry_cap=10.0)  # type: ignore[arg-type]
    assert await announcements.enqueue(bot.db, GUILD, "news", "the news", now=TONIGHT)
    await bot.outbox.flush()
    assert flaky.tries == 1
    tries = await tries_at(bot, clock, flaky, [2, 4, 8, 10, 10])
    assert tries == [0.0, 2.0, 6.0, 14.0, 24.0, 34.0]
    assert [m.content for m in flaky.sent] == ["the news"]
    report = await outbox.status(bot.db, GUILD)
    assert (report.waiting, report.failed, report.delivered) == ([], [], 1)


async def test_a_429s_retry_after_is_waited_out_when_longer_than_the_backoff(
    league: FakeBot,
) -> None:
    """Discord said how long to wait (Retry-After: 7, after discord.py gave up on
    the 429): the backoff's 2 s would be too soon, so the next try is 7 s later;
    a Retry-After shorter than the backoff (1 s) leaves the backoff's 4 s."""
    bot, clock = league, Clock()
    flaky = FlakyChannel(ANNOUNCEMENTS, [(429, "7"), (429, "1")])
    bot.channels[ANNOUNCEMENTS] = flaky
    bot.outbox = Sender(bot, clock=clock, retry_first=2.0, retry_cap=300.0)  # type: ignore[arg-type]
    assert await announcements.enqueue(bot.db, GUILD, "news", "the news", now=TONIGHT)
    await bot.outbox.flush()
    assert await tries_at(bot, clock, flaky, [7, 4]) == [0.0, 7.0, 11.0]
    assert [m.content for m in flaky.sent] == ["the news"]


@pytest.mark.parametrize(
    ("retry_after", "next_try"),
    [
        ("0.5", 0.5),  # longer than this sender's backoff (0.1 s): waited out
        ("0", 0.1),  # nothing to wait for: the backoff
        ("-5", 0.1),  # nonsense: the backoff
        ("soon", 0.1),
        ("nan", 0.1),
        ("inf", 86_400.0),  # at most a day
        ("100000", 86_400.0),
    ],
)
async def test_what_a_retry_after_header_makes_the_outbox_wait(
    league: FakeBot, retry_after: str, next_try: float
) -> None:
    bot, clock = league, Clock()
    flaky = FlakyChannel(ANNOUNCEMENTS, [(429, retry_after)])
    bot.channels[ANNOUNCEMENTS] = flaky
    bot.outbox = Sender(bot, clock=clock, retry_first=0.1)  # type: ignore[arg-type]
    assert await announcements.enqueue(bot.db, GUILD, "news", "the news", now=TONIGHT)
    await bot.outbox.flush()
    [waiting] = (await outbox.status(bot.db, GUILD)).waiting
    assert waiting.next_attempt_at is not None
    due = datetime.fromisoformat(waiting.next_attempt_at) - clock.now
    assert due == timedelta(seconds=next_try)
    assert flaky.tries == 1 and flaky.sent == []


async def test_a_rate_limit_discordpy_would_not_wait_for_is_retried_after_it(
    league: FakeBot,
) -> None:
    """discord.RateLimited (a 429 longer than discord.py was told to wait) is not
    an HTTPException: the outbox still backs off for its retry_after, and the
    post is not lost or failed."""
    bot, clock = league, Clock()
    flaky = FlakyChannel(ANNOUNCEMENTS, [discord.RateLimited(5.0)])
    bot.channels[ANNOUNCEMENTS] = flaky
    bot.outbox = Sender(bot, clock=clock, retry_first=2.0)  # type: ignore[arg-type]
    assert await announcements.enqueue(bot.db, GUILD, "news", "the news", now=TONIGHT)
    await bot.outbox.flush()
    assert await tries_at(bot, clock, flaky, [5]) == [0.0, 5.0]
    assert [m.content for m in flaky.sent] == ["the news"]


async def test_a_send_cut_off_by_a_crash_is_not_posted_twice(league: FakeBot) -> None:
    """The bot stopped after Discord took a request but before the outbox recorded
    it. At the next start the item is sent again with the same nonce, and Discord
    (here the fake channel, which honours `enforce_nonce` as Discord does) returns
    the earlier message instead of posting a second one. A long post's pieces
    already recorded are not sent again at all."""
    bot = league
    channel = bot.channels[ANNOUNCEMENTS]
    text = "\n".join(f"line {n} " + "x" * 90 for n in range(60))  # three messages
    assert await announcements.enqueue(bot.db, GUILD, "long", text, now=TONIGHT)
    [head] = await outbox.heads(bot.db)
    claimed = await outbox.claim(bot.db, head.id)
    assert claimed is not None
    pieces = (await words(bot, claimed)).pieces  # type: ignore[arg-type]
    assert len(pieces) == 3
    first = await channel.send(pieces[0], nonce=f"{claimed.nonce}.0")
    await outbox.piece_sent(bot.db, claimed.id, 1, first.id)  # recorded
    await channel.send(pieces[1], nonce=f"{claimed.nonce}.1")  # the crash: not recorded
    # The next start: the item left 'sending' is resumed by a new sender.
    restarted = Sender(bot)  # type: ignore[arg-type]
    assert await outbox.recover(bot.db, now=TONIGHT) == 1
    await restarted.flush()
    assert [m.content for m in channel.sent] == pieces
    done = await outbox.item(bot.db, claimed.id)
    assert done is not None and done.status == "sent" and done.message_id == first.id


async def test_status_shows_the_bot_its_database_and_the_outbox(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    bot.channels[APPROVALS].refuse = True
    await score(bot, 1, 1, "300M")
    text = await league_command(bot, "admin status")
    lines = text.split("\n")
    assert lines[0].startswith("**League bot ")
    latest = load_migrations()[-1].version  # never a hard-coded number: files are added
    assert lines[1] == f"Database: {bot.settings.database_path.name} (schema version {latest})"
    # the approval post failed; its alert (to the commissioners' DMs) found no one
    assert lines[2].startswith("Posts waiting: 0 · failed: 2 · sent: 0")
    assert "- none scheduled" in lines
    assert lines[-2:] == ["- announcements: not checked yet", "- approvals: not checked yet"]
