"""Scheduled posts with real APScheduler triggers and real time zones (R1.3, R2),
owed to the outbox and delivered by its sender."""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta

import pytest

from bot.database import Database
from bot.scheduler import LeagueScheduler
from bot.services import announcements, skips
from cogs.commissioner import Commissioner
from tests.cogs.conftest import COMMISSIONER, as_user
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, invoke
from tests.scheduler.conftest import FIRST, GUILD, NEW_YORK, Channel, Clock, at, started


def fire_times(
    scheduler: LeagueScheduler, kind: str, after: datetime, count: int
) -> list[datetime]:
    trigger = scheduler.jobs()[f"post:{kind}"].trigger  # type: ignore[attr-defined]
    times, previous = [], None
    moment = after
    for _ in range(count):
        fire = trigger.get_next_fire_time(previous, moment)
        times.append(fire)
        previous, moment = fire, fire + timedelta(seconds=1)
    return times


@pytest.mark.parametrize(
    ("kind", "clock"),
    [("groupings", "12:00"), ("cutoff", "15:00"), ("lock", "19:15"), ("grace", "19:30")],
)
async def test_r1_3_posts_fire_at_local_times_across_both_2026_dst_changes(
    db: Database, kind: str, clock: str
) -> None:
    scheduler = await started(db, Channel(db), at(date(2026, 3, 1), "09:00"))
    try:
        job = scheduler.jobs()[f"post:{kind}"]
        # A run missed by any amount still runs, once (coalesced); `due` refuses a day that is over.
        assert (job.coalesce, job.misfire_grace_time, job.max_instances) == (True, None, 1)  # type: ignore[attr-defined]
        spring = fire_times(scheduler, kind, at(date(2026, 3, 1), "00:00"), 3)
        autumn = fire_times(scheduler, kind, at(date(2026, 10, 26), "00:00"), 2)
        for fire in spring + autumn:
            local = fire.astimezone(NEW_YORK)
            assert (local.strftime("%A %H:%M")) == f"Wednesday {clock}"
        assert [f.astimezone(NEW_YORK).date() for f in spring] == [
            date(2026, 3, 4), date(2026, 3, 11), date(2026, 3, 18),
        ]  # fmt: skip
        # Standard time is UTC-5, daylight time UTC-4: the UTC hour moves, the local one not.
        offsets = [f.astimezone(NEW_YORK).utcoffset() for f in spring + autumn]
        assert offsets == [timedelta(hours=h) for h in (-5, -4, -4, -4, -5)]
    finally:
        scheduler.shutdown()


async def test_r1_2_a_skipped_date_posts_one_line_and_moves_later_weeks(db: Database) -> None:
    await skips.skip_date(
        db, GUILD, date(2026, 3, 11), "St Patrick's party", now=at(date(2026, 3, 2), "10:00")
    )
    channel = Channel(db)
    scheduler = await started(db, channel, at(FIRST, "09:00"))
    try:
        assert await scheduler.post("groupings", at(date(2026, 3, 11), "12:00")) == "owed"
        for kind, clock in (("cutoff", "15:00"), ("lock", "19:15"), ("grace", "19:30")):
            assert await scheduler.post(kind, at(date(2026, 3, 11), clock)) == "none"
        assert await channel.posts() == [
            "No league night on Wednesday 11 March: St Patrick's party.",  # /league season skip
            "No league night today (Wednesday 11 March): the commissioner skipped this date.",
        ]
        # Week 2 moved to the 18th; its groups wait for week 1's results: nothing
        # is posted or claimed, and the post is tried again later that day.
        assert await scheduler.post("groupings", at(date(2026, 3, 18), "12:00")) == "waiting"
        assert await channel.owed() == [] and len(await channel.posts()) == 2
        assert "wait:groupings" in scheduler.jobs()
        assert await announcements.post_record(db, GUILD, "groupings:2026-03-18") is None
    finally:
        scheduler.shutdown()


