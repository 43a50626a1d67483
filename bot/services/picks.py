"""Vetoes and repeats, and locking each group's five games (R4)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import Group, Machine, Night
from bot.repositories import leagues, nights, people, scores
from bot.scoring import (
    filled_game_numbers,
    first_game_order,
    pick_kind,
    pick_order,
    resolve_picks,
)
from bot.services.attendance import absence_cost
from bot.services.context import (
    SeasonContext,
    machine_named,
    night_of_week,
    night_on_or_after,
    player_of,
    season_of,
    stamp,
)
from bot.services.errors import BadInput, Conflict, NotAllowed, WrongState
from bot.services.outcomes.night import LockedGroup, PickList
from bot.services.season import (
    group_at,
    group_label,
    group_of,
    groups_of,
    parse_group_label,
    ranks_before,
)


async def _working(conn: aiosqlite.Connection, ctx: SeasonContext) -> list[Machine]:
    return [m for m in await people.machines(conn, ctx.league.id) if m.working]


async def add_pick(
    db: Database, guild_id: int, discord_id: int, machine: str, *, now: datetime
) -> PickList:
    """R4.3: add the player's next pick for the coming night: a veto when
    P > 5, a machine to repeat when P < 5."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        player = await player_of(conn, ctx.league, discord_id)
        night = await _night_open_for_picks(conn, ctx, now)
        found = await machine_named(conn, ctx.league, machine)
        if not found.working:
            raise BadInput(f"{found.name} is out of order tonight; pick a working machine.")
        working = await _working(conn, ctx)
        games = ctx.season.games_per_night
        kind = pick_kind(len(working), games)
        if kind == "none":
            raise BadInput(
                f"There are exactly {games} working machines: all are played, nothing to pick."
            )
        if group_of(await groups_of(conn, ctx, night), player.id) is None:
            raise NotAllowed(f"You are not in a group for week {night.week}.")
        mine = (await nights.picks(conn, night.id)).get(player.id, [])
        if kind == "veto" and found.name in mine:
            raise Conflict(f"You already vetoed {found.name}. Your picks: {', '.join(mine)}.")
        if len(mine) >= len(working):
            raise BadInput(f"You have {len(mine)} picks already; clear them to start again.")
        await nights.add_pick(conn, night.id, player.id, found.id)
        mine = (await nights.picks(conn, night.id)).get(player.id, [])
        return PickList(night, kind, abs(len(working) - games), mine)


async def clear_picks(db: Database, guild_id: int, discord_id: int, *, now: datetime) -> PickList:
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        player = await player_of(conn, ctx.league, discord_id)
        night = await _night_open_for_picks(conn, ctx, now)
        await nights.clear_picks(conn, night.id, player.id)
        working = await _working(conn, ctx)
        games = ctx.season.games_per_night
        return PickList(night, pick_kind(len(working), games), abs(len(working) - games), [])


async def lock_picks(
    db: Database, guild_id: int, *, week: int | None = None, now: datetime
) -> list[LockedGroup]:
    """R4.4-R4.6: resolve every group's picks into its games and lock the night.
    Locking twice gives the games locked the first time."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        if week is None:
            night = await night_on_or_after(conn, ctx, ctx.local(now).date())
        else:
            night = await night_of_week(conn, ctx, week)
        if night.status == "finalized":
            raise WrongState(f"Week {night.week} is already finalized.")
        groups = await groups_of(conn, ctx, night)
        ranks = await ranks_before(conn, ctx, night.week)
        everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}

        away = {n.player_id for n in await nights.notices(conn, night.id) if n.kind == "absent"}

        def order(group: Group) -> tuple[str, ...]:
            """R11.2 among the players who are there: an absent player is not waited for."""
            there = [p for p in group.members if p not in away]
            return tuple(everyone[p] for p in first_game_order(there, ranks))

        async def told(locked: LockedGroup, group: Group) -> LockedGroup:
            """The lock post shows each absent player's pre-makeup scores to their group."""
            missing = []
            for player_id in (p for p in group.members if p in away):
                player = await people.player_by_id(conn, player_id)
                if player is not None:
                    _, games = await absence_cost(conn, ctx, night, player)
                    missing.append((player.name, tuple(games)))
            return replace(locked, play_order=order(group), absent=tuple(missing))

        if night.status == "locked":
            return [await told(await _locked(conn, g, night), g) for g in groups]
        working = await _working(conn, ctx)
        if not working:
            raise WrongState("No machine is working; mark machines as working first.")
        picks = await nights.picks(conn, night.id)
        by_name = {m.name: m.id for m in working}
        names = [m.name for m in working]
        locked = []
        for group in groups:
            resolution = resolve_picks(
                names,
                [[x for x in picks.get(p, []) if x in by_name]
                 for p in pick_order(group.members, ranks)],  # R4.3
                ctx.season.games_per_night,
            )  # fmt: skip
            await nights.replace_games(
                conn,
                group.id,
                [by_name[m] for m in resolution.games],
                filled_game_numbers(resolution),  # R4.5
            )
            locked.append(
                LockedGroup(
                    group,
                    night.week,
                    group_label(group),
                    resolution.games,
                    resolution.kind,
                    resolution.applied,
                    resolution.filled,
                    day=night.date,
                    play_order=order(group),
                )
            )
        await nights.set_night_machines(conn, night.id, [m.id for m in working])
        await leagues.lock_night(conn, night.id, stamp(now))
        return [await told(lg, g) for lg, g in zip(locked, groups, strict=True)]


async def _locked(conn: aiosqlite.Connection, group: Group, night: Night) -> LockedGroup:
    games = await nights.games(conn, group.id)
    return LockedGroup(
        group,
        night.week,
        group_label(group),
        [g.machine for g in games],
        "",
        [],
        [],
        newly_locked=False,
        day=night.date,
    )


async def set_games(
    db: Database, guild_id: int, group_label_text: str, machines: list[str], *, now: datetime
) -> LockedGroup:
    """R4.5: the commissioner overrides the final list of one group's games.

    `group_label_text` is "1", "A1" or "B2"."""
    del now
    label = group_label_text.strip().upper()
    pool, position = parse_group_label(group_label_text)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        locked = [n for n in await leagues.nights(conn, ctx.season.id) if n.status == "locked"]
        if not locked:
            raise WrongState("Lock the night's picks before changing a group's games.")
        night = locked[0]
        group = group_at(await nights.groups(conn, night.id), pool, position)
        if group is None:
            raise BadInput(f"There is no group {label} in week {night.week}.")
        found = [await machine_named(conn, ctx.league, m) for m in machines]
        if len(found) != ctx.season.games_per_night:
            raise BadInput(f"Give exactly {ctx.season.games_per_night} games.")
        if await scores.count_of_group(conn, group.id):
            raise WrongState("Scores were already submitted for this group; its games are set.")
        await nights.replace_games(conn, group.id, [m.id for m in found], set())
        return LockedGroup(
            group, night.week, group_label(group), [m.name for m in found], "override", [], []
        )


async def _night_open_for_picks(
    conn: aiosqlite.Connection, ctx: SeasonContext, now: datetime
) -> Night:
    """R4.3: the coming night, while its picks can still change (not locked)."""
    night = await night_on_or_after(conn, ctx, ctx.local(now).date(), unfinished=True)
    if night.status != "scheduled":
        raise WrongState(f"Picks for week {night.week} are locked; the games are set.")
    return night
