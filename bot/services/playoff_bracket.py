"""A bracket on playoff night (R13.3, R13.6): what it holds, its matches made
and its places decided. The commands that play it are `bracket_games`.

`/playoffs start` names the machines and draws each division's bracket from
its seeds (the checked-in field, by standing). Each match is best of B games:
the higher seed picks game 1's machine among them, the loser of each game
picks the next, and no machine is played twice in a match (`/playoffs pick`,
or the commissioner names it with the scores). The commissioner records each
game's two raw scores (`/playoffs game`); the higher wins it and an exact tie
is replayed, so never recorded. A decided match makes the next ones (the
final, the match for third) and is announced with the bracket as it stands;
the last match of a division decides its places. A correction (`/playoffs
fix`, audited) decides again and re-posts, as long as it does not change who
played a match already under way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import BracketGame, BracketMatch, Machine, Night
from bot.repositories import match_cards, nights, people, playoff_matches, playoff_nights
from bot.repositories.match_cards import Slot
from bot.rules.playoffs import (
    Match,
    bracket_matches,
    bracket_places,
    game_winner,
    match_winner,
    next_picker,
)
from bot.services.context import (
    SeasonContext,
    season_of,
)
from bot.services.errors import BadInput, WrongState
from bot.services.outbox import owe_match_card
from bot.services.outcomes.bracket import (
    BracketResult,
    BracketShown,
    GameShown,
    MatchShown,
)
from bot.services.playoff_checkin import playoff_night_of
from bot.services.playoff_places import close_if_over, store_places

MAX_MACHINES = 20
ROUND_WORDS = {"semifinal": "semifinal", "final": "final", "third": "match for 3rd"}
ROUNDS = {"semifinal": "Semifinal", "final": "Final", "third": "Match for 3rd"}
OVER = "Playoff night is over; a commissioner corrects a game with /playoffs fix."
Pool = tuple[str, list[int], list[BracketMatch]]  # division, seeds (best first), its matches


def check_count(ctx: SeasonContext, named: int) -> None:
    """R13.3: a match plays no machine twice, so it needs as many as its games."""
    best_of = ctx.rules.playoff_best_of
    if named < best_of:
        raise BadInput(
            f"A match is best of {best_of} and plays no machine twice: name at least "
            f"{best_of} machines, separated by commas (you named {named})."
        )
    if named > MAX_MACHINES:
        raise BadInput(f"Name {MAX_MACHINES} machines at most (you named {named}).")


async def begin_in(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    chosen: Sequence[Machine],
    *,
    now: datetime,
) -> BracketShown:
    """R13.3: the machines stored and the first matches drawn (a field of one
    plays none: `decide_bracket_in`, after the start is announced, makes it champion)."""
    await playoff_matches.set_machines(conn, night.id, [m.id for m in chosen])
    await remake_in(conn, ctx, night)
    return await bracket_in(conn, ctx, night)


# --- what the bracket holds ----------------------------------------------------------------


async def pools_of(conn: aiosqlite.Connection, night: Night) -> list[Pool]:
    matches = await playoff_matches.matches(conn, night.id)
    return [
        (g.pool, list(g.members), [m for m in matches if m.pool == g.pool])
        for g in await nights.groups(conn, night.id)
    ]


def played_pairs(games: Sequence[BracketGame]) -> list[tuple[int, int]]:
    return [
        (g.high_score, g.low_score)
        for g in games
        if g.high_score is not None and g.low_score is not None
    ]


def numbered_games(games: Sequence[BracketGame]) -> list[tuple[int, tuple[int, int]]]:
    """The games played, each with its number."""
    played = [g for g in games if g.played]
    return list(zip([g.number for g in played], played_pairs(played), strict=True))


def winner_of(match: BracketMatch, best_of: int) -> int | None:
    won = match_winner(played_pairs(match.games), best_of)
    return None if won is None else (match.high_id, match.low_id)[won]


def decided_of(matches: Sequence[BracketMatch], best_of: int) -> dict[Match[int], int]:
    decided = {}
    for m in matches:
        winner = winner_of(m, best_of)
        if winner is not None:
            decided[Match(m.high_id, m.low_id)] = winner
    return decided


def places_of(seeds: list[int], matches: Sequence[BracketMatch], best_of: int) -> list[int] | None:
    """R13.6: a division's places once its bracket is over (a field of one: at once)."""
    return seeds[:1] if len(seeds) == 1 else bracket_places(seeds, decided_of(matches, best_of))


def wins_of(match: BracketMatch) -> tuple[int, int]:
    won = [game_winner(h, low) for h, low in played_pairs(match.games)]
    return won.count(0), won.count(1)


