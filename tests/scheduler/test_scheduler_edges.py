"""The scheduler at its edges: it runs its jobs (not paused) once the bot
starts, a waiting post is tried again after the wait and not at once (and
however late that comes), a gap in its signs of life counts from just over two
sweeps, the sweep's day is the league's (not UTC's), a lock with nothing to
post posts nothing, and a start on any day finds the last league night's
posts that never went out."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, date, datetime, timedelta

import pytest
from apscheduler.events import EVENT_JOB_EXECUTED, EVENT_JOB_MISSED, JobExecutionEvent
from apscheduler.schedulers.base import STATE_RUNNING

from bot.database import Database
from bot.scheduler import SWEEP_EVERY, LeagueScheduler
from bot.services import announcements
from tests.scheduler.conftest import FIRST, GUILD, Channel, Clock, at, started
from tests.scheduler.test_owed_posts import play, scheduler_on


async def test_the_bots_scheduler_runs_its_jobs_once_started(db: Database) -> None:
    """The bot starts it with no arguments: it must run, not wait paused."""
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = LeagueScheduler(db, GUILD, channel.wake, clock=clock)  # type: ignore[arg-type]
    await scheduler.start()
    try:
        assert scheduler.scheduler.state == STATE_RUNNING
        assert scheduler.last_seen == clock.now  # its first sign of life: now
    finally:
        scheduler.shutdown()


async def test_the_bots_scheduler_keeps_its_time_in_utc(db: Database) -> None:
    """The bot gives it no clock: its own is now, in UTC, comparable with the
    league's times (a naive local time could not be)."""
    channel = Channel(db)
    scheduler = LeagueScheduler(db, GUILD, channel.wake)  # type: ignore[arg-type]
    await scheduler.start(paused=True)
    try:
        assert scheduler.last_seen is not None
        assert abs(scheduler.last_seen - datetime.now(UTC)) < timedelta(minutes=1)
    finally:
        scheduler.shutdown()


async def test_a_post_tried_again_while_its_retry_waits_keeps_one_retry(db: Database) -> None:
    """A /league command tries a waiting post again before its retry has come:
    still waiting, and the retry is replaced, not refused as a second job."""
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock, paused=False)
    try:
        for kind, hhmm in (("groupings", "12:00"), ("cutoff", "15:00"), ("lock", "19:15")):
            clock.now = at(FIRST, hhmm)
            await scheduler.run(kind)
        await play(db, FIRST)  # not finalized: next week's groupings must wait
        clock.now = at(FIRST + timedelta(days=7), "12:00")
        assert await scheduler.run("groupings") == "waiting"
        assert await scheduler.run("groupings") == "waiting"  # the command's try
        assert [j for j in scheduler.jobs() if j.startswith("wait:")] == ["wait:groupings"]
        assert scheduler.waits == {("groupings", FIRST + timedelta(days=7)): 2}
    finally:
        scheduler.shutdown()


async def test_a_waiting_post_is_tried_again_after_the_wait_not_at_once(db: Database) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    wait = timedelta(minutes=15)
    scheduler = await scheduler_on(db, channel, clock, wait_delay=wait, paused=False)
    try:
        for kind, hhmm in (("groupings", "12:00"), ("cutoff", "15:00"), ("lock", "19:15")):
            clock.now = at(FIRST, hhmm)
            await scheduler.run(kind)
        await play(db, FIRST)  # not finalized: next week's groupings must wait
        clock.now = at(FIRST + timedelta(days=7), "12:00")
        asked = datetime.now(UTC)
        assert await scheduler.run("groupings") == "waiting"
        retry = scheduler.jobs()["wait:groupings"]
        due = retry.next_run_time  # type: ignore[attr-defined]
        assert asked + wait - timedelta(seconds=5) <= due <= datetime.now(UTC) + wait
        assert retry.args == ("groupings",)  # type: ignore[attr-defined]
    finally:
        scheduler.shutdown()