async def test_a_restart_after_a_post_was_owed_does_not_owe_it_again(db: Database) -> None:
    channel = Channel(db)
    first = await started(db, channel, at(FIRST, "11:00"))
    assert await first.post("cutoff", at(FIRST, "15:00")) == "owed"
    assert channel.woken == 1  # the sender is told at once
    first.shutdown()  # stopped before the sender got to it: it stays owed
    again = await started(db, channel, at(FIRST, "15:05"))
    again.shutdown()
    # The cutoff once; the groupings, which no job made, are owed at the start.
    assert await channel.owed() == ["cutoff:2026-03-04", "groupings:2026-03-04"]
    assert channel.woken == 2
    (cutoff,) = await channel.of("late-notice cutoff")
    record = await announcements.post_record(db, GUILD, "cutoff:2026-03-04")
    assert record is not None and record.status == "claimed"  # the key: made once
    item = await channel.item("cutoff:2026-03-04")  # its delivery: the outbox's record
    (message,) = [m for m in channel.bot.channels[ANNOUNCEMENTS].sent if m.content == cutoff]
    assert item is not None and (item.status, item.message_id) == ("sent", message.id)


async def test_a_restart_at_15_20_posts_the_missed_cutoff_once_marked_late(db: Database) -> None:
    channel = Channel(db)
    scheduler = await started(db, channel, at(FIRST, "15:20"))
    scheduler.shutdown()
    cutoff = await channel.of("late-notice cutoff")
    assert len(cutoff) == 1
    assert cutoff[0].endswith("(Posted late: the bot was offline at 15:00.)")
    assert "will not wait past 19:30." in cutoff[0]
    assert len(await channel.of("Week 1 · Wednesday 04 March 2026")) == 1  # groupings, late too
    assert await channel.of("picks are locked") == []  # 19:15 has not come
    again = await started(db, channel, at(FIRST, "15:25"))
    again.shutdown()
    assert len(await channel.posts()) == 2


