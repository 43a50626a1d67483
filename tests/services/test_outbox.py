"""The outbox's bookkeeping on a real SQLite file: a message is owed in the same
transaction as the change that makes it owed, or not at all; items keep their
order; each has its own short nonce; an approval message has one waiting edit."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.models import OutboxItem
from bot.repositories import outbox_items
from bot.services import approvals, finalize, outbox, picks, scores
from bot.services.errors import LeagueError, NotReady, WrongState
from tests.services.conftest import COMMISSIONER, GUILD, SEASON_START, at, discord_id

TONIGHT = at(SEASON_START, "20:00")


async def items(db: Database) -> list[OutboxItem]:
    async with db.read() as conn:
        return await outbox_items.waiting(conn, GUILD)


async def locked(db: Database) -> Database:
    await picks.lock_picks(db, GUILD, now=at(SEASON_START, "19:15"))
    return db


async def test_a_submitted_score_owes_its_groups_card_with_it(players: Database) -> None:
    db = await locked(players)
    await scores.submit(db, GUILD, discord_id(1), 1, 300_000_000, now=TONIGHT)
    [owed] = await items(db)
    assert (owed.target, owed.kind, owed.ref) == ("approvals", "approval", "card:1")
    # Refused (the score already waits): nothing more is owed.
    with pytest.raises(WrongState, match="already has a score on game 1 waiting"):
        await scores.submit(db, GUILD, discord_id(1), 1, 300_000_000, now=TONIGHT)
    assert await items(db) == [owed]


async def test_a_refused_finalize_owes_nothing_and_a_finalize_owes_its_posts_once(
    players: Database,
) -> None:
    db = await locked(players)
    await scores.submit(db, GUILD, discord_id(1), 1, 300_000_000, now=TONIGHT)
    before = await items(db)
    # scores wait: nothing is final, nothing owed
    with pytest.raises(NotReady, match=r"cannot be finalized\. Scores waiting for approval"):
        await finalize.finalize(db, GUILD, by=COMMISSIONER, now=TONIGHT)
    assert await items(db) == before
    for player in (1, 2, 3):
        for game in range(1, 6):
            if (player, game) != (1, 1):
                await scores.submit(db, GUILD, discord_id(player), game, player * 10**8 + game,
                                    now=TONIGHT)  # fmt: skip
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=TONIGHT)
    summary = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=TONIGHT)
    announced = [(i.kind, i.ref) for i in await items(db) if i.target == "announcements"]
    night = f"night:{summary.night.id}"
    assert announced == [("results", night), ("standings", night)]
    again = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=TONIGHT)
    assert not again.newly_finalized
    assert [(i.kind, i.ref) for i in await items(db) if i.target == "announcements"] == announced


async def test_items_keep_their_order_and_each_has_its_own_short_nonce(players: Database) -> None:
    db = await locked(players)
    for player in (1, 2, 3):
        await scores.submit(db, GUILD, discord_id(player), 1, 10**8, now=TONIGHT)
    owed = await items(db)
    # The group's card is posted once; the two later scores are one coalesced edit.
    assert [(i.kind, i.ref) for i in owed] == [
        ("approval", "card:1"),
        ("approval_update", "card:1"),
    ]
    assert len({i.nonce for i in owed}) == 2
    # Discord takes a nonce of at most 25 characters; each piece adds '.<n>'.
    assert all(len(f"{i.nonce}.999") <= 25 for i in owed)


async def test_an_approval_message_has_one_waiting_edit(players: Database) -> None:
    db = await locked(players)
    await scores.submit(db, GUILD, discord_id(1), 1, 10**8, now=TONIGHT)
    ref = "card:1"
    async with db.transaction() as conn:
        assert await outbox.owe_update(conn, GUILD, ref, now=TONIGHT) > 0
        assert await outbox.owe_update(conn, GUILD, ref, now=TONIGHT) == 0  # coalesced
    assert [i.kind for i in await items(db)] == ["approval", "approval_update"]


async def test_an_edit_cut_off_mid_send_while_a_later_one_waits_does_not_stop_the_outbox(
    players: Database,
) -> None:
    """Found by the kill test (tests/faults/test_kill_night.py): the bot was
    killed while a card's edit was being sent and a later decision owed the
    card another edit. At the next start the first could not wait again beside
    the second (one waiting edit per message), recovery failed, and the outbox
    sent nothing any more.
    Now the cut-off edit is dropped (the waiting one is worded when sent, from
    the card as it then stands); the same when a send is to be retried."""
    db = await locked(players)
    await scores.submit(db, GUILD, discord_id(1), 1, 10**8, now=TONIGHT)
    ref = "card:1"
    for retried in (False, True):
        async with db.transaction() as conn:
            await outbox.owe_update(conn, GUILD, ref, now=TONIGHT)
        [first] = [i for i in await items(db) if i.kind == "approval_update"]
        assert await outbox.claim(db, first.id) is not None  # being sent ...
        async with db.transaction() as conn:  # ... when a decision owes another edit
            assert await outbox.owe_update(conn, GUILD, ref, now=TONIGHT) > 0
        if retried:  # Discord answered 5xx: try again later
            await outbox.retry_later(db, first.id, TONIGHT, "503", now=TONIGHT)
        else:  # killed; the next start
            assert await outbox.recover(db, now=TONIGHT) == 1
        waiting = [(i.kind, i.ref, i.status) for i in await items(db)]
        assert waiting == [("approval", ref, "pending"), ("approval_update", ref, "pending")]
        dropped = await outbox.item(db, first.id)
        assert dropped is not None and dropped.status == "dropped"
        await outbox.drop(db, waiting_edit(await items(db)), "sent", now=TONIGHT)  # next round
    # With no later edit waiting, a cut-off edit waits again, as any other item.
    async with db.transaction() as conn:
        await outbox.owe_update(conn, GUILD, ref, now=TONIGHT)
    edit = waiting_edit(await items(db))
    assert await outbox.claim(db, edit) is not None
    assert await outbox.recover(db, now=TONIGHT) == 1
    assert (await outbox.item(db, edit)).status == "pending"  # type: ignore[union-attr]


def waiting_edit(found: list[OutboxItem]) -> int:
    [edit] = [i.id for i in found if i.kind == "approval_update"]
    return edit


async def test_a_send_cut_off_by_a_stop_does_not_count_towards_the_backoff(
    players: Database,
) -> None:
    """Killed mid-send ten times, an item is still on its first try, so
    one 5xx afterwards waits the first retry's seconds, not 2^10 of them."""
    db = await locked(players)
    await scores.submit(db, GUILD, discord_id(1), 1, 300_000_000, now=TONIGHT)
    [owed] = await items(db)
    for _ in range(10):
        assert await outbox.claim(db, owed.id) is not None  # sending … and killed
        assert await outbox.recover(db, now=TONIGHT) == 1
    claimed = await outbox.claim(db, owed.id)
    assert claimed is not None and claimed.attempts == 1  # this try, and none before


