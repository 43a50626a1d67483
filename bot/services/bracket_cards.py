"""A bracket match's card (R13.3): one message per match of a division's
bracket in the announcements channel, edited in place through the outbox as
machines are picked and games played (`playoff_bracket.owe_cards_in`). Its
buttons do what the commands do: the player whose pick it is picks the next
game's machine from a menu, and a commissioner enters a game's two raw scores
in a form. Each is tied to its card's match and game, so a click on a card
out of date (a game recorded since, a match decided or undone) changes nothing
and says why."""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import BracketMatch, Night, OutboxItem
from bot.repositories import leagues, match_cards, outbox_items, people, playoff_matches
from bot.services.bracket_games import check_picker, pick_in, picker_of, play_in
from bot.services.context import SeasonContext, night_season, player_of, season_of, valid_score
from bot.services.errors import Conflict, LeagueError, NotFound, WrongState
from bot.services.outbox import moment, owe_match_card
from bot.services.outcomes.bracket import (
    GameForm,
    GameRecorded,
    MachinePicked,
    MatchCardShown,
    PickChoices,
)
from bot.services.playoff_bracket import (
    OVER,
    ROUND_WORDS,
    ROUNDS,
    bracket_night_of,
    names_of,
    played_pairs,
    pools_of,
    slots_in,
    winner_of,
)

NOT_OURS = "That match card is not one of this league's."
STALE = "Game {n} of this match is recorded already; the card shows it."


async def shown(db: Database, guild_id: int, card_id: int) -> MatchCardShown | None:
    """The card as it stands when sent (None: not this league's card)."""
    async with db.read() as conn:
        card = await match_cards.card(conn, card_id)
        night = (
            await leagues.night_by_id(conn, card.night_id)
            if card and card.guild_id == guild_id
            else None
        )
        ctx = await night_season(conn, guild_id, night) if card and night else None
        if card is None or night is None or ctx is None:
            return None
        match = (await slots_in(conn, ctx, night)).get(card.slot)
        best_of = ctx.rules.playoff_best_of
        is_open = night.status != "finalized" and match is not None and match.winner is None
        left: list[str] = []
        if is_open:
            stored = await _match_at(conn, night, card.slot)
            left = [name for _, name in await _left(conn, ctx, night, stored)] if stored else []
        pool, round_, slot = card.slot
        return MatchCardShown(
            card.id, pool, round_, slot, match, best_of, is_open, left, card.message_id
        )


async def choices(db: Database, guild_id: int, card_id: int, discord_id: int) -> PickChoices:
    """R13.3: what the clicker may pick for the card's match's next game, when
    it is their pick; else why not."""
    async with db.read() as conn:
        ctx, _night, match = await _open_match(conn, guild_id, card_id)
        me = await player_of(conn, ctx.league, discord_id)
        number = await check_picker(conn, ctx, match, me)
        return PickChoices(card_id, number, await _left(conn, ctx, _night, match), match.id)


async def pick(
    db: Database,
    guild_id: int,
    card_id: int,
    discord_id: int,
    number: int,
    machine_id: str,
    *,
    match_id: int | None = None,
    now: datetime,
) -> MachinePicked:
    """R13.3: the clicker picks the machine of game `number` of the card's match
    (`match_id`: the match the menu was made for)."""
    async with db.transaction() as conn:
        ctx, night, match = await _open_match(conn, guild_id, card_id)
        me = await player_of(conn, ctx.league, discord_id)
        _still_next(match, number, match_id)
        known = {str(m.id): m.name for m in await people.machines(conn, ctx.league.id)}
        if machine_id not in known:
            raise NotFound("That machine is not one of this league's; pick one from the menu.")
        return await pick_in(conn, ctx, night, match, me, known[machine_id], now=now)


async def form(db: Database, guild_id: int, card_id: int) -> GameForm:
    """What the commissioner's form for the card's match's next game asks."""
    async with db.read() as conn:
        ctx, _night, match = await _open_match(conn, guild_id, card_id)
        names = await names_of(conn, ctx)
        machines = {m.id: m.name for m in await people.machines(conn, ctx.league.id)}
        number = len(played_pairs(match.games)) + 1
        waiting = next((g for g in match.games if not g.played), None)
        picked = machines[waiting.machine_id] if waiting is not None else None
        high, low = names[match.high_id], names[match.low_id]
        title = f"{ROUNDS[match.round]} · Game {number}"
        return GameForm(
            card_id, number, high, low, picked, names[picker_of(match)], match.id, title
        )


