"""A post goes out whenever it becomes owed on its day, and says it is late only
when the bot was not running at its time (R1.3; the scheduler's catch-up, its
sweep, its waits, jobs missed by any amount, and `/league night lock`)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

import pytest
from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED

from bot.client import LeagueBot
from bot.config import load_settings
from bot.database import Database
from bot.scheduler import MAX_WAITS, SWEEP_EVERY, LeagueScheduler
from bot.services import (
    announcements,
    approvals,
    finalize,
    groups,
    membership,
    outbox,
    scores,
    setup,
    skips,
)
from cogs.commissioner import Commissioner
from tests.cogs import fakes
from tests.cogs.conftest import COMMISSIONER, as_user
from tests.cogs.fakes import FakeBot, FakeInteraction, invoke
from tests.scheduler.conftest import FIRST, GUILD, Channel, Clock, at, fill, migrated

LATE = "(Posted late"
NOTHING_OWED = {"groupings": "none", "cutoff": "none", "lock": "none", "grace": "none"}
COMMISSIONER_COG = Commissioner()
LOCK, RESEND = (
    next(c for c in COMMISSIONER_COG.walk_app_commands() if c.qualified_name == name)
    for name in ("league night lock", "league admin resend")
)


async def scheduler_on(
    db: Database, channel: Channel, clock: Clock, *, paused: bool = True, **kwargs: object
) -> LeagueScheduler:
    scheduler = LeagueScheduler(db, GUILD, channel.wake, clock=clock, **kwargs)  # type: ignore[arg-type]
    await scheduler.start(paused=paused)
    return scheduler


async def play(db: Database, day: date) -> None:
    """Everyone scores on all five games, the scores are approved (not finalized)."""
    for player in range(1, 7):
        for game in range(1, 6):
            score = (10 - player) * 1_000_000 + game
            await scores.submit(db, GUILD, player, game, score, now=at(day, "20:00"))
    for group in ("1", "2"):
        await approvals.approve_all(db, GUILD, group, by=99, now=at(day, "22:00"))


async def running(scheduler: LeagueScheduler, clock: Clock, until: datetime) -> None:
    """The bot runs on until `until`: its sweep every five minutes, as APScheduler
    would run it (its signs of life: no gap, nothing said to be late)."""
    while clock.now + SWEEP_EVERY < until:
        clock.now += SWEEP_EVERY
        await scheduler.sweep()
    clock.now = until


# --- owed after a command, with no false "offline" note ---------------------------------


async def test_a_season_started_after_12_gets_its_groupings_now_with_no_late_note(
    tmp_path: Path,
) -> None:
    db = await migrated(tmp_path)
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    try:
        await setup.create_league(db, GUILD, "League", now=clock.now)
        scheduler = await scheduler_on(db, channel, clock)
        assert scheduler.jobs() == {}  # no season: nothing scheduled, nothing owed
        await running(scheduler, clock, at(FIRST, "13:10"))
        await setup.start_season(db, GUILD, "Spring", FIRST, now=clock.now)
        await fill(db, clock.now)
        await scheduler.rebuild()  # what the bot does after /league season start …
        said = await scheduler.catch_up()  # … and after every /league command
        scheduler.shutdown()
        assert said == {**NOTHING_OWED, "groupings": "owed"}
        (groupings,) = await channel.posts()
        assert groupings.startswith("Week 1 · Wednesday 04 March 2026")
        assert LATE not in groupings  # the bot was online at 12:00: no false excuse
        # A restart later that day does not post it again, nor call it late.
        clock.now = at(FIRST, "14:00")
        again = await scheduler_on(db, channel, clock)
        again.shutdown()
        assert await channel.owed() == [] and len(await channel.posts()) == 1
    finally:
        await db.close()


async def test_a_post_time_moved_before_now_posts_at_once_with_no_late_note(
    db: Database,
) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        await running(scheduler, clock, at(FIRST, "11:40"))
        assert await scheduler.catch_up() == NOTHING_OWED
        await setup.set_league_time(db, GUILD, "groupings_time", time(11, 30))
        await scheduler.rebuild()
        assert (await scheduler.catch_up())["groupings"] == "owed"
        (groupings,) = await channel.posts()
        assert LATE not in groupings
        # The job itself now fires at 11:30: next week's, since today's went out.
        job = scheduler.jobs()["post:groupings"]
        fire = job.trigger.get_next_fire_time(None, clock.now)  # type: ignore[attr-defined]
        assert fire.astimezone(at(FIRST, "00:00").tzinfo) == at(FIRST + timedelta(days=7), "11:30")
        clock.now = at(FIRST, "12:00")
        assert await scheduler.run("groupings") == "already"
    finally:
        scheduler.shutdown()


async def test_r1_2_a_date_skipped_after_12_gets_its_one_line_notice_now(db: Database) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        await running(scheduler, clock, at(FIRST, "12:00"))
        assert await scheduler.run("groupings") == "owed"
        await running(scheduler, clock, at(FIRST, "13:00"))
        await skips.skip_date(db, GUILD, FIRST, "snow", now=clock.now)
        await scheduler.rebuild()
        assert await scheduler.catch_up() == {**NOTHING_OWED, "groupings": "owed"}
        clock.now = at(FIRST, "15:00")
        assert await scheduler.run("cutoff") == "none"  # no night today any more
    finally:
        scheduler.shutdown()
    assert (await channel.posts())[1:] == [
        "No league night on Wednesday 04 March: snow.",  # /league season skip's own
        "No league night today (Wednesday 04 March): the commissioner skipped this date.",
    ]


async def test_a_restart_says_late_only_for_the_posts_whose_time_it_was_down_for(
    db: Database,
) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "11:00"))
    first = await scheduler_on(db, channel, clock)
    clock.now = at(FIRST, "12:00")
    assert await first.run("groupings") == "owed"
    first.shutdown()  # down from 14:00 to 15:20: the cutoff's 15:00 passes meanwhile
    clock.now = at(FIRST, "15:20")
    again = await scheduler_on(db, channel, clock)
    again.shutdown()
    groupings, cutoff = await channel.posts()
    assert LATE not in groupings
    assert cutoff.endswith("(Posted late: the bot was offline at 15:00.)")


# --- waits: per post and day, reset when it goes out --------------------------------------


def fire(scheduler: LeagueScheduler, job_id: str) -> object:
    """The one-off job `job_id` runs, as APScheduler would run it: it is removed
    from the store and its body called."""
    job = scheduler.scheduler.get_job(job_id)
    assert job is not None, f"{job_id} is not scheduled"
    job.remove()
    return job.func(*job.args)


async def test_waits_count_per_post_and_day_and_start_afresh_each_week_for_three_weeks(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    # Signs of life every 15 minutes (the retries) are no gap with a 15-minute sweep.
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock, sweep_every=timedelta(minutes=15))
    try:
        # Week 1: every post at its time.
        for kind, hhmm in (("groupings", "12:00"), ("cutoff", "15:00"), ("lock", "19:15")):
            clock.now = at(FIRST, hhmm)
            assert await scheduler.run(kind) == "owed"
        await play(db, FIRST)  # played, not finalized
        for week, day in ((2, FIRST + timedelta(days=7)), (3, FIRST + timedelta(days=14))):
            # Last week is not finalized: the groupings wait, tried every 15 minutes.
            clock.now = at(day, "12:00")
            assert await scheduler.run("groupings") == "waiting"
            assert scheduler.waits == {("groupings", day): 1}  # afresh: last week's are gone
            tries = 1
            while "wait:groupings" in scheduler.jobs():
                clock.now += timedelta(minutes=15)
                assert await fire(scheduler, "wait:groupings") == "waiting"  # type: ignore[misc]
                tries += 1
                if week == 3 and tries == 3:
                    break
            if week == 2:
                assert tries == MAX_WAITS  # bounded per day: no 17th try is scheduled
                assert f"groupings post of {day} still cannot be made after 16" in caplog.text
                # The sweep leaves a waiting post alone (no 17th try); the cutoff
                # (15:00, it was not run at its time here) needs no groups: it goes out.
                swept = await scheduler.sweep()
                assert swept == {"cutoff": "owed", "lock": "none", "grace": "none"}
                assert scheduler.waits == {("groupings", day): MAX_WAITS}
            # The commissioner finalizes last week: the command's catch-up posts them.
            clock.now += timedelta(minutes=20)
            await finalize.finalize(db, GUILD, week=week - 1, by=99, now=clock.now)
            owed = await scheduler.catch_up()
            also = {"cutoff": "already"} if week == 2 else {}
            assert owed == {**NOTHING_OWED, "groupings": "owed", **also}
            assert scheduler.waits == {}  # reset on success
            if "wait:groupings" in scheduler.jobs():  # the pending retry finds it done
                assert await fire(scheduler, "wait:groupings") == "already"  # type: ignore[misc]
            assert scheduler.waits == {}
            for kind, hhmm in (("cutoff", "15:00"), ("lock", "19:15")):
                clock.now = max(clock.now, at(day, hhmm))
                assert await scheduler.run(kind) == ("already" if kind in also else "owed")
            await play(db, day)
    finally:
        scheduler.shutdown()
    groupings = await channel.of("Late or not coming? Tap a button below")
    assert [g.splitlines()[0] for g in groupings] == [
        "Week 1 · Wednesday 04 March 2026",
        "Week 2 · Wednesday 11 March 2026",
        "Week 3 · Wednesday 18 March 2026",
    ]
    assert await channel.of(LATE) == []  # late, but the bot was running: no note


# --- jobs missed by more than any grace, and the sweep ----------------------------------


async def test_a_job_missed_by_twenty_minutes_still_posts_once(db: Database) -> None:
    """The event loop was blocked (or the machine asleep) across 12:00: the job
    runs when APScheduler gets to it, 20 minutes late, and posts once."""
    channel, clock = Channel(db), Clock(at(FIRST, "11:55"))
    scheduler = await scheduler_on(db, channel, clock, paused=False)
    try:
        clock.now = at(FIRST, "12:20")
        job = scheduler.scheduler.get_job("post:groupings")
        assert job is not None
        ran = asyncio.Event()
        scheduler.scheduler.add_listener(
            lambda event: ran.set() if event.job_id == "post:groupings" else None,
            EVENT_JOB_EXECUTED | EVENT_JOB_ERROR,
        )
        missed = datetime.now(UTC) - timedelta(minutes=20)
        job.modify(next_run_time=missed)  # wakes the scheduler: its run time is long past
        async with asyncio.timeout(10):
            await ran.wait()  # the job has run to its end
        # and its next run is still to come: the missed one does not run twice
        again = scheduler.scheduler.get_job("post:groupings")
        assert again is not None and again.next_run_time > datetime.now(UTC)
    finally:
        scheduler.shutdown()
    assert channel.woken == 1
    (groupings,) = await channel.posts()
    assert "\n(Posted late: the bot was offline at 12:00.)\n" in groupings  # 11:55 → 12:20
    item = await channel.item("groupings:2026-03-04")
    assert item is not None and item.status == "sent"


async def test_the_sweep_posts_what_no_job_made_and_says_late_only_after_a_gap(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        for hhmm in ("09:05", "09:10"):  # the sweep, every 5 minutes
            clock.now = at(FIRST, hhmm)
            assert await scheduler.sweep() == NOTHING_OWED
        with caplog.at_level(logging.WARNING, logger="bot.scheduler"):
            # The clock stepped (or the machine slept) 09:10 → 11:55: a gap, noted.
            clock.now = at(FIRST, "11:55")
            assert await scheduler.sweep() == NOTHING_OWED
            clock.now = at(FIRST, "12:00")
            assert await scheduler.sweep() == {**NOTHING_OWED, "groupings": "owed"}
            # Blocked from 14:58 to 15:31: the 15:00 job never ran; the sweep posts it.
            clock.now = at(FIRST, "14:58")
            assert (await scheduler.sweep())["cutoff"] == "none"
            clock.now = at(FIRST, "15:31")
            assert (await scheduler.sweep())["cutoff"] == "owed"
            clock.now = at(FIRST, "15:36")
            assert (await scheduler.sweep())["cutoff"] == "already"
        assert "the scheduler did not run from" in caplog.text
    finally:
        scheduler.shutdown()
    groupings, cutoff = await channel.posts()
    assert LATE not in groupings  # on time: the gap ended before 12:00
    assert cutoff.endswith("(Posted late: the bot was offline at 15:00.)")


async def test_the_sweep_is_scheduled_to_run_late_rather_than_never(db: Database) -> None:
    scheduler = await scheduler_on(db, Channel(db), Clock(at(FIRST, "09:00")))
    try:
        jobs = scheduler.jobs()
        assert set(jobs) == {"post:groupings", "post:cutoff", "post:lock", "post:grace", "sweep"}
        for job in jobs.values():
            assert (job.coalesce, job.misfire_grace_time, job.max_instances) == (True, None, 1)  # type: ignore[attr-defined]
        assert jobs["sweep"].trigger.interval == timedelta(minutes=5)  # type: ignore[attr-defined]
    finally:
        scheduler.shutdown()


async def test_the_job_the_sweep_and_a_command_at_the_same_moment_post_once(
    db: Database,
) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "19:10"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        clock.now = at(FIRST, "19:15")
        said = await asyncio.gather(scheduler.run("lock"), scheduler.sweep(), scheduler.catch_up())
    finally:
        scheduler.shutdown()
    assert [said[0], said[1]["lock"], said[2]["lock"]] == ["owed", "already", "already"]
    # Once; the groupings and cutoff, owed since the start, are not in this race.
    assert await channel.owed() == ["groupings:2026-03-04", "cutoff:2026-03-04",
                                    "lock:2026-03-04"]  # fmt: skip
    assert channel.woken == 3
    assert len(await channel.of("picks are locked")) == 1


async def test_a_post_owed_yesterday_is_not_made_today(db: Database) -> None:
    channel, clock = Channel(db), Clock(at(FIRST, "09:00"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        clock.now = at(FIRST + timedelta(days=1), "00:05")  # asleep from 09:00 until after midnight
        assert await scheduler.sweep() == NOTHING_OWED
        assert await scheduler.run("grace") == "none"  # the 19:30 job, run at last
    finally:
        scheduler.shutdown()
    assert await channel.owed() == [] and await channel.posts() == []


# --- /league night lock and the 19:15 job: one post path ---------------------------------


@pytest.fixture
async def cog_league(tmp_path: Path) -> AsyncIterator[FakeBot]:
    """The league in the cogs' fake server; its season starts on FIRST."""
    db = await migrated(tmp_path)
    now = at(date(2026, 3, 1), "10:00")
    await setup.create_league(db, fakes.GUILD, "League", now=now)
    await setup.start_season(db, fakes.GUILD, "Spring", FIRST, now=now)
    await fill(db, now, guild=fakes.GUILD)
    try:
        yield FakeBot(db, tmp_path)
    finally:
        await db.close()