async def test_a_transaction_that_fails_owes_nothing(players: Database) -> None:
    db = await locked(players)
    with pytest.raises(LeagueError, match="changed my mind"):
        async with db.transaction() as conn:
            await outbox.owe(conn, GUILD, "announcements", "post", "x", {"text": "hi"},
                             now=TONIGHT)  # fmt: skip
            raise WrongState("changed my mind")
    assert await items(db) == []


async def test_resend_of_a_week_that_is_not_final_is_refused(players: Database) -> None:
    db = await locked(players)
    with pytest.raises(WrongState, match="Week 1 is not final yet"):
        await outbox.resend(db, GUILD, week=1, now=at(date(2026, 1, 8)))
    assert await items(db) == []


async def head_ids(db: Database) -> list[int]:
    return [i.id for i in await outbox.heads(db)]


async def sent(db: Database, item_id: int, message_id: int) -> None:
    done = await outbox.item(db, item_id)
    assert done is not None
    await outbox.sent(db, done, message_id, now=TONIGHT)


async def test_posts_keep_their_order_and_each_message_edits_in_its_own_lane_after_its_post(
    league: Database,
) -> None:
    """A channel's posts go out in the order owed; a message's edits in the order
    owed and after its post; a post does not wait for edits, nor one message's
    edits for another's."""
    db = league
    async with db.transaction() as conn:
        post_1 = await outbox.owe_approval(conn, GUILD, "card:1", now=TONIGHT)
        edit_1 = await outbox.owe_update(conn, GUILD, "card:1", now=TONIGHT)
        post_2 = await outbox.owe_approval(conn, GUILD, "card:2", now=TONIGHT)
        edit_2 = await outbox.owe_update(conn, GUILD, "card:2", now=TONIGHT)
        news = await outbox.owe(conn, GUILD, "announcements", "post", data={"text": "Hi"},
                                now=TONIGHT)  # fmt: skip
    assert await head_ids(db) == [post_1, news]  # card 2's post waits for card 1's
    await outbox.claim(db, post_1)
    assert await head_ids(db) == [post_1, news]  # being sent: still its lane's first
    await sent(db, post_1, 11)
    assert await head_ids(db) == [edit_1, post_2, news]  # the edit and the next post, together
    await outbox.claim(db, edit_1)
    async with db.transaction() as conn:  # a later score: another edit, behind the one going out
        edit_1_again = await outbox.owe_update(conn, GUILD, "card:1", now=TONIGHT)
    assert edit_1_again > 0
    assert await head_ids(db) == [edit_1, post_2, news]
    await sent(db, post_2, 12)
    assert await head_ids(db) == [edit_1, edit_2, news]
    heads = await outbox.heads(db)
    assert len({outbox.lane(i) for i in heads}) == 3
    # Card 2's message was deleted and its post is owed again: its edit waits for it.
    async with db.transaction() as conn:
        post_2_again = await outbox.owe_approval(conn, GUILD, "card:2", now=TONIGHT)
    assert await head_ids(db) == [edit_1, news, post_2_again]
    await sent(db, edit_1, 11)
    assert await head_ids(db) == [news, edit_1_again, post_2_again]
