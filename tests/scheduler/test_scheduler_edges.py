"""The scheduler at its edges: it runs its jobs (not paused) once the bot
starts, a waiting post is tried again after the wait and not at once, a gap in
its signs of life counts from just over two sweeps, the sweep's day is the
league's (not UTC's), and a lock with nothing to post posts nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.base import STATE_RUNNING

from bot.database import Database
from bot.scheduler import SWEEP_EVERY, LeagueScheduler
from tests.scheduler.conftest import FIRST, GUILD, Channel, Clock, at
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
