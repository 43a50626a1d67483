"""The outbox: every message the bot owes is written here, in the transaction
of the change that makes it owed, and delivered by one sender (`bot/delivery`).

Services call the `owe*` functions inside their own transactions; they never
word a message. An item names what it is about (`kind` and `ref`); the sender
words it when it is sent, from the state then, through `bot.ui`. The other
functions are the sender's and the commissioner's: one transaction each.

Where an item goes: 'announcements' and 'approvals' are the configured
channels, 'commissioners' a DM to each member with the commissioner role.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.database import Database
from bot.models import Night, OutboxItem
from bot.outbox_kinds import (
    BOARD,
    CARD,
    EDITS,
    MATCH_CARD,
    PHOTO,
    Kind,
    card_ref,
    match_card_ref,
    night_ref,
    ref_id,
)
from bot.repositories import cards, checkins, kept_photos, match_cards, nights, outbox_items, scores
from bot.services.context import night_of_week, season_of, stamp
from bot.services.errors import WrongState
from bot.services.outcomes.admin import DeliveryStatus, Resent

ANNOUNCEMENTS, APPROVALS, COMMISSIONERS = "announcements", "approvals", "commissioners"
INSTEAD = "sent instead as a mention in #announcements"


def moment(when: datetime) -> str:
    """A delivery time as stored: UTC, to the millisecond (backoff can be short)."""
    return when.astimezone(UTC).isoformat(timespec="milliseconds")


# --- owing (inside the caller's transaction) ---------------------------------------------


async def owe(
    conn: aiosqlite.Connection,
    guild_id: int,
    target: str,
    kind: Kind,
    ref: str = "",
    data: dict[str, Any] | None = None,
    *,
    now: datetime,
) -> int:
    """Owe one message; it goes out after everything owed before it to `target`."""
    text = json.dumps(data, separators=(",", ":")) if data is not None else None
    coalesce = kind in EDITS or kind == Kind.ALERT
    return await outbox_items.owe(
        conn, guild_id, target, kind, ref, text, stamp(now), coalesce=coalesce
    )


async def owe_approval(
    conn: aiosqlite.Connection, guild_id: int, ref: str, *, now: datetime
) -> int:
    """The approval card of a group or a pre-makeup day ('card:4')."""
    return await owe(conn, guild_id, APPROVALS, Kind.APPROVAL, ref, now=now)


async def owe_update(conn: aiosqlite.Connection, guild_id: int, ref: str, *, now: datetime) -> int:
    """Bring an approval message up to date (decided elsewhere than on its buttons).
    Coalesced: while an edit of the message waits, another is the same edit."""
    return await owe(conn, guild_id, APPROVALS, Kind.APPROVAL_UPDATE, ref, now=now)


async def owe_match_card(
    conn: aiosqlite.Connection, guild_id: int, card_id: int, *, posted: bool, now: datetime
) -> int:
    """A bracket match's card (R13.3): posted in the announcements channel, or,
    once owed, edited to the match as it stands (coalesced)."""
    kind = Kind.MATCH_CARD_UPDATE if posted else Kind.MATCH_CARD
    return await owe(conn, guild_id, ANNOUNCEMENTS, kind, match_card_ref(card_id), now=now)


RESULTS = (Kind.RESULTS, Kind.STANDINGS, Kind.PRIZES, Kind.SEASON_SUMMARY)  # a night's end


async def owe_results(
    conn: aiosqlite.Connection, guild_id: int, night: Night, regular_nights: int, *, now: datetime
) -> None:
    """A finalized (or recomputed) night: its results, the standings they make and,
    after the last regular-season night, the prize shares (R10.4, R12) and the
    season summary. A correction of the last night owes both again,
    worded from the corrected results; an earlier night's correction neither."""
    ref = night_ref(night.id)
    await owe(conn, guild_id, ANNOUNCEMENTS, Kind.RESULTS, ref, now=now)
    await owe(conn, guild_id, ANNOUNCEMENTS, Kind.STANDINGS, ref, now=now)
    if night.week == regular_nights:
        await owe(conn, guild_id, ANNOUNCEMENTS, Kind.PRIZES, ref, now=now)
        await owe(conn, guild_id, ANNOUNCEMENTS, Kind.SEASON_SUMMARY, ref, now=now)


# --- the sender's side (one transaction each) --------------------------------------------