async def lock_command(bot: FakeBot, when: datetime) -> str:
    said = await invoke(LOCK, COMMISSIONER_COG, as_user(bot, COMMISSIONER, when))
    return said.text


async def all_posts(bot: FakeBot) -> list[str]:
    """The announcement channel, once the outbox has delivered what is owed."""
    await bot.outbox.flush()
    return [fakes.shown(m) for m in bot.channels[fakes.ANNOUNCEMENTS].sent]


async def lock_posts(bot: FakeBot) -> list[str]:
    return [p for p in await all_posts(bot) if "picks are locked" in p]


def games(text: str) -> list[str]:
    """Each group's games and play order, as a lock post or reply lists them."""
    return [line for line in text.splitlines() if line.startswith(("**Group", "  Game 1"))]


async def bot_scheduler(bot: FakeBot, clock: Clock) -> LeagueScheduler:
    """The bot's scheduler, owing its posts to the bot's outbox as LeagueBot's does, on `clock`."""
    scheduler = LeagueScheduler(bot.db, fakes.GUILD, bot.outbox.wake, clock=clock)
    await scheduler.start(paused=True)
    bot.schedulers[fakes.GUILD] = scheduler
    return scheduler


async def test_lock_command_first_then_the_1915_job_posts_once(cog_league: FakeBot) -> None:
    bot, clock = cog_league, Clock(at(FIRST, "18:00"))
    scheduler = await bot_scheduler(bot, clock)
    try:
        reply = await lock_command(bot, at(FIRST, "18:30"))
        clock.now = at(FIRST, "19:15")
        assert await scheduler.run("lock") == "already"
        assert await scheduler.catch_up() == {**NOTHING_OWED, "groupings": "already",
                                              "cutoff": "already", "lock": "already"}  # fmt: skip
    finally:
        scheduler.shutdown()
    (posted,) = await lock_posts(bot)
    assert posted == reply and posted.startswith("**Week 1: picks are locked.**")
    record = await announcements.post_record(bot.db, fakes.GUILD, "lock:2026-03-04")
    assert record is not None and record.status == "claimed"


