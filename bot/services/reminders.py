"""Reminders that respect people (/remind): each is off until the member opts
in, goes out as a DM through the outbox exactly once, at most three a night,
and a closed DM is never turned into a public ping.

- league day: with the day's groupings (before the late-notice cutoff), to a
  player of tonight's groups who has given no notice: the time, their group,
  and the buttons to say they are late or cannot come;
- missing scores: two hours after the grace period, to a player who is there
  and has a game without a score;
- waiting scores (commissioners): three hours after the grace period, when
  scores of the night are still waiting for approval.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import aiosqlite

from bot.database import Database
from bot.models import Night
from bot.outbox_kinds import Kind
from bot.repositories import (
    checkins,
    commissioners,
    leagues,
    nights,
    people,
    reminders,
    scores,
)
from bot.services.context import SeasonContext, league_of, season_of, stamp
from bot.services.errors import LeagueError, NotAllowed, NotFound
from bot.services.outbox import owe
from bot.services.season import group_label

A_NIGHT = 3  # at most this many reminder DMs to one member for one night
MISSING_AFTER = timedelta(hours=2)  # Decision: after the grace period, scores still missing
WAITING_AFTER = timedelta(hours=3)  # Decision: after the grace period, scores still waiting
LATEST = timedelta(hours=12)  # a reminder not owed by then is not owed at all
PLAYERS_ONLY = ("league_day", "missing_scores")


async def choose(
    db: Database,
    guild_id: int,
    discord_id: int,
    changes: dict[str, bool | None],
    *,
    commissioner: bool,
) -> dict[str, bool]:
    """The member's reminder choices after `changes` (None: left as it is)."""
    wanted = {kind: on for kind, on in changes.items() if on is not None}
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        chosen = await reminders.choices(conn, league.id, discord_id)
        if wanted.get("waiting_scores") and not commissioner:
            raise NotAllowed("Only a commissioner can get reminders of scores waiting for "
                             "approval.")  # fmt: skip
        player = await people.player_by_discord(conn, league.id, discord_id)
        if any(wanted.get(kind) for kind in PLAYERS_ONLY) and (player is None or player.removed):
            raise NotFound("These reminders are for the league's players, and you are not "
                               "one: ask the commissioner to add you.")  # fmt: skip
        if wanted:
            chosen = {**chosen, **wanted}
            await reminders.set_choices(conn, league.id, discord_id, chosen)
        return chosen


async def _owe(
    conn: aiosqlite.Connection,
    guild_id: int,
    night: Night,
    discord_id: int,
    kind: str,
    data: dict[str, Any],
    now: datetime,
) -> bool:
    """One reminder DM, once for the night on its date, within the night's limit."""
    day = night.date.isoformat()
    if await reminders.sent_count(conn, night.id, day, discord_id) >= A_NIGHT:
        return False
    if not await reminders.mark_sent(conn, night.id, day, discord_id, kind, stamp(now)):
        return False
    ref = f"reminder:{night.id}:{kind}"
    await owe(conn, guild_id, f"dm:{discord_id}", Kind.REMINDER, ref,
              {"kind": kind, "day": day, **data}, now=now)  # fmt: skip
    return True


async def owe_league_day(
    conn: aiosqlite.Connection, guild_id: int, night_id: int, *, now: datetime
) -> int:
    """With the day's groupings post, before the late-notice cutoff: each opted-in
    player of tonight's groups who has given no notice is reminded."""
    ctx = await season_of(conn, guild_id)
    night = await leagues.night_by_id(conn, night_id)
    local = ctx.local(now)
    if night is None or night.date != local.date() or local.time() >= ctx.league.late_cutoff:
        return 0
    opted = await reminders.opted(conn, ctx.league.id, "league_day")
    if not opted:
        return 0
    players = {p.id: p for p in await people.players(conn, ctx.league.id)}
    notices = await nights.notices(conn, night.id)
    noticed = {n.player_id for n in notices}
    away = {n.player_id for n in notices if n.kind == "absent"}
    owed = 0
    for group in await nights.groups(conn, night.id):
        for player_id in group.members:
            player = players.get(player_id)
            if player is None or player.discord_id not in opted or player_id in noticed:
                continue
            others = [players[o].name for o in group.members
                      if o != player_id and o in players and o not in away]  # fmt: skip
            data = {"night": night.id, "week": night.week, "group": group_label(group),
                    "with": others, "play": f"{ctx.league.play_time:%H:%M}",
                    "cutoff": f"{ctx.league.late_cutoff:%H:%M}"}  # fmt: skip
            owed += await _owe(conn, guild_id, night, player.discord_id, "league_day", data, now)
    return owed