async def test_a_gap_counts_from_just_over_two_sweeps(db: Database) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        start = scheduler.offline[:]
        clock.now += 2 * SWEEP_EVERY  # two sweeps apart exactly: still running
        await scheduler.sweep()
        assert scheduler.offline == start
        clock.now += 2 * SWEEP_EVERY + timedelta(seconds=1)  # just over: a gap
        gap_from = clock.now - 2 * SWEEP_EVERY - timedelta(seconds=1)
        await scheduler.sweep()
        assert scheduler.offline == [*start, (gap_from, clock.now)]
        assert scheduler.last_seen == clock.now
        clock.now += timedelta(minutes=12)  # 2.4 sweeps: a gap too
        await scheduler.sweep()
        assert len(scheduler.offline) == len(start) + 2
    finally:
        scheduler.shutdown()


async def test_the_sweep_goes_by_the_leagues_day_not_utcs(db: Database) -> None:
    """22:30 in New York is already tomorrow in UTC: tonight's posts are still
    tonight's, so a post waiting tonight is left to its retries."""
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        day = FIRST
        scheduler.waits = {("grace", day): 3}
        clock.now = at(day, "22:30")
        assert clock.now.astimezone(UTC).date() != day
        swept = await scheduler.sweep()
        assert "grace" not in swept  # waiting tonight: not swept
        assert scheduler.waits == {("grace", day): 3}
    finally:
        scheduler.shutdown()


async def test_a_lock_with_nothing_to_post_posts_nothing(db: Database) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "19:15"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        before = await channel.posts()  # what the start's catch-up made owed
        assert await scheduler.lock_post([], clock.now) == "none"
        assert await channel.posts() == before
    finally:
        scheduler.shutdown()


async def test_a_waiting_posts_retry_runs_however_late_it_comes(db: Database) -> None:
    """The event loop was blocked (or the machine asleep) past the retry's time:
    it still runs, late, rather than being dropped as missed (APScheduler drops
    a job more than a second late unless told otherwise)."""
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock, wait_delay=timedelta(seconds=0.1),
                                   paused=False)  # fmt: skip
    ran: asyncio.Queue[int] = asyncio.Queue()

    def heard(event: JobExecutionEvent) -> None:
        if event.job_id == "wait:groupings":
            ran.put_nowait(event.code)

    scheduler.scheduler.add_listener(heard, EVENT_JOB_EXECUTED | EVENT_JOB_MISSED)
    try:
        for kind, hhmm in (("groupings", "12:00"), ("cutoff", "15:00"), ("lock", "19:15")):
            clock.now = at(FIRST, hhmm)
            await scheduler.run(kind)
        await play(db, FIRST)  # not finalized: next week's groupings must wait
        clock.now = at(FIRST + timedelta(days=7), "12:00")
        assert await scheduler.run("groupings") == "waiting"
        time.sleep(1.5)  # noqa: ASYNC251 (the point: the loop is blocked past the retry)
        async with asyncio.timeout(10):
            assert await ran.get() == EVENT_JOB_EXECUTED  # run late, not missed
        assert scheduler.waits == {("groupings", FIRST + timedelta(days=7)): 2}
    finally:
        scheduler.shutdown()


@pytest.mark.parametrize(
    "start",
    [
        pytest.param(FIRST + timedelta(days=1), id="Thursday"),
        pytest.param(FIRST + timedelta(days=5), id="Monday"),
        pytest.param(FIRST + timedelta(days=6), id="Tuesday"),
        pytest.param(FIRST + timedelta(days=7), id="the next Wednesday"),
    ],
)
async def test_a_start_on_any_day_finds_the_last_league_nights_posts_not_made(
    db: Database, start: date
) -> None:
    """The bot was down over Wednesday's league night: started any day until the
    next one (before its posts are due), it records that night's posts as not
    posted on their day, which the commissioner's status shows."""
    channel = Channel(db)
    scheduler = await started(db, channel, at(start, "09:00"))
    scheduler.shutdown()
    for kind in ("groupings", "cutoff", "lock", "grace"):
        record = await announcements.post_record(db, GUILD, f"{kind}:{FIRST.isoformat()}")
        assert record is not None and record.status == "skipped", kind
