"""Players joining and leaving the league, their ratings, IFPA numbers and pre-
makeup nights, and the next night's groups recut for them (R3.5, R8.2, R8.6,
R12.4)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import League, Machine, Player
from bot.repositories import leagues, nights, people
from bot.scoring import (
    cut_groups,
    seed_groups,
    with_newcomers,
)
from bot.services.context import (
    brief,
    check_player_name,
    league_of,
    player_named,
    stamp,
)
from bot.services.errors import BadInput, Conflict


@dataclass(frozen=True)
class PlayerAdded:
    player: Player
    restored: bool


async def add_player(
    db: Database,
    guild_id: int,
    name: str,
    *,
    discord_id: int | None,
    skill: float | None = None,
    now: datetime,
) -> PlayerAdded:
    """Add a league player with the commissioner's skill rating (R8.2).

    A player who joins after groups were made is placed at the bottom of the
    ladder and the upcoming night's groups are recut (R8.6)."""
    name = check_player_name(name)
    if skill is not None and not 1 <= skill <= 10:
        raise BadInput("A skill rating is from 1 (novice) to 10 (expert).")
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        added = await join(conn, league, name, discord_id=discord_id, skill=skill, now=now)
        await recut_upcoming(conn, league.id)
        return added


async def join(
    conn: aiosqlite.Connection,
    league: League,
    name: str,
    *,
    discord_id: int | None,
    skill: float | None,
    now: datetime,
    ifpa_number: int | None = None,
) -> PlayerAdded:
    """Add (or welcome back, by Discord id) one checked player in the caller's
    transaction; the caller recuts the upcoming groups once (R8.6)."""
    restored = False
    existing = (
        await people.player_by_discord(conn, league.id, discord_id)
        if discord_id is not None
        else None
    )
    if existing is not None and not existing.removed:
        raise Conflict(f"{existing.name} is already a player.")
    clash = await people.player_by_name(conn, league.id, name)
    if clash is not None:
        raise Conflict(f"There is already a player called {clash.name}; pick another name.")
    if existing is not None:
        await people.restore_player(conn, existing.id, name, skill)
        player_id, restored = existing.id, True
    else:
        player_id = await people.add_player(conn, league.id, discord_id, name, skill, stamp(now))
    if ifpa_number is not None:
        await people.set_ifpa(conn, player_id, ifpa_number)
    player = await people.player_by_id(conn, player_id)
    assert player is not None
    return PlayerAdded(player, restored)


@dataclass(frozen=True)
class PlayerRemoved:
    player: Player
    playing_week: int | None  # the night being played (picks locked) that they are in


async def remove_player(db: Database, guild_id: int, name: str, *, now: datetime) -> PlayerRemoved:
    """R12.4: remove a player from the league; their history stays.

    A player in the night being played stays in it: their scores and absence
    count for that night, which the commissioner can still finalize (scores
    changed, absence marked by name); `playing_week` says which night that is.
    From the next night on they are in no group."""
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        player = await player_named(conn, league, name)
        await people.remove_player(conn, player.id, stamp(now))
        await recut_upcoming(conn, league.id)
        removed = await people.player_by_id(conn, player.id)
        assert removed is not None
        playing = None
        season = await leagues.open_season(conn, league.id)
        for night in await leagues.nights(conn, season.id) if season is not None else []:
            if night.status == "locked" and any(
                player.id in g.members for g in await nights.groups(conn, night.id)
            ):
                playing = night.week
        return PlayerRemoved(removed, playing)


async def set_skill(db: Database, guild_id: int, name: str, skill: float | None) -> Player:
    """R8.2: the commissioner's skill rating, 1-10, or none."""
    if skill is not None and not 1 <= skill <= 10:
        raise BadInput("A skill rating is from 1 (novice) to 10 (expert).")
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        player = await player_named(conn, league, name)
        await people.set_skill(conn, player.id, skill)
        await recut_upcoming(conn, league.id)  # week 1 is cut by skill (R8.2)
        changed = await people.player_by_id(conn, player.id)
        assert changed is not None
        return changed


IFPA_DIGITS = 7  # IFPA numbers run past 100,000; seven digits leave room


def parse_ifpa(text: str) -> int | None:
    """An IFPA number as typed ("12345", "#12345"); "none" or nothing clears it."""
    value = text.strip().lstrip("#").strip()
    if value.casefold() in ("", "none", "-"):
        return None
    if not re.fullmatch(rf"[0-9]{{1,{IFPA_DIGITS}}}", value) or int(value) == 0:
        raise BadInput(
            f"{brief(text)} is not an IFPA number: up to {IFPA_DIGITS} digits, "
            "as on the player's IFPA page, or 'none' to clear it."
        )
    return int(value)


async def set_ifpa(db: Database, guild_id: int, name: str, number: str) -> Player:
    """A player's IFPA number, for the final standings export."""
    value = parse_ifpa(number)
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        player = await player_named(conn, league, name)
        if value is not None:
            holder = await people.player_by_ifpa(conn, league.id, value)
            if holder is not None and holder.id != player.id:
                raise Conflict(f"{holder.name} already has IFPA number {value}.")
        await people.set_ifpa(conn, player.id, value)
        changed = await people.player_by_id(conn, player.id)
        assert changed is not None
        return changed


async def grant_pre_makeup_nights(db: Database, guild_id: int, name: str, nights: int) -> Player:
    """R3.5: the commissioner may grant a player more pre-makeup nights."""
    if not 1 <= nights <= 10:
        raise BadInput("Grant 1 to 10 extra pre-makeup nights at a time.")
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        player = await player_named(conn, league, name)
        await people.grant_pre_makeup_nights(conn, player.id, nights)
        changed = await people.player_by_id(conn, player.id)
        assert changed is not None
        return changed


async def recut_upcoming(conn: aiosqlite.Connection, league_id: int) -> None:
    """R8.6: recut the next unplayed night's stored groups from the ladder order."""
    season = await leagues.open_season(conn, league_id)
    if season is None:
        return
    upcoming = [n for n in await leagues.nights(conn, season.id) if n.status == "scheduled"]
    if not upcoming:
        return
    night = upcoming[0]
    stored = await nights.groups(conn, night.id)
    if not stored:
        return  # week 1 is seeded by skill when it is first asked for (R8.2)
    players = await people.players(conn, league_id)
    if night.week == 1:  # R8.2: week 1 is cut by skill, whoever joined when
        cut = seed_groups([(p.id, p.skill) for p in players]) if len(players) > 1 else []
        await nights.replace_groups(conn, night.id, {"": cut})
        return
    pools: dict[str, list[int]] = {}
    for group in stored:
        pools.setdefault(group.pool, []).extend(group.members)
    pools = with_newcomers(pools, [p.id for p in players])
    if set(pools) == {""} and len(pools[""]) < 2:
        pools = {}  # R8.1: one player left has nobody to play; cut when others join
    await nights.replace_groups(
        conn,
        night.id,
        {pool: cut_groups(ladder, division=pool != "") for pool, ladder in pools.items() if ladder},
    )


async def roster(db: Database, guild_id: int) -> tuple[list[Player], list[Machine]]:
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
        return await people.players(conn, league.id), await people.machines(conn, league.id)