async def due(db: Database, guild_id: int, now: datetime) -> int:
    """The night's later reminders, once their time has come (the scheduler's
    sweep asks every few minutes): missing scores, then scores waiting; for
    tonight's night, or last night's past midnight. Only read, unless one
    may be owed (every league's sweep asks, all the week)."""
    async with db.read() as conn:
        windows = await _windows(conn, guild_id, now)
    if not windows:
        return 0
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        owed = 0
        for night_id, kinds in windows:
            night = await leagues.night_by_id(conn, night_id)
            if night is None or night.status == "finalized":
                continue
            if "missing_scores" in kinds:
                owed += await _missing(conn, ctx, night, now)
            if "waiting_scores" in kinds:
                owed += await _waiting(conn, ctx, night, now)
        return owed


async def _windows(
    conn: aiosqlite.Connection, guild_id: int, now: datetime
) -> list[tuple[int, list[str]]]:
    """The open nights (today's, or yesterday's past midnight) whose later
    reminders are due now, with which."""
    try:
        ctx = await season_of(conn, guild_id)
    except LeagueError:
        return []
    local = ctx.local(now)
    found = []
    for day in (local.date(), local.date() - timedelta(days=1)):
        night = await leagues.night_by_date(conn, ctx.season.id, day)
        if night is None or night.kind != "regular" or night.status == "finalized":
            continue
        grace = datetime.combine(night.date, ctx.league.grace_until, local.tzinfo)
        kinds = [kind for kind, after in (("missing_scores", MISSING_AFTER),
                                          ("waiting_scores", WAITING_AFTER))
                 if grace + after <= local < grace + LATEST]  # fmt: skip
        if kinds:
            found.append((night.id, kinds))
    return found


async def _missing(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, now: datetime
) -> int:
    """Players who are there (checked in, or with a score) and miss a score."""
    opted = await reminders.opted(conn, ctx.league.id, "missing_scores")
    if not opted:
        return 0
    players = {p.id: p for p in await people.players(conn, ctx.league.id)}
    came = await checkins.checked_in(conn, night.id)
    owed = 0
    for group in await nights.groups(conn, night.id):
        games = await nights.games(conn, group.id)
        live = await scores.live_scores_of_group(conn, group.id)
        scored = {(s.game_id, s.player_id) for s in live}
        for player_id in group.members:
            player = players.get(player_id)
            there = player_id in came or any(s.player_id == player_id for s in live)
            if player is None or player.discord_id not in opted or not there:
                continue
            missing = [[g.number, g.machine] for g in games if (g.id, player_id) not in scored]
            if missing:
                data = {"night": night.id, "week": night.week, "games": missing}
                owed += await _owe(conn, ctx.league.guild_id, night, player.discord_id,
                                   "missing_scores", data, now)  # fmt: skip
    return owed


async def _waiting(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, now: datetime
) -> int:
    """Commissioners (still holding the role, as last seen) while scores wait."""
    opted = await reminders.opted(conn, ctx.league.id, "waiting_scores")
    opted &= set(await commissioners.recorded(conn, ctx.league.guild_id))
    live = await scores.live_scores_of_night(conn, night.id)
    pending = [s for s in live if s.status == "pending"]
    if not opted or not pending:
        return 0
    data = {"night": night.id, "week": night.week, "count": len(pending)}
    owed = 0
    for discord_id in sorted(opted):
        owed += await _owe(conn, ctx.league.guild_id, night, discord_id, "waiting_scores", data,
                           now)  # fmt: skip
    return owed


async def still_due(db: Database, guild_id: int, discord_id: int, data: dict[str, Any]) -> bool:
    """Whether a reminder owed earlier still holds when it is sent: its night is
    still open on the same date, the member still wants it, and what it says is
    still true (no notice given since; a score still missing; scores still waiting)."""
    async with db.read() as conn:
        try:
            ctx = await season_of(conn, guild_id)
        except LeagueError:
            return False
        night = await leagues.night_by_id(conn, int(data.get("night") or 0))
        if night is None or night.season_id != ctx.season.id or night.status == "finalized":
            return False
        kind = str(data.get("kind"))
        if night.date.isoformat() != data.get("day"):
            return False  # moved by a skipped date since
        if not (await reminders.choices(conn, ctx.league.id, discord_id)).get(kind):
            return False
        live = await scores.live_scores_of_night(conn, night.id)
        if kind == "waiting_scores":
            still = discord_id in await commissioners.recorded(conn, guild_id)
            return still and any(s.status == "pending" for s in live)
        player = await people.player_by_discord(conn, ctx.league.id, discord_id)
        if player is None or player.removed:
            return False
        if kind == "league_day":
            return all(n.player_id != player.id for n in await nights.notices(conn, night.id))
        scored = {(s.game_id, s.player_id) for s in live}
        for group in await nights.groups(conn, night.id):
            if player.id in group.members:
                games = await nights.games(conn, group.id)
                return any((g.id, player.id) not in scored for g in games)
        return False
