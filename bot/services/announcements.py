"""The week's scheduled posts: what each holds, and a claim so each goes out once.

R1.3 and R2 give the times (league settings, league wall-clock time):
groupings 12:00, late-notice cutoff 15:00, picks lock 19:15, grace over 19:30.
A post's key is its kind and date (`cutoff:2026-03-11`); the key is claimed in
the transaction that owes the post's text to the outbox (`enqueue`), so a
restart never posts twice, and the outbox delivers it. The scheduled job and
`/league night lock` make the lock post under the same key.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time, timedelta
from typing import Any

import aiosqlite

from bot.database import Database
from bot.models import League, Night
from bot.outbox_kinds import Kind
from bot.repositories import checkins, leagues, nights, people, playoff_nights, posts, scores
from bot.rules.calendar import weekday_number
from bot.rules.playoffs import format_week
from bot.services import (
    attendance_board,
    group_threads,
    picks,
    playoff_checkin,
    playoffs,
    reminders,
)
from bot.services.context import SeasonContext, league_of, season_of, stamp
from bot.services.errors import LeagueError
from bot.services.groups import week_view
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes.night import LockedGroup
from bot.services.outcomes.posts import (
    CutoffPost,
    GracePost,
    GroupingsPost,
    LockPost,
    NoticeLine,
    PlayoffGracePost,
    PlayoffTonightPost,
    Post,
    PostContent,
    SkippedPost,
)

log = logging.getLogger(__name__)
KINDS = ("groupings", "cutoff", "lock", "grace")
PLAYOFF_KINDS = ("groupings", "grace")  # R13.4: playoff night's posts (R13.5 at the grace)
MAX_ATTEMPTS = 3  # a key failed this often (before the outbox sent posts) is not made again
LATE_AFTER = timedelta(minutes=2)  # a post this much after its time may say it is late
SETTLED = ("claimed", "sent", "skipped")  # a post in one of these states is not made again

Span = tuple[datetime, datetime]  # (from, until): the bot was not running in between


def post_time(league: League, kind: str) -> time:
    return {
        "groupings": league.groupings_time,
        "cutoff": league.late_cutoff,
        "lock": league.picks_lock_time,
        "grace": league.grace_until,
    }[kind]


class NotDueYet(Exception):
    """The post cannot be made yet (e.g. last week is not finalized); try later."""

    def __init__(self, reason: str, day: date) -> None:
        super().__init__(reason)
        self.day = day  # the league day it is owed on


class AlreadyPosted(Exception):
    """Today's post of this kind was made (or is being made, or was skipped or
    given up after its attempts): nothing to gather."""

    def __init__(self, key: str, day: date) -> None:
        super().__init__(key)
        self.day = day  # the league day it was owed on


async def due(
    db: Database, guild_id: int, kind: str, now: datetime, *, offline: Sequence[Span] = ()
) -> Post | None:
    """The post of `kind` owed on the league day of `now`: its time has passed
    and it has not been made. None when nothing is owed: no league night today,
    its time has not come, or the night is already finalized. Raises
    `AlreadyPosted` when it was made, `NotDueYet` when it cannot be made yet.

    `offline` are the spans when the bot was not running: a post whose time
    fell in one of them and that goes out more than `LATE_AFTER` late says so;
    a post owed later for another reason (a season created or a time changed
    after its time, last week finalized late) just goes out.

    A skipped date (R1.2) gets a one-line notice at the groupings time and
    nothing else. Posting after the day is over is for the caller to refuse.
    The post is data; `bot.ui.render.post` turns it into text.
    """
    if kind not in KINDS:
        raise ValueError(kind)
    try:
        async with db.read() as conn:
            ctx = await season_of(conn, guild_id)
            local = ctx.local(now)
            today = local.date()
            at = post_time(ctx.league, kind)
            if local.time() < at:
                return None
            due_at = datetime.combine(today, at, local.tzinfo)
            late = local - due_at > LATE_AFTER and any(a < due_at < b for a, b in offline)
            skipped = today in await leagues.skipped_dates(conn, ctx.season.id)
            night = await leagues.night_by_date(conn, ctx.season.id, today)
            if night is None and not skipped:  # R13.4: playoff night has its posts too
                finale = await playoff_nights.playoff_night(conn, ctx.season.id)
                night = finale if finale is not None and finale.date == today else None
            key = f"{'skip' if skipped else kind}:{today.isoformat()}"
            record = await posts.post_by_key(conn, ctx.league.id, key)
    except LeagueError:
        return None  # no league or season: nothing is scheduled
    if night is not None and night.kind == "playoff" and kind not in PLAYOFF_KINDS:
        return None  # no late-notice cutoff on playoff night; its lock is the commissioner's
    if skipped and kind != "groupings":
        return None
    if not skipped and (night is None or night.status == "finalized"):
        return None
    if record is not None and (record.status in SETTLED or record.attempts >= MAX_ATTEMPTS):
        raise AlreadyPosted(key, today)
    if skipped:
        return Post(key, kind, SkippedPost(today), late, at, today)
    assert night is not None
    try:
        content = await _content(db, guild_id, kind, night, now)
    except LeagueError as error:  # e.g. last week is not finalized yet
        raise NotDueYet(str(error), today) from None
    return Post(key, kind, content, late, at, today)


async def lock_post(db: Database, guild_id: int, locked: list[LockedGroup]) -> Post | None:
    """The lock post of a night locked now (`/league night lock`, maybe before
    19:15 or for a later week): the same key and content as the 19:15 job's."""
    day = locked[0].day if locked else None
    if day is None:
        return None
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
    at = post_time(league, "lock")
    return Post(f"lock:{day.isoformat()}", "lock", LockPost(locked[0].week, locked), False, at, day)


