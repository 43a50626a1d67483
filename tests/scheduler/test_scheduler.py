"""Scheduled posts with real APScheduler triggers and real time zones (R1.3, R2)."""

from __future__ import annotations

import asyncio
import logging
from datetime import date, datetime, timedelta

import pytest

from bot.database import Database
from bot.scheduler import LeagueScheduler
from bot.services import announcements, setup
from tests.scheduler.conftest import FIRST, GUILD, NEW_YORK, Channel, at, started


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
    scheduler = await started(db, Channel(), at(date(2026, 3, 1), "09:00"))
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
    await setup.skip_date(
        db, GUILD, date(2026, 3, 11), "St Patrick's party", now=at(date(2026, 3, 2), "10:00")
    )
    channel = Channel()
    scheduler = await started(db, channel, at(FIRST, "09:00"))
    try:
        assert await scheduler.post("groupings", at(date(2026, 3, 11), "12:00")) == "sent"
        for kind, clock in (("cutoff", "15:00"), ("lock", "19:15"), ("grace", "19:30")):
            assert await scheduler.post(kind, at(date(2026, 3, 11), clock)) == "none"
        assert channel.posts == [
            "No league night today (Wednesday 11 March): the commissioner skipped this date."
        ]
        # Week 2 moved to the 18th; its groups wait for week 1's results: nothing
        # is posted or claimed, and the post is tried again later that day.
        assert await scheduler.post("groupings", at(date(2026, 3, 18), "12:00")) == "waiting"
        assert len(channel.posts) == 1
        assert "wait:groupings" in scheduler.jobs()
        assert await announcements.post_record(db, GUILD, "groupings:2026-03-18") is None
    finally:
        scheduler.shutdown()


async def test_a_restart_after_a_post_does_not_post_again(db: Database) -> None:
    channel = Channel()
    first = await started(db, channel, at(FIRST, "11:00"))
    assert await first.post("cutoff", at(FIRST, "15:00")) == "sent"
    first.shutdown()
    again = await started(db, channel, at(FIRST, "15:05"))
    again.shutdown()
    assert len(channel.of("late-notice cutoff")) == 1
    record = await announcements.post_record(db, GUILD, "cutoff:2026-03-04")
    assert record is not None and (record.status, record.message_id) == ("sent", 1001)


async def test_a_restart_at_15_20_posts_the_missed_cutoff_once_marked_late(db: Database) -> None:
    channel = Channel()
    scheduler = await started(db, channel, at(FIRST, "15:20"))
    scheduler.shutdown()
    cutoff = channel.of("late-notice cutoff")
    assert len(cutoff) == 1
    assert cutoff[0].endswith("(Posted late: the bot was offline at 15:00.)")
    assert "will not wait past 19:30 (R2.2)" in cutoff[0]
    assert len(channel.of("Week 1 · Wednesday 04 March 2026")) == 1  # groupings, late too
    assert channel.of("picks are locked") == []  # 19:15 has not come
    again = await started(db, channel, at(FIRST, "15:25"))
    again.shutdown()
    assert len(channel.posts) == 2


async def test_downtime_until_the_next_day_skips_and_logs(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    channel = Channel()
    with caplog.at_level(logging.WARNING, logger="bot.scheduler"):
        scheduler = await started(db, channel, at(FIRST + timedelta(days=1), "09:00"))
        scheduler.shutdown()
    assert channel.posts == []
    assert (
        "skipped cutoff:2026-03-04: not posted on its day (the bot was offline, or" in caplog.text
    )
    record = await announcements.post_record(db, GUILD, "cutoff:2026-03-04")
    assert record is not None and record.status == "skipped"


async def test_a_refused_post_is_logged_and_retried_a_bounded_number_of_times(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    channel = Channel()
    channel.refuse = True
    now = at(FIRST, "15:00")
    scheduler = LeagueScheduler(
        db, GUILD, channel.send, clock=lambda: now, retry_delay=timedelta(milliseconds=50)
    )
    with caplog.at_level(logging.WARNING, logger="bot.scheduler"):
        scheduler.scheduler.start()
        await scheduler.rebuild()
        assert await scheduler.post("cutoff", now) == "failed"
        for _ in range(100):  # the retries run on the real scheduler, 50 and 100 ms later
            record = await announcements.post_record(db, GUILD, "cutoff:2026-03-04")
            if record is not None and record.attempts >= 3:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # room for a fourth try that must not come
        scheduler.shutdown()
    assert channel.tries == 3 and channel.posts == []
    assert record is not None and (record.status, record.attempts) == ("failed", 3)
    assert "Missing Permissions" in (record.last_error or "")
    assert "post cutoff:2026-03-04 failed (attempt 1 of 3)" in caplog.text
    assert "gave up after 3 attempts" in caplog.text
    reported = await announcements.failures(db, GUILD)
    assert [r.key for r in reported] == ["cutoff:2026-03-04"]
    await announcements.mark_reported(db, GUILD, reported)
    assert await announcements.failures(db, GUILD) == []  # reported once


async def test_a_league_day_posts_groupings_cutoff_lock_and_grace_in_order(db: Database) -> None:
    from bot.services import attendance, scores

    channel = Channel()
    scheduler = await started(db, channel, at(FIRST, "09:00"))
    try:
        await attendance.notify(db, GUILD, 3, "late", minutes=30, now=at(FIRST, "16:00"))
        assert await scheduler.post("groupings", at(FIRST, "12:00")) == "sent"
        assert await scheduler.post("cutoff", at(FIRST, "15:00")) == "sent"
        assert await scheduler.post("lock", at(FIRST, "19:15")) == "sent"
        await scores.submit(db, GUILD, 1, 1, 1000, now=at(FIRST, "19:20"))
        assert await scheduler.post("grace", at(FIRST, "19:30")) == "sent"
        assert await scheduler.post("grace", at(FIRST, "19:31")) == "already"
    finally:
        scheduler.shutdown()
    groupings, cutoff, lock, grace = channel.posts
    # R8.2 week 1 by skill; R11.2 the lowest rank starts game 1.
    assert "**Group 1**: P1, P2, P3\n  Game 1 play order: P3 → P2 → P1" in groupings
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

    channel = Channel()
    scheduler = await started(db, channel, at(FIRST, "09:00"))
    try:
        assert await scheduler.post("lock", at(FIRST, "19:15")) == "sent"
        for player in (2, 3):
            await attendance.notify(db, GUILD, player, "late", minutes=10, now=at(FIRST, "17:00"))
        for player in (1, 4, 5, 6):
            await scores.submit(db, GUILD, player, 1, 1000 * player, now=at(FIRST, "19:25"))
        assert await scheduler.post("grace", at(FIRST, "19:30")) == "sent"
    finally:
        scheduler.shutdown()
    grace = channel.posts[-1]
    assert grace == (
        "**Week 1: the grace period is over (19:30).**\nEveryone has sent a notice or a score."
    )
