"""The sender: delivers what the outbox owes (bot/services/outbox.py).

One asyncio task, started with the bot and stopped when it closes. Items go
out in lanes, one item at a time per lane, and lanes do not wait for each
other (`services.outbox.lane`): a destination's posts (a channel, a member's
DMs, the commissioners' DMs) share one lane, in the order they were owed; each
message's edits (a scorecard's) have their own lane, in the order owed and
only once the message is posted. So a new card is not held behind other cards'
edits, nor one card's edits behind another's. discord.py keeps within
Discord's rate limits (it waits out a bucket, retries a 429 itself;
`bot.delivery.buckets` keeps posts and edits on limiters of their own, as
Discord counts them); what it gives up on comes here:

- 429, 5xx or no connection: tried again later, with exponential backoff
  (capped) and never before Discord's Retry-After, first of its lane still;
- 403 or 404 (refused for good), or an error of the bot's own: kept as failed,
  the commissioner alerted in the same transaction (`services.outbox.fail`);
  `/league admin resend` owes it again once the channel is fixed;
- sent: its message id is recorded.

Every message is sent with the item's nonce (and discord.py asks Discord to
enforce it), so if the bot stops after a request but before recording it, the
retry at the next start gets the earlier message back instead of a second one.
A long post goes out in pieces, each recorded once sent (a retry starts after
the last). Files go on the last piece, drawn afresh at every try."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.database_errors import DatabaseMovedError
from bot.delivery import destinations, refusals, threads
from bot.delivery.buckets import keep_edits_apart
from bot.delivery.destinations import Refused
from bot.delivery.outgoing import Outgoing
from bot.delivery.words import words
from bot.models import OutboxItem
from bot.outbox_kinds import BOARD, CARD, MATCH_CARD, Kind, ref_id
from bot.services import attendance_board, bracket_cards, outbox
from bot.services.group_threads import THREAD_KINDS
from cogs.scorecards import scorecards

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
RETRY_FIRST = 2.0  # seconds before the first retry; doubled each time
RETRY_CAP = 300.0  # at most this long between tries
# Refusals of a DM that a mention in the announcements channel gets round:
# 50007 (DMs closed, or no shared server), 50001 / 50013 on the DM.
DM_REFUSED = (50007, 50001, 50013)
UNKNOWN_CHANNEL = 10003  # Discord's code: the channel is gone, not one message
POLL = 60.0  # look at the outbox at least this often (a wake-up is the usual trigger)


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Sender:
    def __init__(
        self,
        bot: LeagueClient,
        *,
        clock: Clock = _utc_now,
        retry_first: float = RETRY_FIRST,
        retry_cap: float = RETRY_CAP,
        poll: float = POLL,
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.retry_first = retry_first
        self.retry_cap = retry_cap
        self.poll = poll
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._busy: dict[str, asyncio.Task[None]] = {}  # lane -> its delivery

    # --- running -----------------------------------------------------------------------

    def start(self) -> None:
        """Start on the running loop: resume what was not delivered, then keep going."""
        if self._task is None:
            if isinstance(http := getattr(self.bot, "http", None), discord.http.HTTPClient):
                keep_edits_apart(http)
            self._task = asyncio.create_task(self._run(), name="outbox-sender")

    def wake(self) -> None:
        """Something was owed: look now rather than at the next poll."""
        self._wake.set()

    async def stop(self) -> None:
        """Stop sending. An item cut off mid-send stays 'sending' and is resumed,
        with the same nonce, at the next start."""
        tasks = [t for t in [self._task, *self._busy.values()] if t is not None]
        self._task = None
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._busy.clear()

    async def _run(self) -> None:
        try:
            await self._deliver_forever()
        except DatabaseMovedError:
            # The outbox lives in that file: nothing owed can be read or recorded any
            # more. The database layer has logged it and told the commissioner.
            log.error("the outbox sender stops: the league's database file was moved")
        except Exception:
            log.exception("the outbox sender stopped: nothing more is sent until a restart")
            raise

    async def _deliver_forever(self) -> None:
        recovered = await outbox.recover(self.bot.db, now=self.clock())
        if recovered:
            log.warning("resuming %d post(s) cut off mid-send (same nonce)", recovered)
        while True:
            self._wake.clear()
            try:
                delay = await self._round(background=True)
            except DatabaseMovedError:
                raise
            except Exception:
                log.exception("the outbox sender failed a round; trying again")
                delay = self.retry_cap
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for drops a
            # cancellation (stop()) that comes as a wake-up does, and stop() hangs.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()

    async def _round(self, *, background: bool) -> float:
        """Start (or, not in the background, make) the delivery of each lane's
        first item that is due; return how long until one is due."""
        now = self.clock()
        delay = self.poll
        for head in await outbox.heads(self.bot.db):
            lane = outbox.lane(head)
            if lane in self._busy:
                continue
            wait = self._wait(head, now)
            if wait > 0:
                delay = min(delay, wait)
            elif background:
                task = asyncio.create_task(self._deliver(head), name=f"outbox-{lane}")
                self._busy[lane] = task
                task.add_done_callback(functools.partial(self._done, lane))
            else:
                await self._deliver(head)
                delay = 0
        return delay

    def _done(self, lane: str, _task: object = None) -> None:
        self._busy.pop(lane, None)
        self._wake.set()

    def _wait(self, item: OutboxItem, now: datetime) -> float:
        if item.next_attempt_at is None:
            return 0.0
        due = datetime.fromisoformat(item.next_attempt_at)
        return max(0.0, (due - now).total_seconds())

    async def flush(self, *, limit: int = 1000) -> None:
        """Deliver, here and now, everything due (tests and fakes with no running sender)."""
        for _ in range(limit):
            try:
                if await self._round(background=False) != 0:
                    return
            except DatabaseMovedError:
                return  # as `_run`: the outbox went with the file; already reported

    async def settled(self) -> None:
        """Wait until nothing owed is due now (the demo and the e2e tests read the
        channels after this; wrap it in `asyncio.timeout`)."""
        if self._task is None:
            await self.flush()
            return
        while self._busy or await outbox.due_now(self.bot.db, self.clock()):
            self.wake()
            await asyncio.sleep(0.01)

    # --- one item ----------------------------------------------------------------------

    async def _deliver(self, head: OutboxItem) -> None:
        db = self.bot.db
        item = await outbox.claim(db, head.id)
        if item is None:
            return
        try:
            outgoing = await words(self.bot, item)
        except Exception as error:
            log.exception("could not word outbox item %d (%s %s)", item.id, item.kind, item.ref)
            await self._failed(item, f"could not be worded: {type(error).__name__}: {error}")
            return
        if not outgoing.pieces:
            await outbox.drop(db, item.id, outgoing.why_not, now=self.clock())
            log.info("outbox item %d (%s %s) dropped: %s", item.id, item.kind, item.ref,
                     outgoing.why_not)  # fmt: skip
            return
        channel = item.target in (outbox.ANNOUNCEMENTS, outbox.APPROVALS)
        # A post with files may be refused for Attach Files alone: the channel's
        # other posts may still go, so only they are not failed with it.
        plain = channel and not outgoing.files
        try:
            message_id = await self._send(item, outgoing)
        except discord.Forbidden as error:
            if item.kind == Kind.REMINDER and error.code in DM_REFUSED:  # never a public ping
                await outbox.drop(self.bot.db, item.id, "their DMs are closed", now=self.clock())
            elif item.kind in THREAD_KINDS:  # the status says what it lacks
                await outbox.drop(self.bot.db, item.id, refusals.why(error), now=self.clock())
            elif item.target.startswith("dm:") and error.code in DM_REFUSED:
                await self._instead_in_announcements(item, outgoing, error)
            else:
                await self._failed(item, refusals.why(error), channel_wide=plain)
        except (discord.NotFound, Refused, threads.NoThread) as error:
            if item.kind in THREAD_KINDS:  # a thread deleted, or never made: nothing to do
                await outbox.drop(self.bot.db, item.id, refusals.why(error), now=self.clock())
                return
            if outgoing.edit_of is not None and isinstance(error, discord.NotFound):
                await self._gone(item)
                return
            gone = channel and getattr(error, "code", None) == UNKNOWN_CHANNEL
            await self._failed(item, refusals.why(error), channel_wide=gone)
        except discord.HTTPException as error:
            if error.status == 429 or error.status >= 500:
                await self._later(item, error)
            elif item.kind in THREAD_KINDS:  # e.g. a thread locked by a moderator
                await outbox.drop(self.bot.db, item.id, refusals.why(error), now=self.clock())
            else:  # 400 and the like: sending it again would be refused again
                await self._failed(item, refusals.why(error))
        except (aiohttp.ClientError, OSError, TimeoutError, discord.RateLimited) as error:
            await self._later(item, error)
        except DatabaseMovedError:
            raise  # the outbox went with the file: the sender stops (`_run`)
        except Exception as error:  # a fault of ours: tried again, it would fail again
            log.exception("could not send outbox item %d (%s %s)", item.id, item.kind, item.ref)
            await self._failed(item, f"could not be sent: {type(error).__name__}: {error}")
        else:
            await outbox.sent(db, item, message_id, now=self.clock(), told=outgoing.told)
            log.debug("outbox item %d (%s %s) sent", item.id, item.kind, item.ref)
            if item.kind == Kind.POST and item.ref.startswith("groupings:"):  # linked to
                self.bot.night_events.soon(item.guild_id)  # from the night's event

    async def _gone(self, item: OutboxItem) -> None:
        """The message to edit was deleted. A card with scores waiting, or a
        bracket match's card while its match is open, is posted again; any other
        edit has nothing left to do."""
        now = self.clock()
        card_id = ref_id(item.ref, CARD)
        match_card_id = ref_id(item.ref, MATCH_CARD)
        board_id = ref_id(item.ref, BOARD)
        if board_id is not None:
            if await attendance_board.message_gone(self.bot.db, item, board_id, now=now):
                log.warning("the attendance board %s was deleted: posted again", item.ref)
        elif match_card_id is not None:
            if await bracket_cards.message_gone(self.bot.db, item, match_card_id, now=now):
                log.warning("the match card %s was deleted while its match is open: posted "
                            "again", item.ref)  # fmt: skip
        elif card_id is None:
            await outbox.drop(self.bot.db, item.id, "the message to edit is gone", now=now)
        elif await scorecards.message_gone(self.bot.db, item, card_id, now=now):  # drops the edit
            log.warning("the approval card %s was deleted with scores waiting: posted again",
                        item.ref)  # fmt: skip

    async def _instead_in_announcements(
        self, item: OutboxItem, outgoing: Outgoing, error: discord.Forbidden
    ) -> None:
        """A player's DM refused (their DMs are closed): a short mention line in the
        announcements channel instead, the first line of the same words. Recorded
        as sent that way; if that is refused too, the item fails as any other."""
        user_id = int(item.target[3:])
        first_line = outgoing.pieces[0].split("\n", 1)[0]
        text = f"<@{user_id}> {first_line}"[:2000]
        mention = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user_id)], replied_user=False
        )
        channel = await destinations.channel(self.bot, item.guild_id, outbox.ANNOUNCEMENTS)
        dm = refusals.why(error)
        try:
            message = await channel.send(text, nonce=f"{item.nonce}.a", allowed_mentions=mention)
        except (discord.Forbidden, discord.NotFound) as refused:
            await self._failed(item, f"DM: {dm}; announcements: {refusals.why(refused)}")
            return
        await outbox.sent_instead(self.bot.db, item, message.id, dm, now=self.clock())
        log.info("outbox item %d (%s) DM refused (%s): mentioned in announcements",
                 item.id, item.kind, dm)  # fmt: skip

    async def _failed(self, item: OutboxItem, why: str, *, channel_wide: bool = False) -> None:
        alert = await outbox.fail(
            self.bot.db, item, why, now=self.clock(), channel_wide=channel_wide
        )
        if alert is None:
            log.error("outbox item %d (%s to %s) refused, and no one is left to tell: %s",
                      item.id, item.kind, item.target, why)  # fmt: skip
        else:
            log.warning("outbox item %d (%s to %s) refused: %s; alert to %s",
                        item.id, item.kind, item.target, why, alert)  # fmt: skip
        self.wake()

    async def _later(self, item: OutboxItem, error: BaseException) -> None:
        """Again after a backoff that doubles with each try (from `retry_first`, at
        most `retry_cap`), and never before Discord's Retry-After."""
        wait = min(self.retry_cap, self.retry_first * 2 ** max(0, item.attempts - 1))
        wait = max(wait, refusals.retry_after(error))
        when = self.clock() + timedelta(seconds=wait)
        await outbox.retry_later(self.bot.db, item.id, when, refusals.why(error), now=self.clock())
        log.warning("outbox item %d (%s to %s) not sent (%s); again in %.0f s",
                    item.id, item.kind, item.target, refusals.why(error), wait)  # fmt: skip

    async def _send(self, item: OutboxItem, outgoing: Outgoing) -> int | None:
        """Send (or edit); the first message's id."""
        if outgoing.edit_of is not None:
            channel = await destinations.channel(self.bot, item.guild_id, item.target)
            message = channel.get_partial_message(outgoing.edit_of)
            if outgoing.embeds:
                await message.edit(content=None, embeds=outgoing.embeds[0], view=outgoing.view)
            else:
                await message.edit(content=outgoing.pieces[0], view=outgoing.view)
            return outgoing.edit_of
        if item.kind in THREAD_KINDS:  # a group's thread, made by its first item
            places = [await threads.destination(self.bot, item, outgoing)]
        else:
            places = await destinations.destinations(self.bot, item.guild_id, item.target)
        plan = [(d, n) for d in places for n in range(len(outgoing.pieces))]
        first: int | None = item.message_id
        refused: discord.HTTPException | None = None
        for index, (destination, number) in enumerate(plan):
            if index < item.pieces_sent:
                continue  # sent before a stop; recorded
            last = number == len(outgoing.pieces) - 1
            extra: dict[str, Any] = {}
            if last and outgoing.view is not None:
                extra["view"] = outgoing.view
            if last and outgoing.files:
                extra["files"] = [discord.File(io.BytesIO(data), name)
                                  for name, data in outgoing.files]  # fmt: skip
            if outgoing.mentions is not None:
                extra["allowed_mentions"] = outgoing.mentions
            if outgoing.embeds:
                extra["embeds"] = outgoing.embeds[number]
            try:
                message = await destination.send(
                    outgoing.pieces[number] or None, nonce=f"{item.nonce}.{index}", **extra
                )
            except (discord.Forbidden, discord.NotFound) as error:
                if len(places) == 1:
                    raise
                refused = error  # one commissioner's DMs are closed: tell the others
                continue
            first = first if first is not None else message.id
            await outbox.piece_sent(self.bot.db, item.id, index + 1, message.id)
        if first is None and refused is not None:
            raise refused
        return first

    async def commissioners(self, guild_id: int) -> list[int]:
        """Who gets a server's commissioners' DMs (`destinations.commissioners`)."""
        return await destinations.commissioners(self.bot, guild_id)
