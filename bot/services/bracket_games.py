"""Playing a bracket's games (R13.3, R13.6): a player's machine pick, the
commissioner's game with both scores, and a correction (R12, audited). Each
makes the next matches, posts a decided match, and decides the places
(`playoff_bracket`)."""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import BracketMatch, Machine, Night, Player
from bot.outbox_kinds import Kind
from bot.repositories import people, playoff_matches
from bot.rules.playoffs import Match, bracket_matches, decided_after, match_winner, next_picker
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
from bot.services.outcomes.bracket import GameRecorded, MachinePicked
from bot.services.playoff_bracket import (
    OVER,
    ROUND_WORDS,
    Pool,
    bracket_in,
    bracket_night_of,
    decide_bracket_in,
    decided_of,
    match_shown_in,
    names_of,
    numbered_games,
    owe_cards_in,
    played_pairs,
    pools_of,
    remake_in,
    slots_in,
    winner_of,
)

TIE = (
    "An exact tie is replayed on the same machine: play game {n} again and enter the "
    "replay's scores."
)


def _current(pools: list[Pool], player: Player, best_of: int) -> BracketMatch:
    """The player's match still to decide, or why they have none."""
    pool = next((p for p in pools if player.id in p[1]), None)
    if pool is None:
        raise NotAllowed(f"{player.name} is not in tonight's bracket.")
    _, seeds, matches = pool
    mine = [m for m in matches if player.id in (m.high_id, m.low_id)]
    for m in mine:
        if winner_of(m, best_of) is None:
            return m
    if len(seeds) == 1:
        raise WrongState(f"{player.name} is the only player of the field: no match to play.")
    if not mine:
        raise WrongState(f"{player.name}'s final waits for the semifinal.")
    if all(m.round == "semifinal" for m in mine) and len(seeds) == 4:
        next_match = "final" if winner_of(mine[0], best_of) == player.id else "match for 3rd"
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


def picker_of(match: BracketMatch) -> int:
    return (match.high_id, match.low_id)[next_picker(played_pairs(match.games))]


def _why_picker(number: int) -> str:
    return "the higher seed picks game 1" if number == 1 else f"the loser of game {number - 1}"


async def pick(
    db: Database, guild_id: int, discord_id: int, machine: str, *, now: datetime
) -> MachinePicked:
    """R13.3: a player picks the machine of their match's next game, when it is their pick."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await bracket_night_of(conn, ctx)
        me = await player_of(conn, ctx.league, discord_id)
        match = _current(await pools_of(conn, night), me, ctx.rules.playoff_best_of)
        return await pick_in(conn, ctx, night, match, me, machine, now=now)


async def check_picker(
    conn: aiosqlite.Connection, ctx: SeasonContext, match: BracketMatch, me: Player
) -> int:
    """The number of the game to pick for, when it is `me`'s pick; else why not."""
    number = len(played_pairs(match.games)) + 1
    picker = picker_of(match)
    if picker != me.id:
        names = await names_of(conn, ctx)
        raise NotAllowed(f"{names[picker]} picks game {number}'s machine ({_why_picker(number)}).")
    return number


async def pick_in(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    match: BracketMatch,
    me: Player,
    machine: str,
    *,
    now: datetime,
) -> MachinePicked:
    """R13.3: `me` picks the machine of `match`'s next game; its card shows it."""
    number = await check_picker(conn, ctx, match, me)
    chosen = await _pickable(conn, ctx, night, match, machine)
    before = await slots_in(conn, ctx, night)
    await playoff_matches.pick(conn, match.id, number, chosen.id, me.id)
    await owe_cards_in(conn, ctx, night, before, now=now)
    return MachinePicked(await match_shown_in(conn, ctx, night, match.id), number, chosen.name)


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
        night = await bracket_night_of(conn, ctx, over_too=True)
        target = await player_named(conn, ctx.league, player)
        pools = await pools_of(conn, night)
        _refuse_twice(pools, target, score, opponent_score)
        if night.status == "finalized":
            raise WrongState(OVER)
        match = _current(pools, target, ctx.rules.playoff_best_of)
        high, low = _ordered(match, target, score, opponent_score)
        return await play_in(conn, ctx, night, match, high, low, machine, now=now)


async def play_in(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    match: BracketMatch,
    high: int,
    low: int,
    machine: str | None,
    *,
    now: datetime,
) -> GameRecorded:
    """R13.3: `match`'s next game, both raw scores (the better seed's first), on
    the machine picked, or named now for its picker. A decided match makes the
    next ones and is announced; each card shows what changed."""
    number = len(played_pairs(match.games)) + 1
    waiting = next((g for g in match.games if not g.played), None)
    names = await names_of(conn, ctx)
    before = await slots_in(conn, ctx, night)
    if waiting is None:
        picker = picker_of(match)
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
    if high == low:
        raise BadInput(TIE.format(n=number))
    await playoff_matches.play(conn, match.id, number, high, low, stamp(now))
    made = await remake_in(conn, ctx, night)
    done = await _recorded(conn, ctx, night, match.id, number, made, corrected=False, now=now)
    await owe_cards_in(conn, ctx, night, before, now=now)  # the next match's card after it
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
    shown_match = await match_shown_in(conn, ctx, night, match_id)
    recorded = GameRecorded(
        shown_match,
        number,
        [await match_shown_in(conn, ctx, night, m) for m in made],
        await bracket_in(conn, ctx, night),
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
        night = await bracket_night_of(conn, ctx, over_too=True)
        target = await player_named(conn, ctx.league, player)
        best_of = ctx.rules.playoff_best_of
        pools = await pools_of(conn, night)
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
        games = [(high, low) if n == number else pair for n, pair in numbered_games(match.games)]
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
        before = await slots_in(conn, ctx, night)
        await playoff_matches.change(conn, match.id, game, high, low, by, stamp(now), why)
        await playoff_matches.drop_picks(conn, match.id)  # the next picker may have changed
        made = await remake_in(conn, ctx, night)
        done = await _recorded(conn, ctx, night, match.id, number, made, corrected=True, now=now)
        await owe_cards_in(conn, ctx, night, before, now=now)
        await decide_bracket_in(conn, ctx, night, now=now)
        return done


def _refuse_if_played_on(
    pool: Pool, match: BracketMatch, games: list[tuple[int, int]], best_of: int
) -> None:
    """A correction that changes a match's result may not change who plays a
    later match already under way (a machine picked or a game played)."""
    _, seeds, matches = pool
    decided = decided_of([m for m in matches if m.id != match.id], best_of)
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
