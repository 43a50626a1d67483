"""Starting playoff night, and playing a final group (R13.3, R13.6).

The commissioner starts playoff night by naming the machines (a final group:
one per game; a bracket: those its matches pick from, `playoff_bracket`):
each division's field (after the replacements, R13.5) becomes one group of its
own, seeded by standing, and the night is under way. Scores come in by
`/score` and the score form and are approved on the group's scorecard as on a
league night. When the last score of a group is approved, its places are
decided: playoff points (the game points of R5), then the total of the
normalized scores (R6), then the standing; the result is announced. A
qualifier not there and not replaced plays no game (the field plays one
short, R13.5), and no pre-makeup score is used.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

import aiosqlite

from bot.database import Database
from bot.models import Group, Machine, Night
from bot.outbox_kinds import Kind, night_ref
from bot.repositories import leagues, nights, people, playoff_nights, scores
from bot.rules.errors import TiedScoresError
from bot.rules.exact import shown
from bot.rules.games import default_par, game_points, normalize
from bot.rules.playoffs import final_group_places
from bot.services.context import SeasonContext, machine_named, season_of, stamp
from bot.services.errors import BadInput, WrongState
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes.playoffs import FinalGroupResult, PlayoffStarted
from bot.services.playoff_bracket import begin_in, check_count, decide_bracket_in, owe_cards_in
from bot.services.playoff_checkin import at_grace, playoff_night_of
from bot.services.playoff_places import close_if_over, store_places
from bot.services.standings import in_field

MAX_MACHINES_TYPED = 400  # characters of the machines' names, comma-separated


async def start(db: Database, guild_id: int, machines: str, *, now: datetime) -> PlayoffStarted:
    """R13.3, final group: playoff night starts on the machines named (one per
    game, in game order): one group per division, its field seeded by standing.
    The replacements are made first if the grace post has not made them."""
    names = [n for n in (part.strip() for part in machines[:MAX_MACHINES_TYPED].split(",")) if n]
    async with db.read() as conn:  # every refusal before the replacements are made
        ctx = await season_of(conn, guild_id)
        night = await playoff_night_of(conn, ctx)
        _refuse_start(ctx, night, now)
        await _machines(conn, ctx, names)
    await at_grace(db, guild_id, now=now)  # R13.5: once; a second run replaces nobody
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await playoff_night_of(conn, ctx)
        _refuse_start(ctx, night, now)
        chosen = await _machines(conn, ctx, names)
        entries = await playoff_nights.field(conn, night.id)
        playing = in_field(entries)
        here = await _here(conn, night)
        everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
        pools: dict[str, list[list[int]]] = {}
        out: list[str] = []
        for pool in sorted({e.pool for e in entries}):
            field = [e.player_id for e in entries if e.pool == pool and e.player_id in playing]
            seeds = [p for p in field if p in here]
            out += [everyone[p] for p in field if p not in here]
            if field and not seeds:
                where = f"division {pool}'s" if pool else "the"
                raise WrongState(
                    f"Nobody of {where} playoff field is checked in: check the players in "
                    "with /playoffs checkin first."
                )
            if seeds:
                pools[pool] = [seeds]
        await nights.replace_groups(conn, night.id, pools)  # each division's seeds, in order
        if not bracket(ctx):
            for group in await nights.groups(conn, night.id):
                if len(group.members) > 1:
                    await nights.replace_games(conn, group.id, [m.id for m in chosen], set())
        await leagues.lock_night(conn, night.id, stamp(now))
        locked = await leagues.night_by_id(conn, night.id)
        assert locked is not None
        drawn = await begin_in(conn, ctx, locked, chosen, now=now) if bracket(ctx) else None
        started = PlayoffStarted(
            [(pool, [everyone[p] for p in groups[0]]) for pool, groups in pools.items()],
            [m.name for m in chosen],
            out,
            drawn,
        )
        await owe(conn, guild_id, ANNOUNCEMENTS, Kind.PLAYOFF_STARTED, night_ref(night.id),
                  started.to_data(), now=now)  # fmt: skip
        if bracket(ctx):  # after the start's post: each match's card, and a field
            await owe_cards_in(conn, ctx, locked, {}, now=now)  # of one is champion at once
            await decide_bracket_in(conn, ctx, locked, now=now)
        else:
            await decide_in(conn, ctx, locked, now=now)
        return started


async def _machines(
    conn: aiosqlite.Connection, ctx: SeasonContext, names: list[str]
) -> list[Machine]:
    """The machines named: for a final group one per game, for a bracket the
    machines its matches pick from; each once, working."""
    games = ctx.rules.playoff_games
    if bracket(ctx):
        check_count(ctx, len(names))
    elif len(names) != games:
        raise BadInput(
            f"Name {games} machines, one per game in game order, separated by commas "
            f"(you named {len(names)})."
        )
    chosen = [await machine_named(conn, ctx.league, name) for name in names]
    if len({m.id for m in chosen}) != len(chosen):
        raise BadInput("Each game is on a different machine; a machine is named twice.")
    broken = [m.name for m in chosen if not m.working]
    if broken:
        raise BadInput(f"{', '.join(broken)} is marked not working; name another machine.")
    return chosen


async def _here(conn: aiosqlite.Connection, night: Night) -> set[int]:
    """R13.5: the players there: checked in, and not saying they cannot come."""
    away = {n.player_id for n in await nights.notices(conn, night.id) if n.kind == "absent"}
    entries = await playoff_nights.field(conn, night.id)
    return {e.player_id for e in entries if e.checked_in_at is not None} - away


def bracket(ctx: SeasonContext) -> bool:
    return ctx.rules.playoff_format == "bracket"


def _refuse_start(ctx: SeasonContext, night: Night, now: datetime) -> None:
    if night.status != "scheduled":
        raise WrongState("Playoff night has already started.")
    local = ctx.local(now)
    if local.date() != night.date:
        raise WrongState(f"Playoff night is {night.date:%A %d %B}; it starts then.")
    grace = ctx.league.grace_until
    if local.time() < grace:
        raise WrongState(
            f"Play starts at the end of the grace period ({grace:%H:%M}), when the field is set."
        )


async def decide_in(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, *, now: datetime
) -> list[FinalGroupResult]:
    """R13.3, R13.6: every group of playoff night whose scores are all in and
    approved gets its places, stored and announced (again only when they
    change); when every division is decided, playoff night is over."""
    if night.kind != "playoff" or night.status == "scheduled" or bracket(ctx):
        return []
    decided: list[FinalGroupResult] = []
    undecided = False
    for group in await nights.groups(conn, night.id):
        result = await _decide_group(conn, ctx, night, group)
        if result is None:
            undecided = True
            await playoff_nights.set_places(conn, night.id, group.pool, [])  # undecided again
        elif await store_places(conn, ctx, night, group.pool, result.player_ids,
                                result.to_data(), now=now):  # fmt: skip
            decided.append(result)
    await close_if_over(conn, ctx, night, undecided=undecided, changed=bool(decided), now=now)
    return decided


async def _decide_group(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, group: Group
) -> FinalGroupResult | None:
    """A group's places, or None while a score is missing, waiting or tied."""
    everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
    seeds = list(group.members)
    games = await nights.games(conn, group.id)
    if len(seeds) == 1:
        return FinalGroupResult(group.pool, [(everyone[seeds[0]], 0, 0)], seeds)
    live = await scores.live_scores_of_group(conn, group.id)
    if any(s.status != "approved" for s in live):
        return None
    score_of = {(s.game_id, s.player_id): s.score for s in live}
    machines = {m.id: m for m in await people.machines(conn, ctx.league.id)}
    by_machine: dict[int, list[int]] = {}
    for pm in await people.approved_pre_makeups(conn, ctx.season.id):
        by_machine.setdefault(pm.machine_id, []).append(pm.score)
    ties = await nights.tie_orders_of_night(conn, night.id)
    points = {p: 0 for p in seeds}
    normalized = {p: Fraction(0) for p in seeds}
    for game in games:
        if any((game.id, p) not in score_of for p in seeds):
            return None
        machine = machines[game.machine_id]
        par = machine.par or default_par(by_machine.get(machine.id, []))
        order = list(ties.get(game.id, []))
        tie_break = [order.index(p) if p in order else len(order) for p in seeds]
        try:
            earned = game_points(
                [score_of[(game.id, p)] for p in seeds], par=par,
                tie_break=tie_break if order else None,
            )  # fmt: skip
        except TiedScoresError:  # an exact tie the commissioner has not ordered yet (R5.4)
            return None
        for p, got in zip(seeds, earned, strict=True):
            points[p] += got
            if par is not None and (game.id, p) in score_of:
                normalized[p] += normalize(score_of[(game.id, p)], par)
    places = final_group_places(seeds, points, normalized)
    return FinalGroupResult(
        group.pool,
        [(everyone[p], points[p], shown(normalized[p])) for p in places],
        places,
    )
