"""Dues, each night's pot and the season prize fund (R10)."""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import Night
from bot.repositories import leagues, nights, people, playoff_nights, results
from bot.rules.playoffs import prize_order
from bot.scoring import season_prizes, split_dues
from bot.services import playoffs
from bot.services.context import (
    SeasonContext,
    check_text,
    night_of_week,
    night_season,
    player_of_night,
    season_of,
    stamp,
)
from bot.services.errors import BadInput, Conflict
from bot.services.finalize import check_still_open, refinalize_in
from bot.services.playoffs import closed_early
from bot.services.standings import by_division, rows_of
from cogs.money.money_outcomes import (
    DuesRecorded,
    MoneySummary,
    PlayerDues,
    Pot,
    PrizeShare,
    SeasonPrizes,
)


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
    recorded = await record_dues_of(db, guild_id, [player_name], week, cents=cents, by=by, now=now)
    return recorded.pot


async def record_dues_of(
    db: Database,
    guild_id: int,
    player_names: list[str],
    week: int,
    *,
    cents: int | None = None,
    by: int,
    now: datetime,
) -> DuesRecorded:
    """R10.1: several players paid their dues for a night, in one transaction:
    every name is checked first, and one bad name (or dues already recorded)
    records nothing and names it. A final night's payout is recomputed once."""
    if cents is not None and not 1 <= cents <= 100_000:
        raise BadInput("Dues are from $0.01 to $1,000.00.")
    names = [n.strip() for n in player_names if n.strip()]
    if not names:
        raise BadInput("Name at least one player.")
    if len(names) > 60:
        raise BadInput("Record at most 60 players at once.")
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await night_of_week(conn, ctx, week)
        amount = ctx.season.dues_cents if cents is None else cents
        if amount <= 0:
            raise BadInput("This season has no dues.")
        players = [await player_of_night(conn, ctx.league, night, name) for name in names]
        seen: set[int] = set()
        for player in players:
            if player.id in seen:
                raise BadInput(f"{player.name} is named twice; nothing was recorded.")
            seen.add(player.id)
            if await results.dues_paid(conn, night.id, player.id):
                raise Conflict(
                    f"{player.name}'s dues for week {week} are already recorded; "
                    "nothing was recorded."
                )
        if night.status == "finalized":
            await check_still_open(conn, ctx, night)
        for player in players:
            await results.add_dues(conn, night.id, player.id, amount, by, stamp(now))
        if night.status == "finalized":  # R10.2: the payout follows the pot
            await refinalize_in(conn, ctx, night, by=by, now=now)
        total = await results.dues_of_night(conn, night.id)
        pot, fund = split_dues(total)
        return DuesRecorded(
            Pot(week, total, pot, fund, recomputed=night.status == "finalized"),
            [(p.name, amount) for p in players],
        )


async def summary(db: Database, guild_id: int, week: int | None = None) -> MoneySummary:
    """R10.1: the week's pot, the season fund, and each player's dues paid and
    owed up to that week. Decision: a player owes the season's dues for each
    night up to the week in which they were in a group and have none recorded.
    `week` defaults to the last night that is not still to come."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        all_nights = await leagues.nights(conn, ctx.season.id)
        held = [n for n in all_nights if n.status != "scheduled"]
        if week is None:
            week = held[-1].week if held else 1
        night = await night_of_week(conn, ctx, week)
        paid: dict[int, int] = {}
        owed: dict[int, int] = {}
        for past in held:
            if past.week > week:
                break
            for group in await nights.groups(conn, past.id):
                for member in group.members:
                    owed.setdefault(member, 0)
                    if not await results.dues_paid(conn, past.id, member):
                        owed[member] += ctx.season.dues_cents
        everyone = await people.players(conn, ctx.league.id, removed=True)
        for player in everyone:
            cents = await results.dues_of_player_to_week(conn, ctx.season.id, player.id, week)
            if cents or player.id in owed or not player.removed:
                paid[player.id] = cents
        named = {p.id: p.name for p in everyone}
        rows = sorted(
            (PlayerDues(named[i], paid.get(i, 0), owed.get(i, 0)) for i in set(paid) | set(owed)),
            key=lambda r: (-r.owed_cents, r.name.casefold()),
        )
        pot, _ = split_dues(await results.dues_of_night(conn, night.id))
        return MoneySummary(week, pot, await season_fund(conn, ctx.season.id), rows)


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
    # With divisions, a player in no group yet sits at the bottom of B (R8.6);
    # A before B: leftover cents go to A's winner.
    divisions = by_division(rows)
    decided = await playoffs.season_order_in(conn, ctx)  # R13.6: the playoff places
    forfeit: frozenset[int] = frozenset()
    if decided is not None:
        forfeit = decided.forfeit
        for division, members in divisions.items():
            row_of = {row.player.id: row for row in members}
            order = decided.divisions.get(division, [])
            divisions[division] = [row_of[p] for p in order if p in row_of]
    shares = season_prizes(
        fund,
        {d or "A": prize_order([row.player.id for row in members], forfeit)
         for d, members in divisions.items()},
        split,
    )  # fmt: skip
    out: dict[str, list[PrizeShare]] = {}
    for division, members in divisions.items():
        places = len(split.places.get(division or "A", ()))
        eligible = [row for row in members if row.player.id not in forfeit]
        out[division] = [
            PrizeShare(row.player.name, n if n <= places else 0, shares[row.player.id])
            for n, row in enumerate(eligible, start=1)
            if row.player.id in shares
        ]
    final = bool(nights) and all(n.status == "finalized" for n in nights)
    final = final or ctx.season.status == "closed"  # R13.6: a season closed early ends there
    return SeasonPrizes(fund, out, final, by_playoffs=decided is not None)


async def season_end_prizes(db: Database, guild_id: int, night: Night) -> SeasonPrizes | None:
    """R10.4, R13.6: the prize shares for the season's final post: after playoff
    night `night` is decided, or, in a season with no playoff night set, after
    its last regular night; when every night is final. Else None."""
    async with db.read() as conn:
        ctx = await night_season(conn, guild_id, night)
        if ctx is None:
            return None
        finale = await playoff_nights.playoff_night(conn, ctx.season.id)
        if await closed_early(conn, ctx, night):  # R13.6: by standings, without playoffs
            return await prizes_in(conn, ctx)
        if night.kind == "playoff":
            if finale is None or finale.id != night.id or finale.status != "finalized":
                return None
        elif night.week != ctx.season.regular_nights or finale is not None:
            return None  # R13.6: the playoffs decide the prizes
        shares = await prizes_in(conn, ctx)
    return shares if shares.final else None


async def player_names(db: Database, guild_id: int, typed: str) -> list[str]:
    """The league's current players whose name contains `typed` (for autocomplete)."""
    wanted = typed.strip().casefold()
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        found = await people.players(conn, ctx.league.id)
    return [p.name for p in found if wanted in p.name.casefold()]
