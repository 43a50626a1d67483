"""Dues, each night's pot and the season prize fund (R10)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.repositories import leagues, results
from bot.scoring import season_prizes, split_dues
from bot.services.context import (
    SeasonContext,
    check_text,
    night_of_week,
    player_of_night,
    season_of,
    stamp,
)
from bot.services.errors import BadInput, Conflict
from bot.services.finalize import check_still_open, refinalize_in
from bot.services.outcomes import PrizeShare, SeasonPrizes, StandingRow
from bot.services.standings import rows_of


@dataclass(frozen=True)
class Pot:
    week: int
    dues_cents: int
    pot_cents: int  # R10.1: half of the night's dues
    fund_cents: int  # the other half
    recomputed: bool = False  # the night was final: its payout was recomputed


async def record_dues(
    db: Database,
    guild_id: int,
    player_name: str,
    week: int,
    *,
    cents: int | None = None,
    by: int,
    now: datetime,
) -> Pot:
    """R10.1: a player paid their dues for a night (the season's dues unless said)."""
    if cents is not None and not 1 <= cents <= 100_000:
        raise BadInput("Dues are from $0.01 to $1,000.00.")
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await night_of_week(conn, ctx, week)
        player = await player_of_night(conn, ctx.league, night, player_name)
        amount = ctx.season.dues_cents if cents is None else cents
        if amount <= 0:
            raise BadInput("This season has no dues.")
        if await results.dues_paid(conn, night.id, player.id):
            raise Conflict(f"{player.name}'s dues for week {week} are already recorded.")
        if night.status == "finalized":
            await check_still_open(conn, ctx, night)
        await results.add_dues(conn, night.id, player.id, amount, by, stamp(now))
        if night.status == "finalized":  # R10.2: the payout follows the pot
            await refinalize_in(conn, ctx, night, by=by, now=now)
        total = await results.dues_of_night(conn, night.id)
        pot, fund = split_dues(total)
        return Pot(week, total, pot, fund, recomputed=night.status == "finalized")


async def add_to_fund(
    db: Database, guild_id: int, cents: int, note: str = "", *, by: int, now: datetime
) -> int:
    """R10.1: the commissioner may add to the season prize fund. Returns the fund."""
    if not 1 <= cents <= 10_000_000:
        raise BadInput("Add from $0.01 to $100,000.00.")
    note = check_text(note, "note", 200)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        await results.add_to_fund(conn, ctx.season.id, cents, note, by, stamp(now))
        return await season_fund(conn, ctx.season.id)


async def season_fund(conn: aiosqlite.Connection, season_id: int) -> int:
    halves = 0
    for night in await leagues.nights(conn, season_id):
        halves += split_dues(await results.dues_of_night(conn, night.id))[1]
    return halves + await results.fund_additions(conn, season_id)


async def prizes(db: Database, guild_id: int) -> SeasonPrizes:
    """R10.4: the fund and each player's share by the current standings,
    split by the season's settings (`prize_places_a`, `prize_consolation_a`, …)."""
    async with db.read() as conn:
        return await prizes_in(conn, await season_of(conn, guild_id))


async def prizes_in(conn: aiosqlite.Connection, ctx: SeasonContext) -> SeasonPrizes:
    """`prizes` of `ctx`'s season (a past one too), in the caller's read."""
    rows = await rows_of(conn, ctx)
    fund = await season_fund(conn, ctx.season.id)
    split = ctx.settings().prize_split
    nights = await leagues.nights(conn, ctx.season.id)
    # The rules know divisions A and B; one undivided league is paid as A (R10.4).
    # With divisions, a player in no group yet sits at the bottom of B (R8.6).
    divided = any(row.division for row in rows)
    divisions: dict[str, list[StandingRow]] = {}
    for row in rows:
        division = row.division or ("B" if divided else "")
        divisions.setdefault(division, []).append(row)
    divisions = dict(sorted(divisions.items()))  # A before B: leftover cents go to A's winner
    shares = season_prizes(
        fund,
        {d or "A": [row.player.id for row in members] for d, members in divisions.items()},
        split,
    )
    out: dict[str, list[PrizeShare]] = {}
    for division, members in divisions.items():
        places = len(split.places.get(division or "A", ()))
        out[division] = [
            PrizeShare(row.player.name, n if n <= places else 0, shares[row.player.id])
            for n, row in enumerate(members, start=1)
            if row.player.id in shares
        ]
    final = bool(nights) and all(n.status == "finalized" for n in nights)
    return SeasonPrizes(fund, out, final)


async def season_end_prizes(db: Database, guild_id: int, week: int) -> SeasonPrizes | None:
    """R10.4: the prize shares for the season's final post, when `week` was the
    last regular-season night and every night is final; else None."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        if week != ctx.season.regular_nights:
            return None
    shares = await prizes(db, guild_id)
    return shares if shares.final else None
