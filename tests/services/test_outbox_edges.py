"""The outbox's commissioner-facing edges on a real SQLite file: where a
refusal's alert goes (and that a refused DM alerts no one), a refusal of one
post or of the whole channel, `/league admin resend` with a week (each post
owed once, the old alerts gone), the weeks named in the status and the alert,
a DM sent instead as a mention, and what is due now."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.database import Database
from bot.models import OutboxItem
from bot.repositories import outbox_items
from bot.services import approvals, finalize, outbox, picks, scores, setup
from bot.ui import delivery
from tests.moments import SETTING_AT
from tests.services.conftest import COMMISSIONER, GUILD, SEASON_START, at, discord_id

TONIGHT = at(SEASON_START, "20:00")
REFUSED = "403 Missing Permissions"


async def owe(db: Database, target: str, kind: str = "post", ref: str = "x") -> OutboxItem:
    async with db.transaction() as conn:
        item_id = await outbox.owe(conn, GUILD, target, kind, ref, {"text": "hi"}, now=TONIGHT)
    found = await outbox.item(db, item_id)
    assert found is not None
    return found


async def waiting(db: Database) -> list[tuple[str, str, str]]:
    async with db.read() as conn:
        return [(i.target, i.kind, i.ref) for i in await outbox_items.waiting(conn, GUILD)]


async def refuse(db: Database, item: OutboxItem, *, channel_wide: bool = False) -> str | None:
    claimed = await outbox.claim(db, item.id)
    assert claimed is not None
    return await outbox.fail(db, claimed, REFUSED, now=TONIGHT, channel_wide=channel_wide)


async def test_a_refusal_alerts_the_commissioner_where_they_can_still_be_told(
    players: Database,
) -> None:
    db = players
    dm = await owe(db, f"dm:{discord_id(1)}", "score_rejected", "score:1")
    assert await refuse(db, dm) is None  # a player's DM refused (and no mention went): logged
    assert await waiting(db) == []
    assert await refuse(db, await owe(db, "announcements")) == "approvals"
    assert await refuse(db, await owe(db, "approvals")) == "commissioners"
    assert await waiting(db) == [("approvals", "alert", ""), ("commissioners", "alert", "")]


async def test_one_refused_post_fails_alone_and_a_refusing_channel_fails_its_waiting_posts(
    players: Database,
) -> None:
    db = players
    first, second = await owe(db, "announcements", ref="a"), await owe(db, "announcements", ref="b")
    await refuse(db, first)  # e.g. Discord refused that post's content
    assert ("announcements", "post", "b") in await waiting(db)
    third = await owe(db, "announcements", ref="c")
    await refuse(db, second, channel_wide=True)  # the channel refuses the bot
    assert ("announcements", "post", "c") not in await waiting(db)
    failed, weeks = await outbox.untold(db, GUILD)
    assert [i.id for i in failed] == [first.id, second.id, third.id]
    assert delivery.alert(failed, weeks).splitlines()[1:] == [
        "- post to #announcements: the bot is not allowed to post there",
        "- post to #announcements: the bot is not allowed to post there",
        "- post to #announcements: not tried, as the channel refused an earlier post",
    ]


async def finalized_week_1(db: Database) -> None:
    await picks.lock_picks(db, GUILD, now=at(SEASON_START, "19:15"))
    for player in (1, 2, 3):
        for game in range(1, 6):
            await scores.submit(db, GUILD, discord_id(player), game, player * 10**8 + game,
                                now=TONIGHT)  # fmt: skip
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=TONIGHT)
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=TONIGHT)


async def item_of(db: Database, kind: str) -> OutboxItem:
    async with db.read() as conn:
        return next(i for i in await outbox_items.waiting(conn, GUILD) if i.kind == kind)


async def test_resend_of_a_week_owes_its_results_once_and_sends_the_other_failed_posts(
    players: Database,
) -> None:
    """The week's results were refused, and the group's card; the alert telling
    of them was refused too. A resend of week 1 posts the results once (the
    failed one is replaced, not sent as well), sends the card again and leaves
    nothing failed: the old alert is gone with what it told of."""
    db = players
    await finalized_week_1(db)
    standings = await outbox.claim(db, (await item_of(db, "standings")).id)
    assert standings is not None
    await outbox.sent(db, standings, 1, now=TONIGHT)
    card = await item_of(db, "approval")
    await refuse(db, await item_of(db, "results"))
    await refuse(db, card)
    await refuse(db, await item_of(db, "alert"))  # the alert to #approvals, refused as well
    await refuse(db, await item_of(db, "alert"))  # ... and its DM to the commissioners
    assert [(i.target, i.kind) for i in (await outbox.status(db, GUILD)).failed] == [
        ("approvals", "approval"), ("announcements", "results"),
        ("approvals", "alert"), ("commissioners", "alert"),
    ]  # fmt: skip
    done = await outbox.resend(db, GUILD, week=1, now=TONIGHT + timedelta(hours=1))
    assert delivery.resent(done) == (
        "1 failed post will be sent again. Week 1's results and standings will be posted "
        "again. No score, result or audit entry changed."
    )
    report = await outbox.status(db, GUILD)
    assert report.failed == []
    owed = [(i.target, i.kind) for i in report.waiting]
    assert owed.count(("announcements", "results")) == 1
    assert owed.count(("announcements", "standings")) == 1
    assert owed.count(("approvals", "approval")) == 1


async def test_r10_4_a_resend_of_the_last_night_posts_its_prizes_and_summary_again(
    players: Database,
) -> None:
    """A one-night season: its night's results, standings, prize shares and the
    season summary went out (and playoff night's announcement, R13.4);
    `/league admin resend week:1` owes the four of the night again."""
    db = players
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=SETTING_AT)
    await finalized_week_1(db)
    for kind in ("results", "standings", "prizes", "season_summary", "playoff_night"):
        claimed = await outbox.claim(db, (await item_of(db, kind)).id)
        assert claimed is not None
        await outbox.sent(db, claimed, 1, now=TONIGHT)
    await outbox.resend(db, GUILD, week=1, now=TONIGHT + timedelta(hours=1))
    owed = [i.kind for i in (await outbox.status(db, GUILD)).waiting if i.target == "announcements"]
    assert sorted(owed) == ["prizes", "results", "season_summary", "standings"]


async def test_resend_without_a_week_sends_a_failed_result_again(players: Database) -> None:
    db = players
    await finalized_week_1(db)
    results = await item_of(db, "results")
    await refuse(db, results)
    done = await outbox.resend(db, GUILD, now=TONIGHT)
    assert delivery.resent(done) == (
        "1 failed post will be sent again. No score, result or audit entry changed."
    )
    report = await outbox.status(db, GUILD)
    assert report.failed == []
    assert [i.kind for i in report.waiting if i.target == "announcements"].count("results") == 1


async def test_the_status_and_the_alert_name_a_failed_results_post_by_its_week(
    players: Database,
) -> None:
    db = players
    await finalized_week_1(db)
    await refuse(db, await item_of(db, "results"))
    line = "- results of week 1 to #announcements: the bot is not allowed to post there"
    report = await outbox.status(db, GUILD)
    text = delivery.status(version="1", database="league.sqlite3", delivery=report,
                           next_posts=[], checks={})  # fmt: skip
    assert line in text.splitlines()
    failed, weeks = await outbox.untold(db, GUILD)
    assert line in delivery.alert(failed, weeks).splitlines()


async def test_a_dm_sent_instead_as_a_mention_counts_as_sent(players: Database) -> None:
    db = players
    dm = await owe(db, f"dm:{discord_id(1)}", "score_rejected", "score:1")
    claimed = await outbox.claim(db, dm.id)
    assert claimed is not None
    await outbox.sent_instead(db, claimed, 77, "403 Cannot send messages to this user",
                              now=TONIGHT)  # fmt: skip
    report = await outbox.status(db, GUILD)
    assert (report.waiting, report.failed, report.delivered) == ([], [], 1)


async def test_an_item_with_nothing_to_send_is_dropped(players: Database) -> None:
    db = players
    edit = await owe(db, "approvals", "approval_update", "card:9")
    assert await outbox.claim(db, edit.id) is not None
    await outbox.drop(db, edit.id, "the card was not sent", now=TONIGHT)
    report = await outbox.status(db, GUILD)
    assert (report.waiting, report.failed) == ([], [])


async def test_what_is_due_now_leaves_out_a_post_waiting_to_be_retried(players: Database) -> None:
    db = players
    assert await outbox.due_now(db, TONIGHT) == 0
    post = await owe(db, "announcements")
    assert await outbox.due_now(db, TONIGHT) == 1
    assert await outbox.claim(db, post.id) is not None
    later = TONIGHT + timedelta(minutes=5)
    await outbox.retry_later(db, post.id, later, "503", now=TONIGHT)
    assert await outbox.due_now(db, TONIGHT) == 0
    assert await outbox.due_now(db, later) == 1


def owed_item(target: str, kind: str, ref: str, guild: int = GUILD) -> OutboxItem:
    return OutboxItem(
        id=1, guild_id=guild, target=target, kind=kind, ref=ref, data=None, nonce="n",
        status="pending", attempts=0, next_attempt_at=None, pieces_sent=0, message_id=None,
        last_error=None, created_at="2026-01-07T20:00:00.000+00:00", sent_at=None,
    )  # fmt: skip


def test_a_destinations_posts_share_a_lane_and_each_messages_edits_have_their_own() -> None:
    """The sender sends one item of a lane at a time: two posts to one channel
    never overtake each other, whatever they are about; a card's edits wait only
    for that card's; one server's posts never wait for another's."""
    card_4, card_5 = "card:4", "card:5"
    posts = {outbox.lane(owed_item("approvals", "approval", ref)) for ref in (card_4, card_5)}
    assert posts == {f"{GUILD} approvals"}
    edits = [
        outbox.lane(owed_item("approvals", "approval_update", ref)) for ref in (card_4, card_5)
    ]
    assert edits == [f"{GUILD} approvals card:4", f"{GUILD} approvals card:5"]
    match_edit = owed_item("announcements", "match_card_update", "matchcard:2")
    assert outbox.lane(match_edit) == f"{GUILD} announcements matchcard:2"
    assert outbox.lane(owed_item("dm:42", "score_rejected", "score:9")) == f"{GUILD} dm:42"
    other = owed_item("approvals", "approval", card_4, guild=GUILD + 1)
    assert outbox.lane(other) != outbox.lane(owed_item("approvals", "approval", card_4))


def test_the_outboxs_times_are_kept_in_utc_whatever_the_servers_clock_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stored as text and compared as text (what is due now): one zone for all,
    so a host on New York time, across a change of its clock, orders them right."""
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        evening = datetime(2026, 3, 8, 20, 0, tzinfo=ZoneInfo("America/New_York"))
        assert outbox.moment(evening) == "2026-03-09T00:00:00.000+00:00"
    finally:
        monkeypatch.undo()
        time.tzset()