async def test_the_1915_job_first_then_the_lock_command_posts_once(cog_league: FakeBot) -> None:
    bot, clock = cog_league, Clock(at(FIRST, "19:00"))
    scheduler = await bot_scheduler(bot, clock)
    try:
        clock.now = at(FIRST, "19:15")
        assert await scheduler.run("lock") == "owed"
        reply = await lock_command(bot, at(FIRST, "19:20"))
    finally:
        scheduler.shutdown()
    (posted,) = await lock_posts(bot)
    assert reply.startswith("Already locked; nothing changed.\n**Week 1: picks are locked.**")
    assert games(reply) == games(posted)


async def test_a_lock_post_the_command_could_not_send_is_kept_and_sent_by_resend(
    cog_league: FakeBot,
) -> None:
    bot, clock = cog_league, Clock(at(FIRST, "18:00"))
    scheduler = await bot_scheduler(bot, clock)
    channel = bot.channels[fakes.ANNOUNCEMENTS]
    try:
        assert len(await all_posts(bot)) == 2  # the groupings and cutoff, owed at the start
        channel.refuse = True
        reply = await lock_command(bot, at(FIRST, "18:30"))
        assert await lock_posts(bot) == []
        # Refused for good (403): kept as failed, the commissioner alerted once.
        (alert,) = [m for m in bot.channels[fakes.APPROVALS].sent if m.content]  # not the board
        assert alert.content.startswith("Heads-up: Discord refused 1 post of the bot.")
        channel.refuse = False
        clock.now = at(FIRST, "19:15")
        assert await scheduler.run("lock") == "already"  # the key was claimed: not made again
        assert await lock_posts(bot) == []
        said = await invoke(RESEND, COMMISSIONER_COG, as_user(bot, COMMISSIONER, clock.now))
        assert said.text.startswith("1 failed post will be sent again.")
    finally:
        scheduler.shutdown()
    # The post the commissioner was shown, as worded then (R4.5's note included).
    (posted,) = await lock_posts(bot)
    assert posted == reply and "(not enough picks" in posted
    assert len([m for m in bot.channels[fakes.APPROVALS].sent if m.content]) == 1


