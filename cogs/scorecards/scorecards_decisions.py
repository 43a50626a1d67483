"""The commissioner's clicks on an approval card: approve every
complete game, approve one game, reject one score with a reason. One
transaction per click; the card is brought up to date through the outbox."""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.repositories import cards
from bot.services import approvals
from bot.services.context import SeasonContext, season_of
from bot.services.errors import BadInput, NotFound, WrongState
from cogs.scorecards.scorecards import card_in
from cogs.scorecards.scorecards_outcomes import CardDecision, CardView


async def _decide(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    guild_id: int,
    value: str,
    approve: bool,
    by: int,
    now: datetime,
    reason: str | None = None,
) -> None:
    kind, record = value[:1], value[1:]
    if not record.isdigit() or kind not in "sp":
        raise BadInput("That choice is not one of this card's scores.")
    decide = approvals.decide_score_in if kind == "s" else approvals.decide_pre_makeup_in
    await decide(conn, ctx, guild_id, int(record), approve, by=by, now=now, reason=reason)


async def _card(conn: aiosqlite.Connection, card_id: int, guild_id: int) -> CardView:
    """The card, if it is this server's league's (a click naming another's changes nothing)."""
    found = await card_in(conn, card_id)
    if found is None or await cards.guild_of(conn, card_id) != guild_id:
        raise NotFound("That card no longer exists.")
    return found


async def card(db: Database, guild_id: int, card_id: int) -> CardView:
    """A card as it stands, for the clicker's next menu."""
    async with db.read() as conn:
        return await _card(conn, card_id, guild_id)


async def approve_complete(
    db: Database, guild_id: int, card_id: int, *, by: int, now: datetime
) -> CardDecision:
    """Approve every waiting score of every game whose scores are all in."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        card = await _card(conn, card_id, guild_id)
        complete = [g for g in card.games if g.complete]
        incomplete = [g for g in card.games if g.waiting and not g.complete]
        count = 0
        for game in complete:
            for line in game.waiting:
                await _decide(conn, ctx, guild_id, line.value, True, by, now)
                count += 1
        return CardDecision(complete, count, incomplete=incomplete)


async def approve_game(
    db: Database, guild_id: int, card_id: int, value: str, *, by: int, now: datetime
) -> CardDecision:
    """Approve the waiting scores of one game (a pre-makeup card: one machine's)."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        card = await _card(conn, card_id, guild_id)
        game = next((g for g in card.games if g.value == value), None)
        if game is None:
            raise BadInput("That game is not on this card.")
        if not game.waiting:
            raise WrongState(f"Nothing waits for approval on {game.label} any more.")
        for line in game.waiting:
            await _decide(conn, ctx, guild_id, line.value, True, by, now)
        return CardDecision([game], len(game.waiting))


async def reject(
    db: Database, guild_id: int, card_id: int, value: str, reason: str, *, by: int, now: datetime
) -> CardDecision:
    """Reject one waiting score of the card, with the commissioner's reason
    (required here; the player is told it)."""
    if not reason.strip():
        raise BadInput("Give a reason; the player is told it.")
    approvals.check_reason(reason)  # before any work: a reason the player could not read is refused
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        card = await _card(conn, card_id, guild_id)
        found = [line for g in card.games for line in g.lines if line.value == value]
        if not found:
            raise BadInput("That score is not on this card.")
        line = found[0]
        await _decide(conn, ctx, guild_id, value, False, by, now, reason)
        return CardDecision([], 0, rejected=line)
