"""The week's posts on the league's wall clock (APScheduler 3.11).

One cron job per kind of post, on the league weekday by name, at the league's
local time (R1.3) in its time zone, rebuilt from the database at start and
whenever the commissioner changes a time, the season or a date. Job bodies are
thin: `announcements.due` gathers what the post says, `render.post` (or
`embeds.groupings`) words it, and `announcements.enqueue` claims its key and
owes the text (or the embeds) to the outbox in one
transaction, so it goes out once (`deliver`: the one post path, which `/league
night lock` uses too). The outbox's sender (`bot/delivery`) sends it: retries,
backoff, the nonce, a refusal kept and reported to the commissioner, and
`/league admin resend` are its business; `wake` tells it something is owed.

A post goes out whenever it becomes owed on its day, not only at its time:
- at start, after every `/league` command (`catch_up`: a season created, a
  time changed, a date skipped, last week finalized after a post's time) and
  every few minutes (`sweep`: a job that did not run because the event loop
  was blocked, the machine slept or the clock was stepped). Jobs that run late
  still run (no misfire grace), once (coalesced).
- A post says it is late only when the bot was not running at its time: before
  the scheduler started, or in a gap between two signs of life longer than two
  sweeps.
- A post that cannot be made yet (last week is not finalized) is tried again
  every `wait_delay`, at most `MAX_WAITS` times per post and day; a `/league`
  command tries it again too.
The last league day's posts that never went out are logged as skipped at start.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from bot.database import Database
from bot.scoring import weekday_number
from bot.services import announcements, reminders
from bot.services.announcements import KINDS, PLAYOFF_KINDS, Span, post_time
from bot.services.outcomes.night import LockedGroup
from bot.services.outcomes.posts import GroupingsPost, LockPost, Post
from bot.ui import embeds, render
from bot.ui.threads import opening, thread_name

log = logging.getLogger(__name__)

# A job that could not run at its time (event loop blocked, machine asleep,
# clock stepped) runs as soon as it can, however late: `due` refuses a post
# whose day is over, and coalescing runs it once.
MISFIRE_GRACE = None
JOB_OPTIONS = {"coalesce": True, "misfire_grace_time": MISFIRE_GRACE, "max_instances": 1}
MAX_WAITS = 16  # tries a day for a post that cannot be made yet (4 hours at 15 minutes)
SWEEP_EVERY = timedelta(minutes=5)
PLAYOFF_JOBS = [f"playoff:{kind}" for kind in PLAYOFF_KINDS]
KEEP_SPANS = timedelta(days=2)  # offline spans older than this no longer matter
# Found at start for the last league day: the bot may have been down, or up but
# unable to make it (last week never finalized) until the day was over.
NOT_POSTED = "not posted on its day (the bot was offline, or the post could not be made)"

Wake = Callable[[], None]  # something was owed to the outbox: deliver it now
Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LeagueScheduler:
    def __init__(
        self,
        db: Database,
        guild_id: int,
        wake: Wake,
        *,
        clock: Clock = _utc_now,
        wait_delay: timedelta = timedelta(minutes=15),
        sweep_every: timedelta = SWEEP_EVERY,
        keep: Wake | None = None,
    ) -> None:
        """`keep`: called at start, after each catch-up and sweep, to bring what the
        league shows elsewhere in its server (its nights' events) in line."""
        self.db = db
        self.keep = keep
        self.guild_id = guild_id
        self.wake = wake
        self.clock = clock
        self.wait_delay = wait_delay
        self.sweep_every = sweep_every
        self.waits: dict[tuple[str, date], int] = {}  # (kind, league day) -> tries
        self.offline: list[Span] = []  # when the bot was not running
        self.last_seen: datetime | None = None
        self.zone: ZoneInfo | None = None  # the league's, once a season exists
        self.posting = asyncio.Lock()  # one post at a time: jobs, sweep, commands
        self.scheduler = AsyncIOScheduler(timezone=UTC)

    async def start(self, *, paused: bool = False) -> None:
        """Start on the running event loop, build the jobs, catch up on missed posts."""
        now = self.clock()
        self.offline = [(datetime.min.replace(tzinfo=UTC), now)]  # down until now
        self.last_seen = now
        self.scheduler.start(paused=paused)
        await self.rebuild()
        await self._log_skipped(now)
        await self.catch_up()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    async def rebuild(self) -> None:
        """(Re)create one job per kind from the league's times and the season's
        weekday, and the sweep (nothing is owed before a season exists)."""
        for job_id in [f"post:{kind}" for kind in KINDS] + ["sweep"] + PLAYOFF_JOBS:
            if self.scheduler.get_job(job_id):
                self.scheduler.remove_job(job_id)
        basis = await announcements.schedule_basis(self.db, self.guild_id)
        if basis is None:
            self.zone = None
            log.info("no season yet: nothing scheduled")
            return
        league, weekday = basis
        self.zone = ZoneInfo(league.time_zone)
        for kind in KINDS:
            at = post_time(league, kind)
            trigger = CronTrigger(
                day_of_week=weekday_number(weekday), hour=at.hour, minute=at.minute,
                timezone=self.zone,
            )  # fmt: skip
            self.scheduler.add_job(
                self.run, trigger, args=[kind], id=f"post:{kind}", name=f"{kind} post",
                replace_existing=True, **JOB_OPTIONS,
            )  # fmt: skip
        await self._playoff_jobs()
        self.scheduler.add_job(
            self.sweep, IntervalTrigger(seconds=self.sweep_every.total_seconds()), id="sweep",
            name="owed posts sweep", replace_existing=True, **JOB_OPTIONS,
        )  # fmt: skip
        log.info("scheduled posts for %ss in %s", weekday, league.time_zone)

    async def _playoff_jobs(self) -> None:
        """R13.4: playoff night moved off the league weekday gets its own posts at
        the league's times on its date (on the weekday, the weekly jobs run)."""
        for kind, at in (await announcements.playoff_post_times(self.db, self.guild_id)).items():
            if at > self.clock():
                self.scheduler.add_job(
                    self.run, DateTrigger(at), args=[kind], id=f"playoff:{kind}",
                    name=f"playoff night {kind} post", replace_existing=True, **JOB_OPTIONS,
                )  # fmt: skip

    def jobs(self) -> dict[str, object]:
        return {job.id: job for job in self.scheduler.get_jobs()}

    async def run(self, kind: str) -> str:
        """A job body: post `kind` if it is owed today and not yet posted."""
        now = self.clock()
        self._seen(now)
        return await self._post_logged(kind, now)

    async def catch_up(self) -> dict[str, str]:
        """Every post owed now goes out now: at start, and after a command that
        may have made one owed (a season set up or started, players added, a
        time changed, a date skipped, last week finalized)."""
        now = self.clock()
        self._seen(now)
        done = {kind: await self._post_logged(kind, now) for kind in KINDS}
        self._keep()
        return done

    async def sweep(self) -> dict[str, str]:
        """Every few minutes: owed posts that no job has made (the loop was
        blocked, the machine slept, the clock jumped). A post that is waiting
        is left to its own retries and to commands."""
        now = self.clock()
        self._seen(now)
        if self.zone is None:
            return {}
        today = now.astimezone(self.zone).date()
        self.waits = {k: n for k, n in self.waits.items() if k[1] == today}
        done = {
            kind: await self._post_logged(kind, now)
            for kind in KINDS
            if (kind, today) not in self.waits
        }
        await self._reminders(now)
        self._keep()
        return done

    def _keep(self) -> None:
        if self.keep is not None:
            self.keep()

    async def _reminders(self, now: datetime) -> None:
        """The night's later reminders (missing scores, scores waiting), once due."""
        try:
            if await reminders.due(self.db, self.guild_id, now):
                self.wake()
        except Exception:
            log.exception("the night's reminders could not be owed")

    async def _post_logged(self, kind: str, now: datetime) -> str:
        try:
            return await self.post(kind, now)
        except Exception:
            log.exception("scheduled %s post failed", kind)
            return "error"

    async def post(self, kind: str, now: datetime) -> str:
        """'owed' (handed to the outbox now), 'already' (made before), 'waiting' (not
        possible yet: tried again later that day) or 'none' (nothing owed)."""
        async with self.posting:
            return await self._post(kind, now)

    async def _post(self, kind: str, now: datetime) -> str:
        try:
            due = await announcements.due(self.db, self.guild_id, kind, now, offline=self.offline)
        except announcements.AlreadyPosted as done:
            self.waits.pop((kind, done.day), None)
            return "already"
        except announcements.NotDueYet as reason:
            return self._wait(kind, reason.day, str(reason))
        if due is None:
            return "none"
        return await self.deliver(due, now)

    async def lock_post(self, locked: list[LockedGroup], now: datetime) -> str:
        """`/league night lock`: the 19:15 job's post, made now through the same path."""
        async with self.posting:
            due = await announcements.lock_post(self.db, self.guild_id, locked)
            return "none" if due is None else await self.deliver(due, now)

    async def deliver(self, due: Post, now: datetime) -> str:
        """The one post path: word the post, then claim its key and owe the text to
        the outbox in one transaction; the outbox's sender delivers it."""
        self.waits.pop((due.kind, due.day), None)
        attendance = None
        if isinstance(due.content, GroupingsPost):  # embeds, frozen as Discord's JSON
            text, frozen = "", [[e.to_dict() for e in m] for m in embeds.groupings(due)]
            attendance = due.content.view.night.id  # its buttons: late, absent, cancel
        else:
            text, frozen = render.post(due), None
        threads = None  # picks locked: each group's thread, if the league has them
        if isinstance(due.content, LockPost):
            threads = [(g.group.night_id, g.group.id, thread_name(g), opening(g))
                       for g in due.content.groups]  # fmt: skip
        if not await announcements.enqueue(
            self.db, self.guild_id, due.key, text, now=now, embeds=frozen,
            attendance=attendance, threads=threads,
        ):  # fmt: skip
            return "already"
        self.wake()
        log.info("owed %s%s", due.key, " (late: the bot was offline)" if due.late else "")
        return "owed"

    def _wait(self, kind: str, day: date, reason: str) -> str:
        """Count a try of a post that cannot be made yet; try again later that day."""
        self.waits = {k: n for k, n in self.waits.items() if k[1] == day}  # a new day: afresh
        tries = self.waits[(kind, day)] = self.waits.get((kind, day), 0) + 1
        if tries < MAX_WAITS:
            self._later(f"wait:{kind}", kind, self.wait_delay)
            log.info("%s post waits (try %d of %d): %s", kind, tries, MAX_WAITS, reason)
        else:
            log.warning("%s post of %s still cannot be made after %d tries (%s); a /league "
                        "command tries it again", kind, day, tries, reason)  # fmt: skip
        return "waiting"

    def _later(self, job_id: str, kind: str, delay: timedelta) -> None:
        self.scheduler.add_job(
            self.run, DateTrigger(_utc_now() + delay), args=[kind], id=job_id,
            replace_existing=True, **JOB_OPTIONS,
        )  # fmt: skip

    def _seen(self, now: datetime) -> None:
        """A sign of life. A longer gap since the last one than two sweeps means
        the bot was not running meanwhile (asleep, paused, blocked)."""
        last = self.last_seen
        if last is not None and now - last > 2 * self.sweep_every:
            self.offline.append((last, now))
            log.warning("the scheduler did not run from %s to %s", last, now)
        if last is None or now > last:
            self.last_seen = now
        self.offline = [(a, b) for a, b in self.offline if b > now - KEEP_SPANS]

    async def _log_skipped(self, now: datetime) -> None:
        basis = await announcements.schedule_basis(self.db, self.guild_id)
        if basis is None:
            return
        league, weekday = basis
        local = now.astimezone(ZoneInfo(league.time_zone))
        back = (local.weekday() - weekday_number(weekday)) % 7 or 7
        last = (local - timedelta(days=back)).date()
        if not await announcements.is_league_night(self.db, self.guild_id, last):
            return
        for kind in KINDS:
            key = f"{kind}:{last.isoformat()}"
            if await announcements.post_record(self.db, self.guild_id, key) is None:
                await announcements.record_skipped(self.db, self.guild_id, key, now, NOT_POSTED)
                log.warning("skipped %s: %s", key, NOT_POSTED)