async def test_downtime_until_the_next_day_skips_and_logs(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    channel = Channel(db)
    with caplog.at_level(logging.WARNING, logger="bot.scheduler"):
        scheduler = await started(db, channel, at(FIRST + timedelta(days=1), "09:00"))
        scheduler.shutdown()
    assert await channel.owed() == [] and await channel.posts() == []
    assert (
        "skipped cutoff:2026-03-04: not posted on its day (the bot was offline, or" in caplog.text
    )
    record = await announcements.post_record(db, GUILD, "cutoff:2026-03-04")
    assert record is not None and record.status == "skipped"


RESEND = next(
    c for c in Commissioner().walk_app_commands() if c.qualified_name == "league admin resend"
)


async def test_a_refused_post_is_kept_failed_reported_once_and_sent_by_resend(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """403 Missing Permissions: the outbox keeps the post as failed and alerts the
    commissioner once; the scheduler does not make it again; /league admin
    resend sends it, once, when the channel is fixed."""
    channel, clock = Channel(db), Clock(at(FIRST, "12:00"))
    scheduler = await started(db, channel, clock.now)
    scheduler.clock = clock
    try:
        (groupings,) = await channel.posts()  # owed at the start, and sent
        channel.refuse = True  # someone takes the bot's Send Messages away
        clock.now = at(FIRST, "15:00")
        with caplog.at_level(logging.WARNING, logger="bot.delivery"):
            assert await scheduler.run("cutoff") == "owed"
            assert await channel.posts() == [groupings]
        item = await channel.item("cutoff:2026-03-04")
        assert item is not None and (item.status, item.attempts) == ("failed", 1)  # no retry
        assert "Missing Permissions" in (item.last_error or "")
        assert "refused: 403 Missing Permissions; alert to approvals" in caplog.text
        # The key is claimed: the job, the sweep and a command do not make it again.
        clock.now = at(FIRST, "15:05")
        assert await scheduler.run("cutoff") == "already"
        assert (await scheduler.sweep())["cutoff"] == "already"
        assert (await scheduler.catch_up())["cutoff"] == "already"
        await channel.posts()
        # reported once (beside the night's attendance board, an embed)
        (alert,) = [m for m in channel.bot.channels[APPROVALS].sent if m.content]
        assert alert.content.startswith("Heads-up: Discord refused 1 post of the bot.")
        assert "then use /league admin resend" in alert.content
        channel.refuse = False  # the server admin fixes the channel
        koi = as_user(channel.bot, COMMISSIONER, at(FIRST, "15:30"))
        said = await invoke(RESEND, Commissioner(), koi)
        assert said.text.startswith("1 failed post will be sent again.")
    finally:
        scheduler.shutdown()
    assert (await channel.posts())[0] == groupings
    (cutoff,) = await channel.of("late-notice cutoff")
    assert cutoff.startswith("**Week 1: late-notice cutoff (15:00).**")
    assert "(Posted late" not in cutoff
    item = await channel.item("cutoff:2026-03-04")
    assert item is not None and item.status == "sent"
    assert len([m for m in channel.bot.channels[APPROVALS].sent if m.content]) == 1  # once


async def test_a_league_day_posts_groupings_cutoff_lock_and_grace_in_order(db: Database) -> None:
    from bot.services import attendance, scores

    channel = Channel(db)
    scheduler = await started(db, channel, at(FIRST, "09:00"))
    try:
        await attendance.notify(db, GUILD, 3, "late", minutes=30, now=at(FIRST, "16:00"))
        assert await scheduler.post("groupings", at(FIRST, "12:00")) == "owed"
        assert await scheduler.post("cutoff", at(FIRST, "15:00")) == "owed"
        assert await scheduler.post("lock", at(FIRST, "19:15")) == "owed"
        await scores.submit(db, GUILD, 1, 1, 1000, now=at(FIRST, "19:20"))
        assert await scheduler.post("grace", at(FIRST, "19:30")) == "owed"
        assert await scheduler.post("grace", at(FIRST, "19:31")) == "already"
    finally:
        scheduler.shutdown()
    assert channel.woken == 4
    assert await channel.owed() == [
        "groupings:2026-03-04", "cutoff:2026-03-04", "lock:2026-03-04", "grace:2026-03-04"
    ]  # fmt: skip
    groupings, cutoff, lock, grace = await channel.posts()
    # R8.2 week 1 by skill; R11.2 the lowest rank starts game 1.
    assert "\nGroup 1\nP1, P2, P3\nGame 1 order: P3 → P2 → P1\n" in groupings
    assert "use /veto before 19:15" in groupings
    assert "- P3: late, about 30 min late" in cutoff
    assert lock.startswith("**Week 1: picks are locked.**")
    assert "**Group 2**: 1. M1, 2. M2, 3. M3, 4. M4, 5. M5" in lock
    # P1 has a score and P3 sent a notice; the others are named (R2.3).
    assert "No notice and no score yet from: P2, P4, P5, P6. If they have not arrived" in grace


async def test_r2_3_the_grace_post_names_nobody_once_everyone_sent_a_notice_or_a_score(
    db: Database,
) -> None:
    from bot.services import attendance, scores

    channel = Channel(db)
    scheduler = await started(db, channel, at(FIRST, "09:00"))
    try:
        assert await scheduler.post("lock", at(FIRST, "19:15")) == "owed"
        for player in (2, 3):
            await attendance.notify(db, GUILD, player, "late", minutes=10, now=at(FIRST, "17:00"))
        for player in (1, 4, 5, 6):
            await scores.submit(db, GUILD, player, 1, 1000 * player, now=at(FIRST, "19:25"))
        assert await scheduler.post("grace", at(FIRST, "19:30")) == "owed"
    finally:
        scheduler.shutdown()
    grace = (await channel.posts())[-1]
    assert grace == (
        "**Week 1: the grace period is over (19:30).**\nEveryone has sent a notice or a score."
    )
