"""A week's groups, games and game-1 play order, as players see them (R4.6, R8, R11.2)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import aiosqlite

from bot.database import Database
from bot.models import Group, Night
from bot.repositories import leagues, nights, people
from bot.scoring import first_game_order, pick_kind
from bot.services.context import (
    MAX_WEEK,
    NO_LEAGUE,
    NO_MORE_NIGHTS,
    NO_SEASON,
    SeasonContext,
    night_of_week,
    night_on_or_after,
    not_a_week,
    season_of,
)
from bot.services.errors import NotFound, NotReady, NotSetUp
from bot.services.outcomes.night import GroupView, WeekView
from bot.services.premakeups import may_still_play
from bot.services.season import (
    TOO_FEW_FOR_GROUPS,
    group_label,
    groups_of,
    groups_wait_for,
    ranks_before,
)


async def check_week(db: Database, guild_id: int, *, week: int | None = None, now: datetime) -> int:
    """Every refusal `week_view` can give, from one quick statement run inline
    (`Database.read(snapshot=False)`), so a caller can refuse privately before
    it acknowledges publicly. Returns the week `week_view` shows."""
    async with db.read(snapshot=False) as conn:
        found = await leagues.season_nights(conn, guild_id)
    if found is None:
        raise NotSetUp(NO_LEAGUE)
    if found.season_id is None:
        raise NotSetUp(NO_SEASON)
    by_week = {n.week: n for n in found.nights}
    if week is None:
        today = now.astimezone(ZoneInfo(found.time_zone)).date()
        night = next((n for n in found.nights if n.date >= today), None)
        if night is None:
            raise NotFound(NO_MORE_NIGHTS)
    else:
        night = by_week.get(week) if 1 <= week <= MAX_WEEK else None
        if night is None:
            raise NotFound(not_a_week(week, found.regular_nights))
    if not night.grouped:  # as `groups_of` would cut or refuse them
        previous = by_week.get(night.week - 1)
        if previous is not None and previous.status != "finalized":
            raise NotReady(groups_wait_for(night.week, previous.week))
        if found.players < 2:
            raise NotReady(TOO_FEW_FOR_GROUPS)
    return night.week


async def week_view(
    db: Database, guild_id: int, *, week: int | None = None, now: datetime
) -> WeekView:
    """The coming night (or week `week`): its groups, games and play order.
    Week 1 is cut by skill the first time anyone asks (R8.2): only then does
    this write; otherwise it reads, without waiting behind writes."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _night(conn, ctx, week, now)
        stored = await nights.groups(conn, night.id)
        if stored:
            return await _week(conn, ctx, night, stored)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _night(conn, ctx, week, now)
        return await _week(conn, ctx, night, await groups_of(conn, ctx, night))


async def _night(
    conn: aiosqlite.Connection, ctx: SeasonContext, week: int | None, now: datetime
) -> Night:
    if week is None:
        return await night_on_or_after(conn, ctx, ctx.local(now).date())
    return await night_of_week(conn, ctx, week)


async def _week(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, groups: list[Group]
) -> WeekView:
    """The night's view in a few statements, whatever the number of groups."""
    everyone = {p.id: p for p in await people.players(conn, ctx.league.id, removed=True)}
    current = [p for p in everyone.values() if not p.removed]
    ranks = await ranks_before(conn, ctx, night.week, players=current)
    games = await nights.games_of_night(conn, night.id)
    views = []
    for group in groups:
        order = first_game_order(group.members, ranks)  # R11.2
        views.append(
            GroupView(
                label=group_label(group),
                players=[everyone[p].name for p in group.members],
                play_order=[everyone[p].name for p in order],
                games=[(g.number, g.machine) for g in games.get(group.id, [])],
            )
        )
    machines = [m for m in await people.machines(conn, ctx.league.id) if m.working]
    done = {
        (p.player_id, p.machine_id) for p in await people.approved_pre_makeups(conn, ctx.season.id)
    }
    first = night if night.week == 1 else await leagues.night_by_week(conn, ctx.season.id, 1)
    week_1 = first.date if first is not None else night.date
    owes = {  # R3.1: only the pre-makeups that can still be played by that night
        p.name: [
            m.name
            for m in machines
            if (p.id, m.id) not in done and may_still_play(ctx, week_1, night.date, p, m)
        ]
        for p in current
    }
    games_per_night = ctx.season.games_per_night
    return WeekView(
        night=night,
        groups=views,
        pick_kind=pick_kind(len(machines), games_per_night) if machines else "none",
        picks_needed=abs(len(machines) - games_per_night) if machines else 0,
        owes_pre_makeups={name: owed for name, owed in owes.items() if owed},
        lock_time=ctx.league.picks_lock_time,
        late_cutoff=ctx.league.late_cutoff,
    )