async def test_a_refused_groupings_post_is_resent_as_it_was_frozen(db: Database) -> None:
    """The groupings post is owed as its embeds' JSON, so the post sent
    after a refusal is the one made at 12:00, not the league as it is later."""
    channel, clock = Channel(db), Clock(at(FIRST, "11:00"))
    scheduler = await scheduler_on(db, channel, clock)
    try:
        channel.refuse = True
        clock.now = at(FIRST, "12:00")
        assert await scheduler.run("groupings") == "owed"
        assert await channel.posts() == []  # 403: kept as failed
        item = await channel.item("groupings:2026-03-04")
        assert item is not None and item.status == "failed"
        frozen = json.loads(item.data)["embeds"]
        # P7 joins afterwards: a post made now would list P7's pre-makeups owed
        await membership.add_player(db, GUILD, "P7", discord_id=7, now=clock.now)
        fresh = await groups.week_view(db, GUILD, week=1, now=clock.now)
        assert "P7" in fresh.owes_pre_makeups  # what a post worded now would show
        channel.refuse = False
        await outbox.resend(db, GUILD, now=clock.now)
        (posted,) = await channel.posts()
    finally:
        scheduler.shutdown()
    [message] = channel.bot.channels[fakes.ANNOUNCEMENTS].sent
    assert [e.to_dict() for e in message.embeds] == frozen[0] and len(frozen) == 1
    assert posted.startswith("Week 1 · Wednesday 04 March 2026") and "P7" not in posted