async def recover(db: Database, *, now: datetime) -> int:
    """At start: items left 'sending' by a stop or crash (any server's) are sent
    again (same nonce); an edit or alert whose later twin already waits is
    dropped (the twin does it)."""
    async with db.transaction() as conn:
        return await outbox_items.recover(conn, moment(now))


async def heads(db: Database) -> list[OutboxItem]:
    """What may be sent now, oldest first: every server's first unfinished item
    of each lane."""
    async with db.read() as conn:
        return await outbox_items.heads(conn)


def lane(item: OutboxItem) -> str:
    """The lane an item is sent in, one item at a time: a server's destination's
    posts share one ('5 approvals'); each message's edits have one of their own
    ('5 approvals card:4'). Lanes do not wait for each other, nor one server's for
    another's (bot/repositories/outbox_items.py: HEADS)."""
    where = f"{item.guild_id} {item.target}"
    return f"{where} {item.ref}" if item.kind in EDITS else where


async def item(db: Database, item_id: int) -> OutboxItem | None:
    async with db.read() as conn:
        return await outbox_items.item(conn, item_id)


async def claim(db: Database, item_id: int) -> OutboxItem | None:
    """Mark the item as being sent (one more attempt); None if it is not waiting."""
    async with db.transaction() as conn:
        if not await outbox_items.claim(conn, item_id):
            return None
        return await outbox_items.item(conn, item_id)


async def piece_sent(db: Database, item_id: int, pieces: int, message_id: int) -> None:
    """A long post goes out in pieces; a retry starts after the last piece sent."""
    async with db.transaction() as conn:
        await outbox_items.piece_sent(conn, item_id, pieces, message_id)


async def sent(
    db: Database,
    done: OutboxItem,
    message_id: int | None,
    *,
    now: datetime,
    told: Sequence[int] = (),
) -> None:
    """Delivered. An approval or match card's message id is
    kept with it, so it is found and edited later; a photo's, so its card links
    to it; an alert's failed posts (`told`) are marked as told, so no later
    alert lists them again."""
    async with db.transaction() as conn:
        await outbox_items.sent(conn, done.id, message_id, moment(now))
        for item_id in told:
            await outbox_items.told(conn, item_id, moment(now))
        if done.kind == Kind.PHOTO and message_id is not None:
            await _photo_posted(conn, done.guild_id, ref_id(done.ref, PHOTO), message_id, now)
        card_id = ref_id(done.ref, CARD)
        if done.kind == Kind.APPROVAL and message_id is not None and card_id is not None:
            await cards.set_message(conn, card_id, message_id)
        match_card_id = ref_id(done.ref, MATCH_CARD)
        if done.kind == Kind.MATCH_CARD and message_id is not None and match_card_id is not None:
            await match_cards.set_message(conn, match_card_id, message_id)
        board_id = ref_id(done.ref, BOARD)
        if done.kind == Kind.ATTENDANCE and message_id is not None and board_id is not None:
            await checkins.set_board_message(conn, board_id, message_id)


async def _photo_posted(
    conn: aiosqlite.Connection, guild_id: int, score_id: int | None, message_id: int, now: datetime
) -> None:
    """A score's photo is posted: its card links to the post from now on (an edit
    is owed if the card went out first, saying "photo coming")."""
    if score_id is None:
        return
    await kept_photos.set_message(conn, score_id, message_id)
    score = await scores.score_by_id(conn, score_id)
    game = await nights.game_by_id(conn, score.game_id) if score is not None else None
    card = await cards.card_of_group(conn, game.group_id) if game is not None else None
    if card is not None and card.message_id is not None:
        await owe_update(conn, guild_id, card_ref(card.id), now=now)


async def sent_instead(
    db: Database, done: OutboxItem, message_id: int, why: str, *, now: datetime
) -> None:
    """A player's DM was refused; a mention in the announcements channel went
    instead. Recorded as sent, saying so in `last_error` ('instead in #announcements')."""
    async with db.transaction() as conn:
        await outbox_items.sent(conn, done.id, message_id, moment(now))
        await outbox_items.note(conn, done.id, f"{INSTEAD}; the DM was refused: {why}")


async def retry_later(
    db: Database, item_id: int, when: datetime, error: str, *, now: datetime
) -> None:
    async with db.transaction() as conn:
        await outbox_items.retry_at(conn, item_id, moment(when), error, moment(now))


