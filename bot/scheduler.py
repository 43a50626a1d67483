"""The week's posts on the league's wall clock (APScheduler 3.11).

One cron job per kind of post, on the league weekday by name, at the league's
local time (R1.3) in its time zone, rebuilt from the database at start and
whenever the commissioner changes a time, the season or a date. Job bodies are
thin: `announcements.due` gathers what the post says, `render.post` words it, a
claim in the database makes it go out once, `send` sends it. A post that fails
is retried a bounded number of times; at start, posts missed while the bot was
down are sent late if their day is not over, and the last league day's missing
ones are logged as skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger

from bot.database import Database
from bot.scoring import weekday_number
from bot.services import announcements
from bot.services.announcements import KINDS, MAX_ATTEMPTS, post_time
from bot.ui import render

log = logging.getLogger(__name__)

MISFIRE_GRACE = 10 * 60  # seconds a late-firing job may still run
MAX_WAITS = 16  # a post that cannot be made yet is tried again up to 16 times (4 hours)

Send = Callable[[str], Awaitable[tuple[int, int]]]  # text -> (channel id, message id)
Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LeagueScheduler:
    def __init__(
        self,
        db: Database,
        guild_id: int,
        send: Send,
        *,
        clock: Clock = _utc_now,
        retry_delay: timedelta = timedelta(minutes=2),
        wait_delay: timedelta = timedelta(minutes=15),
    ) -> None:
        self.db = db
        self.guild_id = guild_id
        self.send = send
        self.clock = clock
        self.retry_delay = retry_delay
        self.wait_delay = wait_delay
        self.waits: dict[str, int] = {}
        self.scheduler = AsyncIOScheduler(timezone=UTC)

    async def start(self, *, paused: bool = False) -> None:
        """Start on the running event loop, build the jobs, catch up on missed posts."""
        self.scheduler.start(paused=paused)
        await self.rebuild()
        await self.catch_up()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    async def rebuild(self) -> None:
        """(Re)create one job per kind from the league's times and the season's weekday."""
        for kind in KINDS:
            if self.scheduler.get_job(f"post:{kind}"):
                self.scheduler.remove_job(f"post:{kind}")
        basis = await announcements.schedule_basis(self.db, self.guild_id)
        if basis is None:
            log.info("no season yet: nothing scheduled")
            return
        league, weekday = basis
        zone = ZoneInfo(league.time_zone)
        for kind in KINDS:
            at = post_time(league, kind)
            trigger = CronTrigger(
                day_of_week=weekday_number(weekday), hour=at.hour, minute=at.minute, timezone=zone
            )
            self.scheduler.add_job(
                self.run, trigger, args=[kind], id=f"post:{kind}", name=f"{kind} post",
                replace_existing=True, coalesce=True, misfire_grace_time=MISFIRE_GRACE,
                max_instances=1,
            )  # fmt: skip
        log.info("scheduled posts for %ss in %s", weekday, league.time_zone)

    def jobs(self) -> dict[str, object]:
        return {job.id: job for job in self.scheduler.get_jobs()}

    async def run(self, kind: str) -> str:
        """A job body: post `kind` if it is due today and not yet posted."""
        try:
            return await self.post(kind, self.clock())
        except Exception:
            log.exception("scheduled %s post failed", kind)
            return "error"

    async def post(self, kind: str, now: datetime) -> str:
        """'sent', 'failed', 'already' (posted before), 'waiting' (not possible yet:
        tried again later that day) or 'none' (nothing due)."""
        try:
            due = await announcements.due(self.db, self.guild_id, kind, now)
        except announcements.NotDueYet as reason:
            self.waits[kind] = self.waits.get(kind, 0) + 1
            if self.waits[kind] <= MAX_WAITS:
                self.scheduler.add_job(
                    self.run,
                    DateTrigger(_utc_now() + self.wait_delay),
                    args=[kind],
                    id=f"wait:{kind}",
                    replace_existing=True,
                    misfire_grace_time=MISFIRE_GRACE,
                )
            log.info("%s post waits (%d of %d): %s", kind, self.waits[kind], MAX_WAITS, reason)
            return "waiting"
        if due is None:
            return "none"
        if not await announcements.claim(self.db, self.guild_id, due.key, now):
            return "already"
        try:
            channel_id, message_id = await self.send(render.post(due))
        except Exception as error:
            attempts = await announcements.record_failed(
                self.db, self.guild_id, due.key, 0, f"{type(error).__name__}: {error}"
            )
            log.warning("post %s failed (attempt %d of %d): %s", due.key, attempts,
                        MAX_ATTEMPTS, error)  # fmt: skip
            if attempts < MAX_ATTEMPTS:
                self.scheduler.add_job(
                    self.run,
                    DateTrigger(_utc_now() + self.retry_delay * attempts),
                    args=[kind],
                    id=f"retry:{due.key}",
                    replace_existing=True,
                    misfire_grace_time=MISFIRE_GRACE,
                )
            else:
                log.error("post %s gave up after %d attempts", due.key, attempts)
            return "failed"
        await announcements.record_sent(self.db, self.guild_id, due.key, channel_id, message_id)
        log.info("posted %s%s", due.key, " (late)" if due.late else "")
        return "sent"

    async def catch_up(self) -> dict[str, str]:
        """After a start: today's posts whose time has passed go out now (marked
        late); the previous league day's posts that never went out are skipped."""
        now = self.clock()
        await self._log_skipped(now)
        return {kind: await self.post(kind, now) for kind in KINDS}

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
                await announcements.record_skipped(
                    self.db, self.guild_id, key, now, "the bot was offline all that day"
                )
                log.warning("skipped %s: the bot was offline when it was due", key)
