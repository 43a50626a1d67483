"""Playoff night's scheduled posts (R13.4, R13.5): at the league's times on its
date, also when the commissioner moved it off the league weekday."""

from __future__ import annotations

from datetime import timedelta

from bot.database import Database
from bot.services import finalize, picks, playoff_checkin, playoffs, setup
from tests.scheduler.conftest import FIRST, GUILD, Channel, Clock, at
from tests.scheduler.test_owed_posts import play, scheduler_on

THURSDAY = FIRST + timedelta(days=8)  # playoff night moved off the league weekday


async def last_night_played(db: Database) -> None:
    """A season of one night, played and finalized: playoff night is set for
    the Wednesday after."""
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=at(FIRST, "09:00"))
    await picks.lock_picks(db, GUILD, now=at(FIRST, "19:15"))
    await play(db, FIRST)
    await finalize.finalize(db, GUILD, by=99, now=at(FIRST, "23:00"))


async def test_r13_4_a_moved_playoff_night_gets_its_posts_on_its_own_date(db: Database) -> None:
    await last_night_played(db)
    await playoffs.move(db, GUILD, THURSDAY, now=at(FIRST, "23:30"))
    channel, clock = Channel(db), Clock(at(FIRST, "23:45"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        jobs = scheduler.jobs()
        for kind, when in (("groupings", "12:00"), ("grace", "19:30")):
            job = jobs[f"playoff:{kind}"]
            fire = job.trigger.get_next_fire_time(None, clock.now)  # type: ignore[attr-defined]
            assert fire == at(THURSDAY, when)
        assert "playoff:cutoff" not in jobs and "playoff:lock" not in jobs
        clock.now = at(THURSDAY, "12:00")
        assert await scheduler.run("groupings") == "owed"
        clock.now = at(THURSDAY, "15:00")
        assert await scheduler.run("cutoff") == "none"  # no late-notice cutoff on playoff night
        # Two groups of three: their winners P1 and P4 qualify; P2 is the first alternate.
        await playoff_checkin.check_in(db, GUILD, "P1, P2", now=at(THURSDAY, "19:10"))
        clock.now = at(THURSDAY, "19:30")
        assert await scheduler.run("grace") == "owed"
        assert await scheduler.run("grace") == "already"
        (tonight,) = await channel.of("Playoffs tonight")
        assert tonight.startswith("**Playoffs tonight** (Thursday 12 March)")
        (grace,) = await channel.of("grace period is over")
        assert "- P4 is not checked in: P2 takes the place." in grace
    finally:
        scheduler.shutdown()


async def test_r13_4_playoff_night_on_the_weekday_needs_no_jobs_of_its_own(db: Database) -> None:
    await last_night_played(db)
    channel, clock = Channel(db), Clock(at(FIRST, "23:45"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        assert not [j for j in scheduler.jobs() if j.startswith("playoff:")]
        clock.now = at(FIRST + timedelta(days=7), "12:00")
        assert await scheduler.run("groupings") == "owed"
        (tonight,) = await channel.of("Playoffs tonight")
        assert tonight.startswith("**Playoffs tonight** (Wednesday 11 March)")
    finally:
        scheduler.shutdown()
