"""Playing a bracket on playoff night (R13.3, R13.6).

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
from bot.models import BracketGame, BracketMatch, Machine, Night, Player
from bot.outbox_kinds import Kind
from bot.repositories import nights, people, playoff_matches, playoff_nights
from bot.rules.playoffs import (
    Match,
    bracket_matches,
    bracket_places,
    decided_after,
    game_winner,
    match_winner,
    next_picker,
)
from bot.services.context import (
    SeasonContext,
    check_text,
    machine_named,
    player_named,
    player_of,
    season_of,
    stamp,
    valid_score,
)
from bot.services.errors import BadInput, Conflict, NotAllowed, WrongState
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes.bracket import (
    BracketResult,
    BracketShown,
    GameRecorded,
    GameShown,
    MachinePicked,
    MatchShown,
)
from bot.services.playoff_checkin import playoff_night_of
from bot.services.playoff_places import close_if_over, store_places

MAX_MACHINES = 20
ROUND_WORDS = {"semifinal": "semifinal", "final": "final", "third": "match for 3rd"}
TIE = (
    "An exact tie is replayed on the same machine: play game {n} again and enter the "
    "replay's scores."
)
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
    return await _bracket(conn, ctx, night)


# --- what the bracket holds ----------------------------------------------------------------


async def _pools(conn: aiosqlite.Connection, night: Night) -> list[Pool]:
    matches = await playoff_matches.matches(conn, night.id)
    return [
        (g.pool, list(g.members), [m for m in matches if m.pool == g.pool])
        for g in await nights.groups(conn, night.id)
    ]


def _pairs(games: Sequence[BracketGame]) -> list[tuple[int, int]]:
    return [
        (g.high_score, g.low_score)
        for g in games
        if g.high_score is not None and g.low_score is not None
    ]


def _numbered(games: Sequence[BracketGame]) -> list[tuple[int, tuple[int, int]]]:
    """The games played, each with its number."""
    played = [g for g in games if g.played]
    return list(zip([g.number for g in played], _pairs(played), strict=True))


def _winner(match: BracketMatch, best_of: int) -> int | None:
    won = match_winner(_pairs(match.games), best_of)
    return None if won is None else (match.high_id, match.low_id)[won]


def _decided(matches: Sequence[BracketMatch], best_of: int) -> dict[Match[int], int]:
    decided = {}
    for m in matches:
        winner = _winner(m, best_of)
        if winner is not None:
            decided[Match(m.high_id, m.low_id)] = winner
    return decided


def _wins(match: BracketMatch) -> tuple[int, int]:
    won = [game_winner(h, low) for h, low in _pairs(match.games)]
    return won.count(0), won.count(1)


async def remake_in(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> list[int]:
    """Make the matches the results call for (a result corrected since: the
    match it made, not played yet, is made again). The ids of the matches made."""
    best_of = ctx.rules.playoff_best_of
    made: list[int] = []
    for pool, seeds, stored in await _pools(conn, night):
        decided = _decided(stored, best_of)
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
    names = await _names(conn, ctx)
    undecided = changed = False
    for pool, seeds, stored in await _pools(conn, night):
        places = seeds[:1] if len(seeds) == 1 else bracket_places(seeds, _decided(stored, best_of))
        if places is None:
            undecided = True
            await playoff_nights.set_places(conn, night.id, pool, [])
            continue
        final = next((m for m in stored if m.round == "final"), None)
        wins = _wins(final) if final is not None else None
        score = None if wins is None else (max(wins), min(wins))
        result = BracketResult(pool, [names[p] for p in places], score, places)
        changed |= await store_places(conn, ctx, night, pool, places, result.to_data(), now=now)
    await close_if_over(conn, ctx, night, undecided=undecided, changed=changed, now=now)


async def _names(conn: aiosqlite.Connection, ctx: SeasonContext) -> dict[int, str]:
    return {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}


def _shown(
    m: BracketMatch,
    seeds: list[int],
    names: dict[int, str],
    machines: dict[int, str],
    best_of: int,
) -> MatchShown:
    winner = _winner(m, best_of)
    pairs = _pairs(m.games)
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
        _wins(m),
        None if winner is None else names[winner],
        None if picker is None else names[picker],
    )


async def _bracket(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> BracketShown:
    names = await _names(conn, ctx)
    machines = {m.id: m.name for m in await people.machines(conn, ctx.league.id)}
    best_of = ctx.rules.playoff_best_of
    shown, champions = [], {}
    for pool, seeds, matches in await _pools(conn, night):
        shown += [_shown(m, seeds, names, machines, best_of) for m in matches]
        places = seeds[:1] if len(seeds) == 1 else bracket_places(seeds, _decided(matches, best_of))
        if places:
            champions[pool] = names[places[0]]
    named = [machines[m] for m in await playoff_matches.machines(conn, night.id)]
    return BracketShown(best_of, named, shown, champions)


async def _match_shown(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, match_id: int
) -> MatchShown:
    names = await _names(conn, ctx)
    machines = {m.id: m.name for m in await people.machines(conn, ctx.league.id)}
    for _pool, seeds, matches in await _pools(conn, night):
        for m in matches:
            if m.id == match_id:
                return _shown(m, seeds, names, machines, ctx.rules.playoff_best_of)
    raise WrongState("That match is no longer in the bracket.")


# --- the commands --------------------------------------------------------------------------


async def shown(db: Database, guild_id: int) -> BracketShown:
    """`/playoffs bracket`: the whole bracket as it stands."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _bracket_night(conn, ctx, over_too=True)
        return await _bracket(conn, ctx, night)


