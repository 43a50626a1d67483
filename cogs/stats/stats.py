"""Player and machine statistics, the season summary and season history.

Each function reads one season in one read transaction and hands the rules
(`bot/rules/stats.py`) plain data keyed by player id; names replace ids only
in what is returned. `replace` swaps a result's ids for names, which changes its
type parameter (int to str); the checker cannot follow that, so the results
taken from the rules are typed `[Any]` where they are about to be renamed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import aiosqlite

from bot.database import Database
from bot.models import Player
from bot.repositories import leagues, people, playoff_nights, results, season_history
from bot.rules.stats import (
    GamePlayed,
    GroupMachines,
    HighScore,
    Improvement,
    MachineStats,
    NightPlace,
    PlayerStats,
    machine_stats,
    most_improved,
    player_stats,
)
from bot.scoring import default_par
from bot.services import playoffs
from bot.services.context import (
    SeasonContext,
    brief,
    league_of,
    machine_named,
    season_context,
    season_of,
    shown_names,
)
from bot.services.errors import BadInput, NotFound
from bot.services.playoffs import closed_early
from bot.services.standings import by_division, playoff_standing, rows_of
from cogs.money.money import prizes_in
from cogs.stats.stats_outcomes import MachineView, PlayerStatsView, RosterChange, SeasonSummary


async def _games(conn: aiosqlite.Connection, ctx: SeasonContext) -> list[GamePlayed[int]]:
    return [
        GamePlayed(g.week, g.day, g.result.game_id, g.machine, g.result.player_id,
                   g.result.score, g.result.source, g.result.points, g.result.normalized)
        for g in await season_history.games_of_season(conn, ctx.season.id)
    ]  # fmt: skip


async def _places(conn: aiosqlite.Connection, ctx: SeasonContext) -> list[NightPlace[int]]:
    where = {g.group_id: g for g in await season_history.groups_of_season(conn, ctx.season.id)}
    return [
        NightPlace(r.week, r.player_id, where[r.group_id].pool, where[r.group_id].position,
                   r.place, r.took_part, r.match_points)
        for r in await results.results_of_season(conn, ctx.season.id)
    ]  # fmt: skip


async def _season_player(
    conn: aiosqlite.Connection, ctx: SeasonContext, name: str | None, discord_id: int | None
) -> Player:
    """The player asked about: by name (a removed player who played the season
    too), else by Discord id (the caller)."""
    everyone = await people.players(conn, ctx.league.id, removed=True)
    if name is not None:
        wanted = " ".join(name.split()).casefold()
        if not wanted:
            raise BadInput("Name a player.")
        members = await season_history.players_of_season(conn, ctx.season.id)
        found = [p for p in everyone if p.name.casefold() == wanted]
        found.sort(key=lambda p: (p.removed, p.id not in members))
        if found and (not found[0].removed or found[0].id in members):
            return found[0]
        raise NotFound(f"There is no player called {brief(name)} in this league.")
    player = next((p for p in everyone if p.discord_id == discord_id and not p.removed), None)
    if player is None:
        raise NotFound("You are not a player in this league. Ask the commissioner to add you.")
    return player


async def player_stats_of(
    db: Database,
    guild_id: int,
    *,
    name: str | None = None,
    discord_id: int | None = None,
    season: str | None = None,
) -> PlayerStatsView:
    """`/stats`: a player's season (the running one unless `season` names another)."""
    async with db.read() as conn:
        ctx = await season_context(conn, guild_id, season)
        player = await _season_player(conn, ctx, name, discord_id)
        if ctx.season.status != "open" and player.id not in await season_history.players_of_season(
            conn, ctx.season.id
        ):
            raise NotFound(f"{player.name} did not play in {ctx.season.name}.")
        names = shown_names(await people.players(conn, ctx.league.id, removed=True))
        playoffs = await playoff_standing(conn, ctx, player.id)
        found: PlayerStats[Any] = player_stats(
            player.id,
            await _places(conn, ctx),
            await _games(conn, ctx),
            two_swap_match_points=ctx.season.two_swap_match_points,
        )
    shown = replace(
        found,
        player=names[player.id],
        records=tuple((names[other], record) for other, record in found.records),
    )
    return PlayerStatsView(ctx.season.name, shown, playoffs)


