"""Late notices and absences (R2), with what an absence will cost (R3)."""

from __future__ import annotations

from datetime import date, datetime

import aiosqlite

from bot.database import Database
from bot.models import Night, Player
from bot.outbox_kinds import Kind, notice_ref
from bot.repositories import leagues, nights, people, playoff_nights, scores
from bot.scoring import (
    PRE_MAKEUP,
    PlayerNight,
    missed_game,
    notice_timing,
    pre_makeup_nights_left,
)
from bot.services import attendance_board
from bot.services.context import (
    SeasonContext,
    check_text,
    night_on,
    night_on_or_after,
    player_of,
    player_of_night,
    season_of,
    stamp,
)
from bot.services.errors import BadInput, NotFound, WrongState
from bot.services.outbox import APPROVALS, owe
from bot.services.outcomes.night import MissedGame
from bot.services.outcomes.notices import NoticeGiven, NoticeRecord, NoticeWithdrawn
from bot.services.season import group_of, season_totals

NOTICE_NAMES = {"late": "a late notice", "absent": "an absence"}


async def notify(
    db: Database,
    guild_id: int,
    discord_id: int,
    kind: str,
    *,
    day: date | None = None,
    minutes: int | None = None,
    note: str = "",
    now: datetime,
) -> NoticeGiven:
    """R2.1: `/late` or `/absent` for the next league night (or the night on `day`).

    The notice is classified as advance, on time or after the cutoff from the
    league's local time; a new notice replaces the player's earlier one."""
    if kind not in ("late", "absent"):
        raise BadInput("A notice says you will be late or absent.")
    if minutes is not None and not 1 <= minutes <= 240:
        raise BadInput("Say how late you will be in minutes, from 1 to 240.")
    note = check_text(note, "note", 200)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        player = await player_of(conn, ctx.league, discord_id)
        given = await _give(conn, ctx, player, kind, day, minutes, note, discord_id, now)
        # The commissioner's copy, in the approvals channel, owed with the notice.
        await owe(conn, guild_id, APPROVALS, Kind.NOTICE, notice_ref(given.notice.id),
                  {"event": "given"}, now=now)  # fmt: skip
        await attendance_board.changed(conn, guild_id, given.night.id, now=now)
        return given


async def mark(
    db: Database,
    guild_id: int,
    player_name: str,
    kind: str,
    *,
    by: int,
    day: date | None = None,
    now: datetime,
) -> NoticeGiven:
    """The commissioner records that a player came late or did not come (R2.3-R2.4)."""
    if kind not in ("late", "absent"):
        raise BadInput("Mark a player late or absent.")
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _night_of_notice(conn, ctx, day, now)
        player = await player_of_night(conn, ctx.league, night, player_name)  # removed since?
        given = await _give(conn, ctx, player, kind, day, None, "marked by the commissioner",
                            by, now)  # fmt: skip
        await attendance_board.changed(conn, guild_id, given.night.id, now=now)
        return given


async def _night_of_notice(
    conn: aiosqlite.Connection, ctx: SeasonContext, day: date | None, now: datetime
) -> Night:
    """The night a notice is for: the night on `day`, or the next unfinished one;
    after the regular season, playoff night (R13.4)."""
    try:
        if day is None:
            return await night_on_or_after(conn, ctx, ctx.local(now).date(), unfinished=True)
        return await night_on(conn, ctx, day)
    except NotFound:
        finale = await playoff_nights.playoff_night(conn, ctx.season.id)
        today = ctx.local(now).date()
        if finale is not None and (finale.date == day or (day is None and finale.date >= today)):
            return finale
        raise


async def _give(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    player: Player,
    kind: str,
    day: date | None,
    minutes: int | None,
    note: str,
    given_by: int,
    now: datetime,
) -> NoticeGiven:
    local = ctx.local(now)
    night = await _night_of_notice(conn, ctx, day, now)
    if night.kind == "playoff":
        await _refuse_playoff_notice(conn, ctx, night, player, kind, now)
    if night.status == "finalized" or night.date < local.date():
        raise WrongState(
            f"Week {night.week} on {night.date:%d %B} is over; a notice is for a coming night "
            "(/groups shows the next one)."
        )
    if kind == "absent" and any(
        s.player_id == player.id for s in await scores.live_scores_of_night(conn, night.id)
    ):
        raise WrongState(
            f"{player.name} already has scores for week {night.week}, so cannot be absent from "
            "it. To miss a later night, give its date."
        )
    timing = notice_timing(local, night.date, ctx.league.late_cutoff)
    notice_id = await nights.give_notice(
        conn, night.id, player.id, kind, timing, minutes, note, given_by, stamp(now)
    )
    notice = next(n for n in await nights.notices(conn, night.id) if n.id == notice_id)
    left, missed = await absence_cost(conn, ctx, night, player)
    return NoticeGiven(
        notice=notice,
        player=player,
        night=night,
        late_cutoff=ctx.league.late_cutoff,
        grace_until=ctx.league.grace_until,
        missed=missed,
        pre_makeup_nights_left=left,
        zero_point_everywhere=left == 0,
        lock_time=ctx.league.picks_lock_time,
    )