async def _bracket_night(
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


def _current(pools: list[Pool], player: Player, best_of: int) -> BracketMatch:
    """The player's match still to decide, or why they have none."""
    pool = next((p for p in pools if player.id in p[1]), None)
    if pool is None:
        raise NotAllowed(f"{player.name} is not in tonight's bracket.")
    _, seeds, matches = pool
    mine = [m for m in matches if player.id in (m.high_id, m.low_id)]
    for m in mine:
        if _winner(m, best_of) is None:
            return m
    if len(seeds) == 1:
        raise WrongState(f"{player.name} is the only player of the field: no match to play.")
    if not mine:
        raise WrongState(f"{player.name}'s final waits for the semifinal.")
    if all(m.round == "semifinal" for m in mine) and len(seeds) == 4:
        next_match = "final" if _winner(mine[0], best_of) == player.id else "match for 3rd"
        raise WrongState(f"{player.name}'s {next_match} waits for the other semifinal.")
    raise WrongState(f"{player.name} has no match left to play tonight.")


async def _pickable(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, match: BracketMatch, name: str
) -> Machine:
    """R13.3: a machine of tonight's, working, not played in this match yet."""
    machine = await machine_named(conn, ctx.league, name)
    allowed = await playoff_matches.machines(conn, night.id)
    if machine.id not in allowed:
        known = {m.id: m.name for m in await people.machines(conn, ctx.league.id)}
        listed = ", ".join(known[m] for m in allowed)
        raise BadInput(f"{machine.name} is not one of tonight's playoff machines: {listed}.")
    played = next((g for g in match.games if g.machine_id == machine.id and g.played), None)
    if played is not None:
        raise BadInput(
            f"{machine.name} was played in game {played.number} of this match; "
            "no machine is played twice in a match."
        )
    if not machine.working:
        raise BadInput(f"{machine.name} is marked not working; pick another machine.")
    return machine


def _refuse_twice(pools: list[Pool], player: Player, score: int, other: int) -> None:
    """A game sent again (its answer never came, and the commissioner tried
    again) is not recorded twice: the same two raw scores as the player's last
    game recorded are that game."""
    mine = [m for _, _, ms in pools for m in ms if player.id in (m.high_id, m.low_id)]
    played = [(m, g) for m in mine for g in m.games if g.played]  # in round order, then game
    if not played:
        return
    m, g = played[-1]
    if (g.high_score, g.low_score) == _ordered(m, player, score, other):
        raise Conflict(
            f"That game is already recorded: game {g.number} of the {ROUND_WORDS[m.round]}, "
            f"{score:,} to {other:,}."
        )


def _ordered(match: BracketMatch, player: Player, score: int, other: int) -> tuple[int, int]:
    """The two scores typed (the player's first) as stored: the better seed's first."""
    return (score, other) if player.id == match.high_id else (other, score)


def _picker_of(match: BracketMatch) -> int:
    return (match.high_id, match.low_id)[next_picker(_pairs(match.games))]


def _why_picker(number: int) -> str:
    return "the higher seed picks game 1" if number == 1 else f"the loser of game {number - 1}"


async def pick(
    db: Database, guild_id: int, discord_id: int, machine: str, *, now: datetime
) -> MachinePicked:
    """R13.3: a player picks the machine of their match's next game, when it is their pick."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _bracket_night(conn, ctx)
        me = await player_of(conn, ctx.league, discord_id)
        match = _current(await _pools(conn, night), me, ctx.rules.playoff_best_of)
        number = len(_pairs(match.games)) + 1
        picker = _picker_of(match)
        if picker != me.id:
            names = await _names(conn, ctx)
            raise NotAllowed(
                f"{names[picker]} picks game {number}'s machine ({_why_picker(number)})."
            )
        chosen = await _pickable(conn, ctx, night, match, machine)
        await playoff_matches.pick(conn, match.id, number, chosen.id, me.id)
        return MachinePicked(await _match_shown(conn, ctx, night, match.id), number, chosen.name)


async def play(
    db: Database,
    guild_id: int,
    player: str,
    score: int,
    opponent_score: int,
    machine: str | None,
    *,
    now: datetime,
) -> GameRecorded:
    """R13.3: the commissioner records the next game of a player's match: both
    raw scores (the named player's first), on the machine picked, or named now
    for its picker. A decided match makes the next ones and is announced."""
    valid_score(score)
    valid_score(opponent_score)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _bracket_night(conn, ctx, over_too=True)
        target = await player_named(conn, ctx.league, player)
        best_of = ctx.rules.playoff_best_of
        pools = await _pools(conn, night)
        _refuse_twice(pools, target, score, opponent_score)
        if night.status == "finalized":
            raise WrongState(OVER)
        match = _current(pools, target, best_of)
        number = len(_pairs(match.games)) + 1
        waiting = next((g for g in match.games if not g.played), None)
        names = await _names(conn, ctx)
        if waiting is None:
            picker = _picker_of(match)
            if machine is None:
                raise BadInput(
                    f"Game {number}'s machine is not picked yet: {names[picker]} picks it "
                    f"({_why_picker(number)}). Name it with machine:."
                )
            chosen = await _pickable(conn, ctx, night, match, machine)
            await playoff_matches.pick(conn, match.id, number, chosen.id, picker)
        elif machine is not None:
            chosen = await _pickable(conn, ctx, night, match, machine)
            if chosen.id != waiting.machine_id:
                raise BadInput(
                    f"Game {number} is on the machine {names[waiting.picked_by]} "
                    "picked; leave machine: empty, or the player picks again "
                    "with /playoffs pick."
                )
        high, low = _ordered(match, target, score, opponent_score)
        if high == low:
            raise BadInput(TIE.format(n=number))
        await playoff_matches.play(conn, match.id, number, high, low, stamp(now))
        made = await remake_in(conn, ctx, night)
        done = await _recorded(conn, ctx, night, match.id, number, made, corrected=False, now=now)
        await decide_bracket_in(conn, ctx, night, now=now)  # the champion after the match
        return done


async def _recorded(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    match_id: int,
    number: int,
    made: list[int],
    *,
    corrected: bool,
    now: datetime,
) -> GameRecorded:
    """The game as recorded; a decided match (or a decided one corrected) is
    announced with the bracket as it stands."""
    shown_match = await _match_shown(conn, ctx, night, match_id)
    recorded = GameRecorded(
        shown_match,
        number,
        [await _match_shown(conn, ctx, night, m) for m in made],
        await _bracket(conn, ctx, night),
        corrected,
    )
    if shown_match.winner is not None or corrected:
        await owe(
            conn,
            ctx.league.guild_id,
            ANNOUNCEMENTS,
            Kind.PLAYOFF_MATCH,
            f"match:{match_id}",
            recorded.to_data(),
            now=now,
        )
    return recorded


async def fix(
    db: Database,
    guild_id: int,
    player: str,
    round_: str,
    number: int,
    score: int,
    opponent_score: int,
    reason: str,
    *,
    by: int,
    now: datetime,
) -> GameRecorded:
    """R12, R13.3: the commissioner corrects a played game of a player's match
    (audited). Refused when it would change who played a match already under
    way, or leave a match decided before its last game was played."""
    valid_score(score)
    valid_score(opponent_score)
    why = check_text(reason, "The reason", 200)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _bracket_night(conn, ctx, over_too=True)
        target = await player_named(conn, ctx.league, player)
        best_of = ctx.rules.playoff_best_of
        pools = await _pools(conn, night)
        match = next(
            (
                m
                for _, _, ms in pools
                for m in ms
                if m.round == round_ and target.id in (m.high_id, m.low_id)
            ),
            None,
        )
        if match is None:
            raise BadInput(f"{target.name} played no {ROUND_WORDS[round_]} tonight.")
        game = next((g for g in match.games if g.number == number and g.played), None)
        if game is None:
            raise BadInput(
                f"Game {number} of {target.name}'s {ROUND_WORDS[round_]} has not been played."
            )
        high, low = _ordered(match, target, score, opponent_score)
        if high == low:
            raise BadInput(TIE.format(n=number))
        games = [(high, low) if n == number else pair for n, pair in _numbered(match.games)]
        after = decided_after(games, best_of)
        if after is not None and after < len(games):
            raise BadInput(
                f"With these scores the match was over after game {after}, yet {len(games)} "
                "games were played: correct the other games first."
            )
        pool = next(p for p in pools if match in p[2])
        if after is None and night.status == "finalized":
            raise WrongState(
                "Playoff night is over: a correction can change who won a "
                "match, not leave it unfinished."
            )
        _refuse_if_played_on(pool, match, games, best_of)
        if (game.high_score, game.low_score) == (high, low):
            raise Conflict(
                f"Game {number} of the {ROUND_WORDS[round_]} already has these scores: "
                "nothing changed."
            )
        await playoff_matches.change(conn, match.id, game, high, low, by, stamp(now), why)
        await playoff_matches.drop_picks(conn, match.id)  # the next picker may have changed
        made = await remake_in(conn, ctx, night)
        done = await _recorded(conn, ctx, night, match.id, number, made, corrected=True, now=now)
        await decide_bracket_in(conn, ctx, night, now=now)
        return done


def _refuse_if_played_on(
    pool: Pool, match: BracketMatch, games: list[tuple[int, int]], best_of: int
) -> None:
    """A correction that changes a match's result may not change who plays a
    later match already under way (a machine picked or a game played)."""
    _, seeds, matches = pool
    decided = _decided([m for m in matches if m.id != match.id], best_of)
    won = match_winner(games, best_of)
    if won is not None:
        decided[Match(match.high_id, match.low_id)] = (match.high_id, match.low_id)[won]
    wanted = {(r, s): (m.high, m.low) for r, s, m in bracket_matches(seeds, decided)}
    for m in matches:
        if m.games and wanted.get((m.round, m.slot)) != (m.high_id, m.low_id):
            raise WrongState(
                f"That changes who won the {ROUND_WORDS[match.round]}, and the "
                f"{ROUND_WORDS[m.round]} it led to is under way: a correction cannot change "
                "who played a match."
            )
