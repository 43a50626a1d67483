"""Finalizing a league night: every number from the rules, stored once (R2-R10).

Absences become pre-makeup scores or the Zero Point Rule, then results, bonus,
multipliers, movement, divisions at the division week and the payout. The
night's results and next week's groups are stored so history never shifts.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import GameResultRow, Group, Night, NightResult, Player
from bot.repositories import leagues, nights, people, playoff_nights, results, scores
from bot.scoring import (
    GameNight,
    GroupNight,
    GroupResult,
    MissingScoresError,
    NightOutcome,
    PlayerNight,
    TiedScoresError,
    cut_groups,
    default_par,
    form_divisions,
    has_divisions,
    score_night,
    split_dues,
    with_newcomers,
)
from bot.services import attendance_board, playoffs
from bot.services.context import SeasonContext, night_of_week, night_season, season_of, stamp
from bot.services.errors import NotReady, WrongState
from bot.services.outbox import owe_results
from bot.services.outcomes.night import GameFinish, GameLine, GroupSummary, NightSummary
from bot.services.season import group_label, ranking, season_totals


async def finalize(
    db: Database, guild_id: int, *, week: int | None = None, by: int, now: datetime
) -> NightSummary:
    """Finalize the night being played (or week `week`). Finalizing a night
    twice gives the stored result; a night with missing, pending or tied
    scores is refused with a list of exactly what is missing."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        if week is None:
            played = [
                n for n in await leagues.nights(conn, ctx.season.id) if n.status != "scheduled"
            ]
            if not played:
                raise WrongState("No night has been played yet: lock tonight's picks first.")
            unfinished = [n for n in played if n.status == "locked"]
            night = unfinished[0] if unfinished else played[-1]
        else:
            night = await night_of_week(conn, ctx, week)
        return await finalize_in(conn, ctx, night, by=by, now=now)


async def finalize_in(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    *,
    by: int,
    now: datetime,
    pars: dict[int, int] | None = None,
) -> NightSummary:
    """`finalize` inside a transaction the caller holds. `pars` (game id -> par)
    are the pars a night was finalized with before (R6.3): they win over today's."""
    if night.status == "finalized":
        return await summary(conn, ctx, night)
    if night.status != "locked":
        raise WrongState(f"Week {night.week}'s picks are not locked yet; its games are not set.")
    groups = await nights.groups(conn, night.id)
    everyone = {p.id: p for p in await people.players(conn, ctx.league.id, removed=True)}
    names = _unique_names([everyone[p] for g in groups for p in g.members])
    await _refuse_pending(conn, night, groups, names)
    # The rules are keyed by player id; names are only for the messages below.
    group_nights = await _group_nights(conn, ctx, night, groups, everyone, pars or {})
    pot, _ = split_dues(await results.dues_of_night(conn, night.id))
    try:
        outcome = score_night(group_nights, pools=[g.pool for g in groups], pot_cents=pot)
    except MissingScoresError as error:
        missing: list[tuple[int, int]] = [(int(pid), game) for pid, game in error.missing]
        listed = capped(
            [f"{names[pid]} on game {game} ({group_label(_group_with(groups, pid))})"
             for pid, game in missing],
            "the group scorecards show every score not in yet",
        )  # fmt: skip
        raise NotReady(
            f"Week {night.week} cannot be finalized. Missing scores: {listed}. Submit them, "
            "or mark the player late or absent so pre-makeups are used."
        ) from None
    except TiedScoresError as error:
        tied = ", ".join(names[int(pid)] for pid in error.players)
        raise NotReady(
            f"Week {night.week} cannot be finalized. Game {error.game} ({error.machine}): "
            f"{tied} have the same score; the commissioner must record who placed higher."
        ) from None
    games_of = await nights.games_of_night(conn, night.id)
    result_rows: list[NightResult] = []
    game_rows: list[GameResultRow] = []
    for group, built, result in zip(groups, group_nights, outcome.groups, strict=True):
        attendance = {
            p.player: "absent" if p.player in result.absent else p.attendance for p in built.players
        }
        game_ids = {g.number: g.id for g in games_of.get(group.id, [])}
        for game in result.games:
            game_rows.extend(
                GameResultRow(game_ids[game.number], pid, game.scores[pid], game.source[pid],
                              game.points[pid], game.par, place)
                for place, pid in enumerate(game.finish, start=1)
            )  # fmt: skip
        result_rows.extend(
            _result(night, group, result, pid, place, attendance, outcome)
            for place, pid in enumerate(result.order, start=1)
        )
    await results.add_game_results(conn, game_rows)
    await results.add_results(conn, result_rows)
    await leagues.finalize_night(conn, night.id, stamp(now), by, pot)
    # After the night counts as finalized, so the standings used below include it.
    await _store_next_groups(conn, ctx, night, outcome.next_groups)
    finalized = await leagues.night_by_id(conn, night.id)
    assert finalized is not None
    stored = await summary(conn, ctx, finalized)
    # Owed with the results: a finalized night is always announced (R12: a
    # recomputed one again), even if the channel refuses the bot for now.
    await owe_results(conn, ctx.league.guild_id, finalized, ctx.season.regular_nights, now=now)
    await attendance_board.changed(conn, ctx.league.guild_id, night.id, now=now)  # menus off
    await playoffs.set_up_in(conn, ctx, finalized, now=now)  # R13.4: after the last night
    return replace(stored, newly_finalized=True)