async def _refuse_playoff_notice(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    player: Player,
    kind: str,
    now: datetime,
) -> None:
    """R13.2, R13.5: on playoff night only a player of the field (or an alternate)
    says they cannot come, and only before the grace period ends; being late
    is not a notice there: a qualifier not checked in by then is replaced."""
    grace = ctx.league.grace_until
    if kind == "late":
        raise WrongState(
            f"Playoff night has no late notices: a qualifier not checked in by {grace:%H:%M} "
            "is replaced by the first alternate. If you cannot be there by then, use /absent "
            "so the alternate can get ready."
        )
    if player.id not in {e.player_id for e in await playoff_nights.field(conn, night.id)}:
        raise WrongState(
            f"{player.name} is not in the playoff field or among its alternates; there is "
            "nothing to tell."
        )
    local = ctx.local(now)
    if night.status != "scheduled" or (local.date() == night.date and local.time() >= grace):
        raise WrongState("Playoff night's grace period is over: its field is set.")


async def absence_cost(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, player: Player
) -> tuple[int, list[MissedGame]]:
    """R3.2-R3.6: the games that would be scored from pre-makeups, and where
    the Zero Point Rule applies. Before picks lock, every working machine."""
    sums = await season_totals(conn, ctx, before_week=night.week)
    limit = ctx.season.pre_makeup_night_limit + player.extra_pre_makeup_nights
    used = sums.pre_makeup_nights.get(player.id, 0)
    left = pre_makeup_nights_left(used, limit)
    machines = {m.id: m for m in await people.machines(conn, ctx.league.id)}
    stand_ins = PlayerNight(
        player.name,
        rank=0,
        attendance="absent",
        pre_makeups={
            machines[p.machine_id].name: p.score
            for p in await people.approved_pre_makeups(conn, ctx.season.id)
            if p.player_id == player.id and p.machine_id in machines
        },
        pre_makeup_nights_used=used,
        pre_makeup_night_limit=limit,
    )
    group = group_of(await nights.groups(conn, night.id), player.id)
    games = await nights.games(conn, group.id) if group is not None else []
    rows: list[tuple[int | None, int]]  # (game number, machine id)
    if games:
        rows = [(g.number, g.machine_id) for g in games]
    else:
        rows = [(None, m.id) for m in machines.values() if m.working]
    missed = []
    for number, machine_id in rows:
        name = machines[machine_id].name if machine_id in machines else "?"
        score, source = missed_game(stand_ins, name)  # R3.2-R3.6, from the rules
        missed.append(MissedGame(number, name, score, source == PRE_MAKEUP))
    return left, missed


async def withdraw(
    db: Database,
    guild_id: int,
    discord_id: int,
    kind: str | None,
    *,
    day: date | None = None,
    now: datetime,
) -> NoticeWithdrawn:
    """R2: a player takes back their own late notice or absence for the next
    league night (or the night on `day`); it is kept, marked withdrawn. With
    `kind` None, whichever of the two they gave ("Cancel my notice")."""
    if kind not in ("late", "absent", None):
        raise BadInput("A notice says you will be late or absent.")
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        player = await player_of(conn, ctx.league, discord_id)
        night = await _night_of_notice(conn, ctx, day, now)  # playoff night too (R13.4)
        when = f"week {night.week} ({night.date:%A %d %B})"
        if night.kind == "playoff":
            when = f"playoff night ({night.date:%A %d %B})"
        if night.status == "finalized" or night.date < ctx.local(now).date():
            over = "Playoff night" if night.kind == "playoff" else f"Week {night.week}"
            raise WrongState(f"{over} on {night.date:%d %B} is over; its notices stand.")
        given = [n for n in await nights.notices(conn, night.id) if n.player_id == player.id]
        if not given:
            raise BadInput(f"You have no late notice or absence for {when} to take back.")
        if kind is not None and given[0].kind != kind:
            other = "/absent" if given[0].kind == "absent" else "/late"
            raise BadInput(
                f"Your notice for {when} is {NOTICE_NAMES[given[0].kind]}; take it back with "
                f"{other} cancel:True."
            )
        await nights.withdraw_notice(conn, night.id, player.id, stamp(now))
        await owe(conn, guild_id, APPROVALS, Kind.NOTICE, notice_ref(given[0].id),
                  {"event": "withdrawn"}, now=now)  # fmt: skip
        await attendance_board.changed(conn, guild_id, night.id, now=now)
        return NoticeWithdrawn(player, night, given[0].kind)


async def guild_of_night(db: Database, night_id: int) -> int:
    """The server whose league holds the night (a reminder DM's buttons)."""
    async with db.read() as conn:
        found = await leagues.guild_of_night(conn, night_id)
    if found is None:
        raise NotFound("Those buttons are not for a night of this league's season.")
    return found


async def night_of_post(db: Database, guild_id: int, night_id: int, *, now: datetime) -> date:
    """The day of the league night a post's attendance buttons were made for:
    a night of this league's running season that is not over yet."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        night = await leagues.night_by_id(conn, night_id)
        if night is None or night.season_id != ctx.season.id:
            raise NotFound("Those buttons are not for a night of this league's season.")
        if night.status == "finalized" or night.date < ctx.local(now).date():
            name = "Playoff night" if night.kind == "playoff" else f"Week {night.week}"
            raise WrongState(f"{name} on {night.date:%d %B} is over; /groups shows the next "
                             "night, and /me has its buttons.")  # fmt: skip
        return night.date


async def notice_record(db: Database, notice_id: int) -> NoticeRecord | None:
    """A notice as stored, live or withdrawn, with its player and night."""
    async with db.read() as conn:
        notice = await nights.notice_by_id(conn, notice_id)
        if notice is None:
            return None
        player = await people.player_by_id(conn, notice.player_id)
        night = await leagues.night_by_id(conn, notice.night_id)
        if player is None or night is None:
            return None
        return NoticeRecord(notice, player, night)
