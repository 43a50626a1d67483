"""Season facts the other services share: ranks, multipliers, pre-makeup nights, groups.

Everything here is derived from stored facts by the rules (R3.5, R7.4, R8.2, R11.1).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import aiosqlite

from bot.models import Group, Night, NightResult, Player
from bot.repositories import leagues, nights, people, results
from bot.scoring import ZERO, SeasonLine, season_standings, seed_groups, total
from bot.services.context import SeasonContext
from bot.services.errors import BadInput, NotReady


@dataclass(frozen=True)
class SeasonTotals:
    """Each player's season so far, summed from finalized nights."""

    league_points: dict[int, int]
    tns: dict[int, Fraction]  # season TNS, exact (R6.1 Decision)
    nights: dict[int, int]
    pre_makeup_nights: dict[int, int]  # R3.5: nights that used a pre-makeup
    multiplier: dict[int, int]  # R7.4: the one carried into the next night
    week_results: dict[int, list[str]]  # R9.2, in week order
    last_week: int


def totals(rows: list[NightResult], before_week: int | None = None) -> SeasonTotals:
    league_points: dict[int, int] = defaultdict(int)
    tns: dict[int, list[Fraction]] = defaultdict(list)
    played: dict[int, int] = defaultdict(int)
    pre: dict[int, int] = defaultdict(int)
    multiplier: dict[int, int] = {}
    weeks: dict[int, list[str]] = defaultdict(list)
    last = 0
    for row in rows:
        if before_week is not None and row.week >= before_week:
            continue
        league_points[row.player_id] += row.league_points
        tns[row.player_id].append(row.tns)
        played[row.player_id] += int(row.took_part)
        pre[row.player_id] += int(row.used_pre_makeup_night)
        multiplier[row.player_id] = row.next_multiplier
        weeks[row.player_id].append(row.week_result)
        last = max(last, row.week)
    season_tns = {player: total(nights) for player, nights in tns.items()}  # exact (R6.1)
    return SeasonTotals(dict(league_points), season_tns, dict(played), dict(pre), multiplier,
                        dict(weeks), last)  # fmt: skip


async def season_totals(
    conn: aiosqlite.Connection, ctx: SeasonContext, before_week: int | None = None
) -> SeasonTotals:
    return totals(await results.results_of_season(conn, ctx.season.id), before_week)


def ranking(players: list[Player], sums: SeasonTotals) -> list[Player]:
    """R11.1: league points, season TNS, skill, sign-up order (best first)."""
    by_id = {p.id: p for p in players}
    lines = [
        SeasonLine(
            player=p.id,
            league_points=sums.league_points.get(p.id, 0),
            tns=sums.tns.get(p.id, ZERO),
            skill=p.skill,
            signup=p.id,
        )
        for p in players
    ]
    return [by_id[s.line.player] for s in season_standings(lines)]


async def ranks_before(
    conn: aiosqlite.Connection, ctx: SeasonContext, week: int, players: list[Player] | None = None
) -> dict[int, int]:
    """R11.1: every active player's rank before week `week` is played (`players`:
    the league's current players, when the caller has read them already)."""
    if players is None:
        players = await people.players(conn, ctx.league.id)
    ordered = ranking(players, await season_totals(conn, ctx, before_week=week))
    return {p.id: rank for rank, p in enumerate(ordered, start=1)}


TOO_FEW_FOR_GROUPS = "The league needs at least 2 players before groups can be made."


def groups_wait_for(week: int, previous: int) -> str:
    """Why week `week` has no groups yet: week `previous` is not finalized."""
    return (
        f"Week {week}'s groups come from week {previous}'s results; "
        f"the commissioner must finalize week {previous} first."
    )


async def groups_of(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> list[Group]:
    """A night's groups. Week 1 is cut by skill the first time it is asked for
    (R8.2); later weeks were stored when the night before was finalized."""
    stored = await nights.groups(conn, night.id)
    if stored:
        return stored
    previous = await leagues.night_by_week(conn, ctx.season.id, night.week - 1)
    if previous is not None and previous.status != "finalized":
        raise NotReady(groups_wait_for(night.week, previous.week))
    players = await people.players(conn, ctx.league.id)
    if len(players) < 2:
        raise NotReady(TOO_FEW_FOR_GROUPS)
    if previous is None:
        cut = seed_groups([(p.id, p.skill) for p in players])
    else:  # previous finalized but no groups stored: nobody was left to group
        ordered = ranking(players, await season_totals(conn, ctx))
        cut = seed_groups([(p.id, None) for p in ordered])
    await nights.replace_groups(conn, night.id, {"": cut})
    return await nights.groups(conn, night.id)


def group_of(groups: list[Group], player_id: int) -> Group | None:
    for group in groups:
        if player_id in group.members:
            return group
    return None


def where_played(night: Night, group: Group) -> str:
    """Where a game is played, as players read it: "Week 3 · Group 2", or on
    playoff night "Playoffs · Division A" (R13.4)."""
    if night.kind == "playoff":
        return f"Playoffs · Division {group.pool}" if group.pool else "Playoffs"
    return f"Week {night.week} · {group_label(group)}"


def group_label(group: Group) -> str:
    """How a group is named to players: "Group 2", "Division A · Group 1"."""
    return f"{'Division ' + group.pool + ' · ' if group.pool else ''}Group {group.position}"


GROUP_NAMES = "Name the group as 1, 2, … or A1, B2 with divisions."
_GROUP = re.compile(r"([AB]?)\s*([0-9]{1,3})")


def parse_group_label(text: str) -> tuple[str, int]:
    """What the commissioner typed for a group: "2" is (pool "", position 2),
    "A1" or "b 2" a division's group. The one parser of group names."""
    match = _GROUP.fullmatch(text.strip().upper())
    if match is None:
        raise BadInput(GROUP_NAMES)
    return match.group(1), int(match.group(2))


def group_at(groups: list[Group], pool: str, position: int) -> Group | None:
    """The group of `pool` at `position` among `groups`, if there is one."""
    return next((g for g in groups if g.pool == pool and g.position == position), None)