async def check_still_open(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> None:
    """A finalized night's facts may change only until the next night's picks lock."""
    following = await leagues.night_by_week(conn, ctx.season.id, night.week + 1)
    if following is not None and following.status != "scheduled":
        raise WrongState(
            f"Week {following.week} has started; week {night.week}'s results can no longer change."
        )
    finale = await playoff_nights.playoff_night(conn, ctx.season.id)
    if following is None and finale is not None and finale.status != "scheduled":
        raise WrongState(
            f"Playoff night has started; week {night.week}'s results can no longer change."
        )


async def refinalize_in(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, *, by: int, now: datetime
) -> NightSummary:
    """Finalize a finalized night again after its facts changed (same transaction).

    R6.3: each game keeps the par it was first finalized with; a par changed since
    (or a median moved by new pre-makeup scores) does not rewrite the night."""
    pars = await results.pars_of_night(conn, night.id)
    await results.clear_results(conn, night.id)
    await leagues.reopen_night(conn, night.id)
    reopened = await leagues.night_by_id(conn, night.id)
    assert reopened is not None
    return await finalize_in(conn, ctx, reopened, by=by, now=now, pars=pars)


def _unique_names(players: list[Player]) -> dict[int, str]:
    """Names for the commissioner's messages: a removed player may share a name
    with a current one, so a repeated name says which (by sign-up order)."""
    seen: dict[str, int] = {}
    for p in players:
        seen[p.name.casefold()] = seen.get(p.name.casefold(), 0) + 1
    return {
        p.id: p.name if seen[p.name.casefold()] == 1 or not p.removed else f"{p.name} (removed)"
        for p in players
    }


LISTED = 8  # scores named in a refusal; the rest are counted, so it stays one answer


def capped(items: list[str], where_all: str) -> str:
    """ "A; B; C" or, past LISTED, "A; …; H and 60 more (<where_all>)"."""
    if len(items) <= LISTED:
        return "; ".join(items)
    return f"{'; '.join(items[:LISTED])} and {len(items) - LISTED} more ({where_all})"


def _group_with(groups: list[Group], player_id: int) -> Group:
    return next(g for g in groups if player_id in g.members)


async def _refuse_pending(
    conn: aiosqlite.Connection, night: Night, groups: list[Group], names: dict[int, str]
) -> None:
    waiting = await scores.pending_of_night(conn, night.id)
    if not waiting:
        return
    games_of = await nights.games_of_night(conn, night.id)
    number = {
        game.id: (game.number, group) for group in groups for game in games_of.get(group.id, [])
    }
    listed = capped(
        [f"{names[s.player_id]} on game {number[s.game_id][0]} "
         f"({group_label(number[s.game_id][1])})" for s in waiting],
        "/league night waiting lists them all",
    )  # fmt: skip
    raise NotReady(f"Week {night.week} cannot be finalized. Scores waiting for approval: {listed}.")


async def _group_nights(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    groups: list[Group],
    everyone: dict[int, Player],
    pars: dict[int, int],
) -> list[GroupNight[int]]:
    """Each group's night as the rules take it, keyed by player id; a game's par
    is the one it was finalized with before (`pars`, R6.3), else today's (R6.2)."""
    settings = ctx.settings()
    before = await season_totals(conn, ctx, before_week=night.week)
    order = ranking([everyone[p] for g in groups for p in g.members], before)
    rank = {p.id: r for r, p in enumerate(order, start=1)}
    attendance = {n.player_id: n.kind for n in await nights.notices(conn, night.id)}
    machines = {m.id: m for m in await people.machines(conn, ctx.league.id)}
    pre_makeups: dict[int, dict[str, int]] = {}  # player id -> machine name -> score
    approved_by_machine: dict[int, list[int]] = {}
    for pm in await people.approved_pre_makeups(conn, ctx.season.id):
        pre_makeups.setdefault(pm.player_id, {})[machines[pm.machine_id].name] = pm.score
        approved_by_machine.setdefault(pm.machine_id, []).append(pm.score)
    live = {
        (s.game_id, s.player_id): s.score for s in await scores.live_scores_of_night(conn, night.id)
    }
    games_of = await nights.games_of_night(conn, night.id)
    ties = await nights.tie_orders_of_night(conn, night.id)
    built = []
    for group in groups:
        games = []
        for game in games_of.get(group.id, []):
            machine = machines[game.machine_id]
            par = (
                pars.get(game.id)
                or machine.par
                or default_par(approved_by_machine.get(machine.id, []))
            )
            games.append(
                GameNight(
                    machine=machine.name,
                    par=par,
                    scores={p: live[(game.id, p)] for p in group.members if (game.id, p) in live},
                    tie_break=list(ties.get(game.id, [])),
                )
            )
        players = [
            PlayerNight(
                player=p,
                rank=rank[p],
                attendance={"late": "late", "absent": "absent"}.get(
                    attendance.get(p, ""), "present"
                ),
                pre_makeups=pre_makeups.get(p, {}),
                pre_makeup_nights_used=before.pre_makeup_nights.get(p, 0),
                pre_makeup_night_limit=settings.pre_makeup_night_limit
                + everyone[p].extra_pre_makeup_nights,
                multiplier=before.multiplier.get(p, 1),
            )
            for p in group.members
        ]
        built.append(GroupNight(week=night.week, players=players, games=games, settings=settings))
    return built


def _result(
    night: Night,
    group: Group,
    result: GroupResult[int],
    pid: int,
    place: int,
    attendance: dict[int, str],
    outcome: NightOutcome[int],
) -> NightResult:
    return NightResult(
        night_id=night.id,
        week=night.week,
        player_id=pid,
        group_id=group.id,
        place=place,
        attendance=attendance[pid],
        took_part=pid in result.took_part,
        match_points=result.match_points[pid],
        tns=result.tns[pid],
        bonus_base=result.bonus_base[pid],
        multiplier=result.multiplier[pid],
        bonus=result.bonus[pid],
        league_points=result.league_points[pid],
        tlp=result.tlp[pid],
        week_result=outcome.week_result[pid],
        used_pre_makeup_night=pid in result.used_pre_makeup_night,
        next_multiplier=result.next_multiplier[pid],
        payout_cents=outcome.payouts.get(pid, 0),
        movement=outcome.movement[pid],
    )


async def _store_next_groups(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    next_groups: dict[str, list[list[int]]],
) -> None:
    """Store next week's groups (R8.3-R8.6); at the division week split the
    league into A and B (R9)."""
    following = await leagues.night_by_week(conn, ctx.season.id, night.week + 1)
    if following is None or following.status != "scheduled":
        return
    active = await people.players(conn, ctx.league.id)
    ladders = with_newcomers(
        {pool: [p for g in groups for p in g] for pool, groups in next_groups.items()},
        [p.id for p in active],
    )
    settings = ctx.settings()
    if (
        following.week == settings.division_week
        and set(ladders) == {""}
        and has_divisions(len(ladders[""]), settings)
    ):
        after = await season_totals(conn, ctx)
        ranked = [p.id for p in ranking(active, after)]
        recent = {p: weeks[-5:] for p, weeks in after.week_results.items()}
        pools = form_divisions(ranked, recent, ladders[""])
    elif set(ladders) == {""} and len(ladders[""]) < 2:
        pools = {}  # R8.1: one player left has nobody to play; cut when others join
    else:
        pools = {
            pool: [list(g) for g in cut_groups(ladder, division=pool != "")]
            for pool, ladder in ladders.items()
            if ladder
        }
    await nights.replace_groups(conn, following.id, pools)


async def summary(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> NightSummary:
    """A finalized night as stored."""
    everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
    rows_of: dict[int, list[NightResult]] = defaultdict(list)
    for row in await results.results_of_night(conn, night.id):
        rows_of[row.group_id].append(row)
    finish_of: dict[int, list[GameFinish]] = defaultdict(list)
    for finish in await results.game_results_of_night(conn, night.id):
        finish_of[finish.game_id].append(
            GameFinish(everyone[finish.player_id], finish.points, finish.source)
        )
    games_of = await nights.games_of_night(conn, night.id)
    played = await nights.groups(conn, night.id)
    out = [
        GroupSummary(
            group_label(group),
            [(everyone[r.player_id], r) for r in sorted(rows_of[group.id], key=lambda r: r.place)],
            [GameLine(g.number, g.machine, finish_of[g.id]) for g in games_of.get(group.id, [])],
        )
        for group in played
    ]
    following = await leagues.night_by_week(conn, ctx.season.id, night.week + 1)
    upcoming = await nights.groups(conn, following.id) if following is not None else []
    next_groups = [(group_label(g), [everyone[p] for p in g.members]) for g in upcoming]
    payouts = {
        everyone[r.player_id]: r.payout_cents
        for rows in rows_of.values()
        for r in rows
        if r.payout_cents
    }
    # R9.1: divisions start next week when this night had none and the next has them.
    formed = any(g.pool for g in upcoming) and not any(g.pool for g in played)
    return NightSummary(night, out, payouts, night.pot_cents or 0, next_groups, formed)


async def night_summary(db: Database, guild_id: int, night_id: int) -> NightSummary | None:
    """A finalized night's stored results (None: not final, e.g. reopened since)."""
    async with db.read() as conn:
        night = await leagues.night_by_id(conn, night_id)
        if night is None or night.status != "finalized":
            return None
        ctx = await night_season(conn, guild_id, night)  # a season closed since too
        return await summary(conn, ctx, night) if ctx is not None else None