async def remake_in(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> list[int]:
    """Make the matches the results call for (a result corrected since: the
    match it made, not played yet, is made again). The ids of the matches made."""
    best_of = ctx.rules.playoff_best_of
    made: list[int] = []
    for pool, seeds, stored in await pools_of(conn, night):
        decided = decided_of(stored, best_of)
        have = {(m.round, m.slot): m for m in stored}
        for round_, slot, match in bracket_matches(seeds, decided):
            old = have.pop((round_, slot), None)
            if old is not None and (old.high_id, old.low_id) == (match.high, match.low):
                continue
            if old is not None:
                await playoff_matches.delete_match(conn, old.id)
            made.append(
                await playoff_matches.add_match(
                    conn, night.id, pool, round_, slot, match.high, match.low
                )
            )
        for old in have.values():
            await playoff_matches.delete_match(conn, old.id)
    return made


async def decide_bracket_in(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, *, now: datetime
) -> None:
    """R13.6: each division whose bracket is over gets its places, stored and
    announced (again only when they change); one a correction made undecided
    again loses them; playoff night closes when every division is decided."""
    best_of = ctx.rules.playoff_best_of
    names = await names_of(conn, ctx)
    undecided = changed = False
    for pool, seeds, stored in await pools_of(conn, night):
        places = places_of(seeds, stored, best_of)
        if places is None:
            undecided = True
            await playoff_nights.set_places(conn, night.id, pool, [])
            continue
        final = next((m for m in stored if m.round == "final"), None)
        wins = wins_of(final) if final is not None else None
        score = None if wins is None else (max(wins), min(wins))
        result = BracketResult(pool, [names[p] for p in places], score, places)
        changed |= await store_places(conn, ctx, night, pool, places, result.to_data(), now=now)
    await close_if_over(conn, ctx, night, undecided=undecided, changed=changed, now=now)


async def names_of(conn: aiosqlite.Connection, ctx: SeasonContext) -> dict[int, str]:
    return {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}


def _shown(
    m: BracketMatch,
    seeds: list[int],
    names: dict[int, str],
    machines: dict[int, str],
    best_of: int,
) -> MatchShown:
    winner = winner_of(m, best_of)
    pairs = played_pairs(m.games)
    picker = None if winner is not None else (m.high_id, m.low_id)[next_picker(pairs)]
    return MatchShown(
        m.pool,
        m.round,
        (seeds.index(m.high_id) + 1, names[m.high_id]),
        (seeds.index(m.low_id) + 1, names[m.low_id]),
        [
            GameShown(machines[g.machine_id], names[g.picked_by], g.high_score, g.low_score)
            for g in m.games
        ],
        wins_of(m),
        None if winner is None else names[winner],
        None if picker is None else names[picker],
        m.slot,
    )


async def bracket_in(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> BracketShown:
    names = await names_of(conn, ctx)
    machines = {m.id: m.name for m in await people.machines(conn, ctx.league.id)}
    best_of = ctx.rules.playoff_best_of
    shown, champions = [], {}
    for pool, seeds, matches in await pools_of(conn, night):
        shown += [_shown(m, seeds, names, machines, best_of) for m in matches]
        places = places_of(seeds, matches, best_of)
        if places:
            champions[pool] = names[places[0]]
    named = [machines[m] for m in await playoff_matches.machines(conn, night.id)]
    return BracketShown(best_of, named, shown, champions)


async def slots_in(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night
) -> dict[Slot, MatchShown]:
    """Each match of the bracket as it stands, by its place in the bracket
    (division, round, slot): what its card shows."""
    names = await names_of(conn, ctx)
    machines = {m.id: m.name for m in await people.machines(conn, ctx.league.id)}
    best_of = ctx.rules.playoff_best_of
    return {
        (m.pool, m.round, m.slot): _shown(m, seeds, names, machines, best_of)
        for _pool, seeds, matches in await pools_of(conn, night)
        for m in matches
    }


def _in_order(slot: Slot) -> tuple[str, int, int]:
    return slot[0], list(ROUND_WORDS).index(slot[1]), slot[2]


async def owe_cards_in(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    before: dict[Slot, MatchShown],
    *,
    now: datetime,
) -> None:
    """R13.3: each match's card as the bracket now stands (`before`: as it stood,
    from `slots_in`): a card whose match changed is edited (to show it is off,
    when a correction undid it); a match with no card yet gets one, posted."""
    after = await slots_in(conn, ctx, night)
    cards = await match_cards.of_night(conn, night.id)
    for slot in sorted(set(before) | set(after), key=_in_order):
        card = cards.get(slot)
        if card is None and slot in after:
            card_id = await match_cards.add(conn, night.id, slot)
            await owe_match_card(conn, ctx.league.guild_id, card_id, posted=False, now=now)
        elif card is not None and before.get(slot) != after.get(slot):
            await owe_match_card(conn, ctx.league.guild_id, card.id, posted=True, now=now)


async def match_shown_in(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, match_id: int
) -> MatchShown:
    names = await names_of(conn, ctx)
    machines = {m.id: m.name for m in await people.machines(conn, ctx.league.id)}
    for _pool, seeds, matches in await pools_of(conn, night):
        for m in matches:
            if m.id == match_id:
                return _shown(m, seeds, names, machines, ctx.rules.playoff_best_of)
    raise WrongState("That match is no longer in the bracket.")


# --- the commands --------------------------------------------------------------------------


async def shown(db: Database, guild_id: int) -> BracketShown:
    """`/playoffs bracket`: the whole bracket as it stands."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        night = await bracket_night_of(conn, ctx, over_too=True)
        return await bracket_in(conn, ctx, night)


async def bracket_night_of(
    conn: aiosqlite.Connection, ctx: SeasonContext, *, over_too: bool = False
) -> Night:
    if ctx.rules.playoff_format != "bracket":
        raise WrongState(
            "This season's playoffs are a final group, not a bracket: its players send "
            "scores with /score, and a commissioner corrects one with /league score change."
        )
    night = await playoff_night_of(conn, ctx)
    if night.status == "scheduled":
        raise WrongState(
            "Playoff night has not started: the commissioner starts it with /playoffs start."
        )
    if night.status == "finalized" and not over_too:
        raise WrongState(OVER)
    return night