# --- the bot: after a /league command ------------------------------------------------------


class Command:
    def __init__(self, qualified_name: str) -> None:
        self.qualified_name = qualified_name


async def test_after_a_league_command_the_bot_posts_what_it_made_owed(tmp_path: Path) -> None:
    settings = load_settings(
        env={
            "DISCORD_TOKEN": "x" * 59, "LEAGUE_GUILD_ID": str(fakes.GUILD),
            "COMMISSIONER_ROLE_ID": "222222222222222222",
            "ANNOUNCEMENT_CHANNEL_ID": "333333333333333333",
            "APPROVALS_CHANNEL_ID": "444444444444444444",
            "DATABASE_PATH": str(tmp_path / "league.sqlite3"),
        }
    )  # fmt: skip
    clock = Clock(at(FIRST, "09:00"))
    bot = LeagueBot(settings, clock=clock)
    try:
        await bot.setup_hook()
        scheduler = bot.scheduler_of(fakes.GUILD)
        assert scheduler is not None
        assert scheduler.wake == bot.outbox.wake  # it owes posts to the bot's outbox
        # No Discord here: the bot's sender stops; a fake one delivers what it owed.
        await bot.outbox.stop()
        channel = Channel(bot.db)
        koi = FakeInteraction(bot, COMMISSIONER, clock.now)  # type: ignore[arg-type]
        await setup.create_league(bot.db, fakes.GUILD, "League", now=clock.now)
        await bot.on_app_command_completion(koi, Command("league season setup"))  # type: ignore[arg-type]
        await running(scheduler, clock, at(FIRST, "12:30"))
        await setup.start_season(bot.db, fakes.GUILD, "Spring", FIRST, now=clock.now)
        await bot.on_app_command_completion(koi, Command("league season start"))  # type: ignore[arg-type]
        assert await channel.owed() == []  # no players yet: the groupings wait
        await fill(bot.db, clock.now, guild=fakes.GUILD)
        await bot.on_app_command_completion(koi, Command("standings"))  # type: ignore[arg-type]
        assert await channel.owed() == []  # a player's command does not look
        await bot.on_app_command_completion(koi, Command("league machine add"))  # type: ignore[arg-type]
        assert await channel.owed() == ["groupings:2026-03-04"]
        (groupings,) = await channel.posts()
        assert groupings.startswith("Week 1 · Wednesday 04 March 2026")
        assert LATE not in groupings
    finally:
        await bot.close()