async def _content(
    db: Database, guild_id: int, kind: str, night: Night, now: datetime
) -> PostContent:
    if night.kind == "playoff":
        return await _playoff_content(db, guild_id, kind, now)
    if kind == "groupings":
        view = await week_view(db, guild_id, week=night.week, now=now)
        async with db.read() as conn:
            ctx = await season_of(conn, guild_id)
            if night.week != format_week(ctx.season.regular_nights):
                return GroupingsPost(view)
            return GroupingsPost(view, await playoffs.preview_of(conn, ctx))  # R13.3
    if kind == "lock":
        locked = await picks.lock_picks(db, guild_id, week=night.week, now=now)
        return LockPost(night.week, locked)
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        if kind == "cutoff":
            return await _cutoff(conn, ctx, night)
        return await _grace(conn, ctx, night)


async def _playoff_content(
    db: Database, guild_id: int, kind: str, now: datetime
) -> PlayoffTonightPost | PlayoffGracePost:
    """R13.4-R13.5: playoff night's post at the groupings time, and at the end of
    the grace period the replacements, made now (once: run again, it replaces
    nobody twice)."""
    made = await playoff_checkin.at_grace(db, guild_id, now=now) if kind == "grace" else []
    async with db.read() as conn:
        shown = await playoffs.shown_in(conn, await season_of(conn, guild_id))
    assert shown is not None
    return PlayoffGracePost(made, shown) if kind == "grace" else PlayoffTonightPost(shown)


async def _cutoff(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> CutoffPost:
    """R2.1-R2.2: the notices received; from now on groups do not wait past 19:30."""
    everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
    notices = [
        NoticeLine(everyone.get(n.player_id, "?"), n.kind, n.minutes)
        for n in await nights.notices(conn, night.id)
    ]
    return CutoffPost(night.week, ctx.league.late_cutoff, ctx.league.grace_until, notices)


async def _grace(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> GracePost:
    """R2.3: players the bot has heard nothing from tonight (no notice, no
    score yet, not checked in on the attendance board)."""
    everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
    noticed = {n.player_id for n in await nights.notices(conn, night.id)}
    noticed |= await checkins.checked_in(conn, night.id)
    missing: list[int] = []
    for group in await nights.groups(conn, night.id):
        scored = {s.player_id for s in await scores.live_scores_of_group(conn, group.id)}
        missing.extend(p for p in group.members if p not in noticed and p not in scored)
    return GracePost(night.week, ctx.league.grace_until, [everyone.get(p, "?") for p in missing])


async def enqueue(
    db: Database,
    guild_id: int,
    key: str,
    text: str,
    *,
    now: datetime,
    target: str = ANNOUNCEMENTS,
    embeds: Sequence[Sequence[Mapping[str, Any]]] | None = None,
    attendance: int | None = None,
    threads: list[tuple[int, int, str, str]] | None = None,
) -> bool:
    """Claim the post `key` and owe its text to the outbox, in one transaction:
    False (nothing owed) if it was claimed before. The text (or the `embeds` of
    each message, as Discord's JSON) is worded by the caller (a scheduled job or
    a cog) and frozen; the outbox delivers it, the same at every try. With
    `attendance` (a night's id) it carries that night's attendance buttons; with
    `threads` (night, group, name, first message) each group's thread is owed."""
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        if not await posts.claim(conn, league.id, key, stamp(now), MAX_ATTEMPTS):
            return False
        data: dict[str, Any] = {"embeds": embeds} if embeds is not None else {"text": text}
        if attendance is not None:  # its buttons, and the commissioner's board with it
            data["attendance"] = attendance
        await owe(conn, guild_id, target, Kind.POST, key, data, now=now)
        if threads:
            await group_threads.owe_openings(conn, guild_id, threads, now=now)
        if attendance is not None:
            await attendance_board.start(conn, guild_id, attendance, now=now)
            try:  # the post matters more than its reminders
                await reminders.owe_league_day(conn, guild_id, attendance, now=now)
            except Exception:
                log.exception("the league-day reminders could not be owed with %s", key)
        return True


async def record_skipped(db: Database, guild_id: int, key: str, now: datetime, why: str) -> None:
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        await posts.skipped(conn, league.id, key, stamp(now), why)


async def post_record(db: Database, guild_id: int, key: str) -> posts.PostRecord | None:
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
        return await posts.post_by_key(conn, league.id, key)


async def schedule_basis(db: Database, guild_id: int) -> tuple[League, str] | None:
    """The league's times and the season's weekday, or None before a season exists."""
    try:
        async with db.read() as conn:
            ctx = await season_of(conn, guild_id)
            return ctx.league, ctx.season.weekday
    except LeagueError:
        return None


async def is_league_night(db: Database, guild_id: int, day: date) -> bool:
    try:
        async with db.read() as conn:
            ctx = await season_of(conn, guild_id)
            return await leagues.night_by_date(conn, ctx.season.id, day) is not None
    except LeagueError:
        return False


async def playoff_post_times(db: Database, guild_id: int) -> dict[str, datetime]:
    """R13.4: when playoff night's posts are due, in the league's time zone, if it
    was moved off the league weekday (on it, the weekly posts serve); else none."""
    try:
        async with db.read() as conn:
            ctx = await season_of(conn, guild_id)
            night = await playoff_nights.playoff_night(conn, ctx.season.id)
    except LeagueError:
        return {}
    if night is None or night.status == "finalized":
        return {}
    if night.date.weekday() == weekday_number(ctx.season.weekday):
        return {}
    return {
        kind: datetime.combine(night.date, post_time(ctx.league, kind), ctx.zone)
        for kind in PLAYOFF_KINDS
    }