async def drop(db: Database, item_id: int, why: str, *, now: datetime) -> None:
    """Nothing to send after all (e.g. an edit of a message that was never posted)."""
    async with db.transaction() as conn:
        await outbox_items.dropped(conn, item_id, why, moment(now))


def alert_target(refused: OutboxItem) -> str | None:
    """Where the commissioner hears that `refused` was refused: the approvals
    channel, or, when that is what refuses, a DM; a refused DM is only logged."""
    if refused.target == APPROVALS:
        return COMMISSIONERS
    if refused.target == COMMISSIONERS or refused.target.startswith("dm:"):
        return None
    return APPROVALS


async def fail(
    db: Database, refused: OutboxItem, error: str, *, now: datetime, channel_wide: bool = False
) -> str | None:
    """Refused for good (403, 404): kept as failed, to be sent again with
    `resend`, and the commissioner is alerted in the same transaction. When the
    channel itself refuses the bot (`channel_wide`), every post waiting for it
    fails with this one, so one alert tells of them all. Returns where the
    alert goes (None: nowhere left to tell)."""
    target = alert_target(refused)
    async with db.transaction() as conn:
        await outbox_items.failed(conn, refused.id, error)
        if channel_wide:
            why = f"not tried: the channel refused an earlier post ({error})"
            await outbox_items.fail_waiting(conn, refused.guild_id, refused.target, why)
        if target is not None:
            await owe(conn, refused.guild_id, target, Kind.ALERT, now=now)
    return target


async def untold(db: Database, guild_id: int) -> tuple[list[OutboxItem], dict[int, str]]:
    """The failed posts no alert has told the commissioner of yet, and each
    night's week (their refs name nights by id)."""
    async with db.read() as conn:
        untold = await outbox_items.untold(conn, guild_id)
        return untold, await outbox_items.night_weeks(conn, guild_id)


async def due_now(db: Database, now: datetime) -> int:
    """How many items (any server's) could be sent at `now` (waiting, due, or being sent)."""
    async with db.read() as conn:
        return await outbox_items.due_count(conn, moment(now))


# --- the commissioner's side -------------------------------------------------------------


async def resend(db: Database, guild_id: int, *, week: int | None = None, now: datetime) -> Resent:
    """Owe every failed post again (alerts excepted: they are about the others)
    and, with `week`, that finalized week's results, standings and prize shares
    again: once each, so a failed post of that week is not owed twice. No
    score, result or audit entry changes."""
    async with db.transaction() as conn:
        night = None
        if week is not None:
            ctx = await season_of(conn, guild_id)
            night = await night_of_week(conn, ctx, week)
            if night.status != "finalized":
                raise WrongState(f"Week {week} is not final yet; there are no results to post.")
        requeued = []
        waiting = {(i.kind, i.ref) for i in await outbox_items.waiting(conn, guild_id)
                   if i.kind in EDITS}  # fmt: skip
        for refused in await outbox_items.failed_items(conn, guild_id):
            if refused.kind in EDITS and (refused.kind, refused.ref) in waiting:
                # An edit is worded when sent: the one waiting does this one's work.
                await outbox_items.dropped(conn, refused.id, "a later edit of the message "
                                           "does its work", moment(now))  # fmt: skip
                continue
            if refused.kind in EDITS:
                waiting.add((refused.kind, refused.ref))
            if refused.kind == Kind.ALERT:
                await outbox_items.dropped(conn, refused.id, "superseded by a resend", moment(now))
            elif (
                night is not None and refused.kind in RESULTS and refused.ref == night_ref(night.id)
            ):
                await outbox_items.dropped(conn, refused.id, "owed again by the week's resend",
                                     moment(now))  # fmt: skip
            else:
                await outbox_items.requeue(conn, refused.id)
                requeued.append(refused)
        if night is not None:
            await owe_results(conn, guild_id, night, ctx.season.regular_nights, now=now)
        return Resent(requeued, night)


async def status(db: Database, guild_id: int) -> DeliveryStatus:
    async with db.read() as conn:
        counts = await outbox_items.counts(conn, guild_id)
        return DeliveryStatus(
            waiting=await outbox_items.waiting(conn, guild_id),
            failed=await outbox_items.failed_items(conn, guild_id),
            delivered=counts.get("sent", 0),
            schema=await outbox_items.schema_version(conn),
            weeks=await outbox_items.night_weeks(conn, guild_id),
        )
