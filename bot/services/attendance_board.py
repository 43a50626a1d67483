"""A league night's attendance board (R2): one message in the approvals
channel, posted with the day's groupings and edited in place through the
outbox whenever a notice is given, taken back or marked, or a player is
checked in. It shows who is in (checked in by the commissioner, or with a
score that night), late (and by when), out, and who has said nothing, with
the menus that check players in (or undo a check-in made by mistake)."""

from __future__ import annotations

from datetime import datetime, timedelta

import aiosqlite

from bot.database import Database
from bot.models import Night, OutboxItem
from bot.outbox_kinds import Kind, board_ref
from bot.repositories import checkins, leagues, nights, outbox_items, people, scores
from bot.services.context import SeasonContext, night_season, season_of, stamp
from bot.services.errors import BadInput, NotFound, WrongState
from bot.services.outbox import APPROVALS, moment, owe
from bot.services.outcomes.notices import AttendanceBoard, BoardLine, CheckedIn
from bot.services.season import group_label

NOT_OURS = "That attendance board is not one of this league's nights."


async def start(conn: aiosqlite.Connection, guild_id: int, night_id: int, *, now: datetime) -> None:
    """The night's board is owed with the day's groupings post: once, and once
    more when the night moved to another date (a skipped date) since."""
    night = await leagues.night_by_id(conn, night_id)
    if night is None or await checkins.board_day(conn, night_id) == night.date.isoformat():
        return
    await checkins.add_board(conn, night_id, night.date.isoformat())
    await owe(conn, guild_id, APPROVALS, Kind.ATTENDANCE, board_ref(night_id), now=now)


async def changed(
    conn: aiosqlite.Connection, guild_id: int, night_id: int, *, now: datetime
) -> None:
    """Something on the night's board changed: its edit is owed (coalesced),
    if the night has a board (it has from its groupings post on)."""
    if await checkins.has_board(conn, night_id):
        await owe(conn, guild_id, APPROVALS, Kind.ATTENDANCE_UPDATE, board_ref(night_id), now=now)


async def shown(db: Database, guild_id: int, night_id: int) -> AttendanceBoard | None:
    """The board as the night stands when sent (None: not this league's night)."""
    async with db.read() as conn:
        night = await leagues.night_by_id(conn, night_id)
        ctx = await night_season(conn, guild_id, night) if night is not None else None
        if night is None or ctx is None:
            return None
        return await _board(conn, ctx, night)


async def _board(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> AttendanceBoard:
    names = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
    notices = {n.player_id: n for n in await nights.notices(conn, night.id)}
    scored = {s.player_id for s in await scores.live_scores_of_night(conn, night.id)}
    came = await checkins.checked_in(conn, night.id)
    play = datetime.combine(night.date, ctx.league.play_time)
    sorted_into: dict[str, list[BoardLine]] = {"in": [], "late": [], "out": [], "silent": []}
    undoable = []
    for group in await nights.groups(conn, night.id):
        for player_id in group.members:
            notice = notices.get(player_id)
            line = BoardLine(player_id, names.get(player_id, "?"), group_label(group))
            if player_id in came or player_id in scored:
                sorted_into["in"].append(line)
                if player_id not in scored:
                    undoable.append(line)
            elif notice is not None and notice.kind == "late":
                by = (play + timedelta(minutes=notice.minutes)).time() if notice.minutes else None
                late = BoardLine(player_id, line.name, line.group, notice.minutes, by, notice.note)
                sorted_into["late"].append(late)
            elif notice is not None:
                sorted_into["out"].append(
                    BoardLine(player_id, line.name, line.group, note=notice.note)
                )
            else:
                sorted_into["silent"].append(line)
    return AttendanceBoard(
        night, sorted_into["in"], sorted_into["late"], sorted_into["out"], sorted_into["silent"],
        undoable, night.status != "finalized", await checkins.board_message(conn, night.id),
    )  # fmt: skip


async def check_in(
    db: Database,
    guild_id: int,
    night_id: int,
    player_ids: list[str],
    *,
    undo: bool = False,
    by: int,
    now: datetime,
) -> CheckedIn:
    """The commissioner checks players in on league night (or, with `undo`,
    takes a check-in made by mistake back); the board is edited."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await leagues.night_by_id(conn, night_id)
        if night is None or night.season_id != ctx.season.id:
            raise NotFound(NOT_OURS)
        if night.status == "finalized":
            raise WrongState(f"Week {night.week} is finalized: its attendance stands.")
        if ctx.local(now).date() != night.date:
            raise WrongState(
                f"Check-in is on league night itself ({night.date:%A %d %B}); notices "
                "before it are the players' own."
            )
        names = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
        members = {p for g in await nights.groups(conn, night.id) for p in g.members}
        picked = {int(p) for p in player_ids if p.isdecimal() and len(p) <= 18}
        wanted = picked & members
        if not wanted:
            raise BadInput("Pick players of tonight's groups from the menu.")
        gone = sorted(names.get(p, "?") for p in picked - members if p in names)
        absent = {n.player_id for n in await nights.notices(conn, night.id) if n.kind == "absent"}
        came = await checkins.checked_in(conn, night.id)
        done, already = [], []
        for player_id in sorted(wanted, key=lambda p: names.get(p, "")):
            if (player_id in came) != undo:
                already.append(names.get(player_id, "?"))
                continue
            if undo:
                await checkins.undo(conn, night.id, player_id)
            else:
                await checkins.check_in(conn, night.id, player_id, stamp(now), by)
                if player_id in absent:  # came after all: no longer absent (R2.3-R2.4)
                    await nights.withdraw_notice(conn, night.id, player_id, stamp(now))
            done.append(names.get(player_id, "?"))
        if done:
            await changed(conn, guild_id, night.id, now=now)
        return CheckedIn(night, done, already, undo, gone)


async def message_gone(db: Database, item: OutboxItem, night_id: int, *, now: datetime) -> bool:
    """The board's message was deleted (the edit `item` found it gone): the
    edit is dropped and, while the night is open, the board is posted again."""
    async with db.transaction() as conn:
        await outbox_items.dropped(conn, item.id, "the board's message is gone", moment(now))
        night = await leagues.night_by_id(conn, night_id)
        if night is None or night.status == "finalized":
            return False
        if await checkins.board_message(conn, night_id) is None:
            return False  # posted again already, or never posted
        await checkins.set_board_message(conn, night_id, None)
        await owe(conn, item.guild_id, APPROVALS, Kind.ATTENDANCE, board_ref(night_id), now=now)
        return True