async def play(
    db: Database,
    guild_id: int,
    card_id: int,
    number: int,
    high: int,
    low: int,
    machine: str | None,
    *,
    match_id: int | None = None,
    now: datetime,
) -> GameRecorded:
    """R13.3: the commissioner records game `number` of the card's match: the
    better seed's raw score first (the form's order; `match_id`: the match the
    form was made for, whose players it named)."""
    valid_score(high)
    valid_score(low)
    async with db.transaction() as conn:
        ctx, night, match = await _open_match(conn, guild_id, card_id)
        _still_next(match, number, match_id)
        return await play_in(conn, ctx, night, match, high, low, machine, now=now)


async def message_gone(db: Database, item: OutboxItem, card_id: int, *, now: datetime) -> bool:
    """The card's message was deleted (the edit `item` found it gone): the edit
    is dropped and, while its match is open, the card is posted again (its
    buttons are how the match is played). One transaction; True if posted again."""
    async with db.transaction() as conn:
        await outbox_items.dropped(conn, item.id, "the card's message is gone", moment(now))
        card = await match_cards.card(conn, card_id)
        if card is None or card.guild_id != item.guild_id or card.message_id is None:
            return False
        try:
            await _open_match(conn, item.guild_id, card_id)
        except LeagueError:
            return False
        await match_cards.forget_message(conn, card_id)  # later edits wait for the new post
        await owe_match_card(conn, item.guild_id, card_id, posted=False, now=now)
        return True


# --- the card's match --------------------------------------------------------------------


async def _match_at(
    conn: aiosqlite.Connection, night: Night, slot: match_cards.Slot
) -> BracketMatch | None:
    for _pool, _seeds, matches in await pools_of(conn, night):
        for m in matches:
            if (m.pool, m.round, m.slot) == slot:
                return m
    return None


async def _open_match(
    conn: aiosqlite.Connection, guild_id: int, card_id: int
) -> tuple[SeasonContext, Night, BracketMatch]:
    """The card's match, still to decide tonight; else why it cannot be played."""
    card = await match_cards.card(conn, card_id)
    if card is None or card.guild_id != guild_id:
        raise NotFound(NOT_OURS)
    ctx = await season_of(conn, guild_id)
    night = await bracket_night_of(conn, ctx, over_too=True)
    if night.id != card.night_id:
        raise WrongState(
            "That match card is from an earlier playoff night; see tonight's bracket "
            "with /playoffs bracket."
        )
    match = await _match_at(conn, night, card.slot)
    if match is None:
        raise WrongState(
            f"That {ROUND_WORDS[card.slot[1]]} waits again for the match before it (a "
            "correction changed its result). See the bracket with /playoffs bracket."
        )
    winner = winner_of(match, ctx.rules.playoff_best_of)
    over = f" {OVER}" if night.status == "finalized" else ""
    if winner is not None:
        names = await names_of(conn, ctx)
        raise WrongState(
            f"That {ROUND_WORDS[match.round]} is decided: {names[winner]} won it.{over}"
        )
    if over:
        raise WrongState(OVER)
    return ctx, night, match


def _still_next(match: BracketMatch, number: int, match_id: int | None) -> None:
    """A click on a card shown before game `number` was recorded, or before a
    correction changed who plays the match, changes nothing."""
    if match_id is not None and match_id != match.id:
        raise Conflict(
            "A correction changed who plays this match since the form or menu was "
            "opened: nothing was recorded. Tap the card's button again."
        )
    played = len(played_pairs(match.games))
    if number <= played:
        raise Conflict(STALE.format(n=number))
    if number != played + 1:
        raise Conflict("That card is out of date; open it again.")


async def _left(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, match: BracketMatch
) -> list[tuple[int, str]]:
    """R13.3: tonight's machines the next game may be played on: working, and
    not played in this match yet."""
    played = {g.machine_id for g in match.games if g.played}
    known = {m.id: m for m in await people.machines(conn, ctx.league.id)}
    return [
        (m, known[m].name)
        for m in await playoff_matches.machines(conn, night.id)
        if m not in played and m in known and known[m].working
    ]