async def machine_stats_of(
    db: Database, guild_id: int, name: str, *, season: str | None = None
) -> MachineView:
    """`/machine`: a machine's high scores, par, average, vetoes and repeats."""
    async with db.read() as conn:
        ctx = await season_context(conn, guild_id, season)
        machine = await machine_named(conn, ctx.league, name)
        names = shown_names(await people.players(conn, ctx.league.id, removed=True))
        games = await _games(conn, ctx)
        working: dict[int, set[str]] = {}
        for night_id, machine_name in await season_history.working_of_season(conn, ctx.season.id):
            working.setdefault(night_id, set()).add(machine_name)
        groups = await season_history.groups_of_season(conn, ctx.season.id)
        night_of = {g.group_id: g.night_id for g in groups}
        played: dict[int, list[str]] = {}
        weeks: dict[int, int] = {}
        for group_id, week, machine_name in await season_history.group_games_of_season(
            conn, ctx.season.id
        ):
            played.setdefault(group_id, []).append(machine_name)
            weeks[group_id] = week
        group_nights = [
            GroupMachines(weeks[g], frozenset(working.get(night_of[g], set())), tuple(ms))
            for g, ms in played.items()
        ]
        par = machine.par
        if par is None:
            par = default_par(
                await people.approved_scores_for_machine(conn, machine.id, ctx.season.id)
            )
    found: MachineStats[Any] = machine_stats(machine.name, games, group_nights)
    shown = replace(
        found,
        high_scores=tuple(replace(h, player=names[h.player]) for h in found.high_scores),
    )
    return MachineView(ctx.season.name, shown, par, machine.par is not None)


async def season_summary(db: Database, guild_id: int, night_id: int) -> SeasonSummary | None:
    """The season summary owed with night `night_id`: None unless that night is
    its season's last regular night and every night of the season is final."""
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
        night = await leagues.night_by_id(conn, night_id)
        if night is None:
            return None
        found = await season_history.season_by_id(conn, night.season_id)
        if found is None or found.season.league_id != league.id:
            return None
        ctx = SeasonContext(league, found.season, found.rules)
        nights = await leagues.nights(conn, ctx.season.id)
        finale = await playoff_nights.playoff_night(conn, ctx.season.id)
        early = await closed_early(conn, ctx, night)  # R13.6: by standings, no playoffs
        last = night.week == ctx.season.regular_nights and night.kind == "regular"
        if not (early or last or (night.kind == "playoff" and night.status == "finalized")):
            return None
        if not early and any(n.status != "finalized" for n in nights):
            return None
        names = shown_names(await people.players(conn, ctx.league.id, removed=True))
        champions: dict[str, str] = {}
        decided = await playoffs.season_order_in(conn, ctx)  # R13.6
        if decided is not None:
            champions = {d: names[order[0]] for d, order in decided.divisions.items() if order}
        for division, ranked in by_division(await rows_of(conn, ctx)).items():
            champions.setdefault(division, names[ranked[0].player.id])  # R8.6: none in ''
        to_come = decided is None and finale is not None and not early
        shares = await prizes_in(conn, ctx)
        payouts = sum(r.payout_cents for r in await results.results_of_season(conn, ctx.season.id))
        games = await _games(conn, ctx)
    tops = []
    for machine in sorted({g.machine for g in games if g.source == "live"}, key=str.casefold):
        best: HighScore[Any] = machine_stats(machine, games, []).high_scores[0]
        tops.append((machine, replace(best, player=names[best.player])))
    improved: Improvement[Any] | None = most_improved(games, ctx.season.regular_nights)
    shown: Improvement[str] | None = (
        None if improved is None else replace(improved, player=names[improved.player])
    )
    return SeasonSummary(
        season=ctx.season.name,
        champions=dict(sorted(champions.items())),
        fund_cents=shares.fund_cents,
        weekly_payouts_cents=payouts,
        prizes=shares.divisions,
        high_scores=tops,
        most_improved=shown,
        by_playoffs=decided is not None,
        playoffs_to_come=to_come,
        closed_after=night.week if early else None,
    )


async def roster_change(db: Database, guild_id: int) -> RosterChange:
    """The running season's players next to the previous season's: who was added
    since the previous season started, and who was in its groups but is removed now."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        seasons = await season_history.seasons(conn, ctx.league.id)
        before = [s for s in seasons if s.season.id != ctx.season.id]
        if not before:
            return RosterChange(None, [], [])
        previous = before[-1]
        everyone = await people.players(conn, ctx.league.id, removed=True)
        members = await season_history.players_of_season(conn, previous.season.id)
    new = [p.name for p in everyone if not p.removed and p.joined_at > previous.created_at]
    gone = [p.name for p in everyone if p.removed and p.id in members]
    return RosterChange(previous.season.name, new, gone)


async def player_names(db: Database, guild_id: int) -> list[str]:
    """The league's players, then removed ones (for autocomplete)."""
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
        players = await people.players(conn, league.id, removed=True)
    return list(dict.fromkeys(p.name for p in sorted(players, key=lambda p: (p.removed, p.id))))


async def machine_names(db: Database, guild_id: int) -> list[str]:
    async with db.read() as conn:
        league = await league_of(conn, guild_id)
        return [m.name for m in await people.machines(conn, league.id)]
