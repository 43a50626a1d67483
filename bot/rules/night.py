"""One entry point that scores a whole group's night from its raw facts.

R2.3-R2.4 and R3.2-R3.8 decide where each missing game's score comes from,
R5-R6 score the games, R7 the match, bonus and multiplier, R10.2 the TLP.
Services call `score_group_night` (and `score_night` for a whole night) and
nothing else to turn stored facts into results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic

from bot.rules.errors import MissingScoresError, RuleError, TiedScoresError
from bot.rules.exact import ZERO, total
from bot.rules.games import finishing_order, game_points, normalize
from bot.rules.match import bonus_applies, match_bonus, match_order, multiplier_after
from bot.rules.ranks import P
from bot.rules.settings import DEFAULT_SETTINGS, RuleSettings

ATTENDANCE = ("present", "late", "absent")

LIVE = "live"
PRE_MAKEUP = "pre_makeup"  # R3.2
ZERO_POINT = "zero_point"  # R3.4: no pre-makeup score on the machine
ZERO_POINT_LIMIT = "zero_point_limit"  # R3.6: past the pre-makeup limit


@dataclass(frozen=True)
class PlayerNight(Generic[P]):
    """What is known about one player of the group before the night is scored.

    `player` is any hashable key (services pass player ids); results are keyed by it.
    """

    player: P
    rank: int  # season rank before the night (R11.1), 1 is best
    attendance: str = "present"  # "present", "late" (R2.3) or "absent" (R2.4)
    pre_makeups: Mapping[str, int] = field(default_factory=dict)  # machine -> score
    pre_makeup_nights_used: int = 0  # nights before this one (R3.5)
    pre_makeup_night_limit: int = 3  # R3.5, more when the commissioner grants it
    multiplier: int = 1  # this night's bonus multiplier (R7.4)


@dataclass(frozen=True)
class GameNight(Generic[P]):
    """One of the night's games: its machine, par and the live scores."""

    machine: str
    par: int | None
    scores: Mapping[P, int | None]  # a missing player or None: not played
    tie_break: Sequence[P] = ()  # the commissioner's order for tied scores (R5.4)


@dataclass(frozen=True)
class GroupNight(Generic[P]):
    week: int
    players: Sequence[PlayerNight[P]]  # in the group's ladder order
    games: Sequence[GameNight[P]]  # numbered 1.. in this order (R4.6)
    settings: RuleSettings = DEFAULT_SETTINGS


@dataclass(frozen=True)
class GameResult(Generic[P]):
    number: int
    machine: str
    par: int  # the par the night was scored with (R6.3)
    scores: dict[P, int]  # the score each player was placed by; 0 under R3.4
    source: dict[P, str]  # LIVE, PRE_MAKEUP, ZERO_POINT or ZERO_POINT_LIMIT
    points: dict[P, int]
    normalized: dict[P, Fraction]  # exact (R6.1 Decision)
    finish: tuple[P, ...]  # finishing order; Zero Point entries last (R3.6: a loss)


@dataclass(frozen=True)
class GroupResult(Generic[P]):
    week: int
    players: tuple[P, ...]  # ladder order, as given
    games: tuple[GameResult[P], ...]
    match_points: dict[P, int]
    tns: dict[P, Fraction]  # exact (R6.1 Decision)
    order: tuple[P, ...]  # winner first (R7.1)
    winner: P | None
    loser: P | None  # None when fewer than two took part
    took_part: frozenset[P]  # R3.8/R8.4: everyone but the absent with no pre-makeup used
    absent: frozenset[P]
    bonus_base: dict[P, int]  # R7.2-R7.3, before the multiplier
    multiplier: dict[P, int]  # R7.4, the one applied tonight
    bonus: dict[P, int]  # base × multiplier
    tlp: dict[P, int]  # match points + base bonus (R10.2)
    league_points: dict[P, int]  # match points + bonus (R11.1)
    pre_makeup_games: dict[P, tuple[int, ...]]  # game numbers scored from pre-makeups
    used_pre_makeup_night: frozenset[P]  # R3.5: this night counts for them
    next_multiplier: dict[P, int]


def pre_makeup_nights_left(used: int, limit: int = 3) -> int:
    """R3.5: pre-makeup scores can be used in at most `limit` nights a season."""
    return max(0, limit - used)


def missed_game(player: PlayerNight[P], machine: str) -> tuple[int | None, str]:
    """R3.2-R3.6: the score and its source for a game `player` does not play.

    Their pre-makeup score while they have pre-makeup nights left (R3.2);
    past the limit it still stands in for the others but earns nothing (R3.6);
    with none on the machine, the Zero Point Rule (R3.4)."""
    stand_in = player.pre_makeups.get(machine)
    if stand_in is None:
        return None, ZERO_POINT
    if pre_makeup_nights_left(player.pre_makeup_nights_used, player.pre_makeup_night_limit):
        return stand_in, PRE_MAKEUP
    return stand_in, ZERO_POINT_LIMIT


def _check_group(night: GroupNight[P]) -> None:
    names = [p.player for p in night.players]
    if not 2 <= len(names) <= 4:
        raise RuleError(f"A group has 2 to 4 players, not {len(names)}.")
    if len(set(names)) != len(names):
        raise RuleError("A player is listed twice in the group.")
    if night.week < 1:
        raise RuleError(f"Week numbers start at 1, not {night.week}.")
    if not night.games:
        raise RuleError("A night has at least one game.")
    for p in night.players:
        if p.attendance not in ATTENDANCE:
            raise RuleError(f"{p.player}'s attendance must be present, late or absent.")
    members = set(names)
    absent = {p.player for p in night.players if p.attendance == "absent"}
    for number, game in enumerate(night.games, start=1):
        for player, score in game.scores.items():
            if player not in members:
                raise RuleError(f"{player} has a score on game {number} but is not in this group.")
            if player in absent and score is not None:
                raise RuleError(f"{player} is marked absent but has a score on game {number}.")
    missing = [
        (p.player, number)
        for number, game in enumerate(night.games, start=1)
        for p in night.players
        if p.attendance == "present" and game.scores.get(p.player) is None
    ]
    if missing:
        raise MissingScoresError(missing)


def _score_game(
    number: int, game: GameNight[P], players: Sequence[PlayerNight[P]]
) -> GameResult[P]:
    names = [p.player for p in players]
    values: list[int | None] = []
    sources: list[str] = []
    for p in players:
        live = game.scores.get(p.player)
        value, source = (live, LIVE) if live is not None else missed_game(p, game.machine)
        values.append(value)
        sources.append(source)
    order_given = list(game.tie_break)
    unknown = [p for p in order_given if p not in names]
    if unknown:
        raise RuleError(f"The tie order for game {number} names {unknown[0]}, who is not in it.")
    priority = [order_given.index(n) if n in order_given else len(names) for n in names]
    zero = [s in (ZERO_POINT, ZERO_POINT_LIMIT) for s in sources]
    if game.par is None:
        raise RuleError(
            f"{game.machine} has no par and no approved pre-makeup scores; "
            "set its par before finalizing."
        )
    try:
        points = game_points(
            values,
            pre_makeup=[s == PRE_MAKEUP for s in sources],
            absent=zero,
            par=game.par,
            tie_break=priority,
        )
    except TiedScoresError as error:
        tied = [names[i] for i in error.tied]
        raise TiedScoresError(
            f"Game {number} ({game.machine}): {', '.join(map(str, tied))} have the same score; "
            "the commissioner must record who placed higher.",
            error.tied,
            players=tied,
            game=number,
            machine=game.machine,
        ) from None
    except RuleError as error:
        raise RuleError(f"Game {number} ({game.machine}): {error}") from None
    placed = [
        0 if v is None or s == ZERO_POINT else v for v, s in zip(values, sources, strict=True)
    ]
    # As game_points places them: a Zero Point entry on 0 shares last place (R3.4,
    # R5.5), one past the limit with a pre-makeup score is placed by it (R3.6).
    last = [z and v == 0 for z, v in zip(zero, placed, strict=True)]
    order = finishing_order(placed, priority, last)
    # R3.6: a game scored under the Zero Point Rule is a loss in the player's stats.
    finish = [names[i] for i in order if not zero[i]] + [names[i] for i in order if zero[i]]
    return GameResult(
        number=number,
        machine=game.machine,
        par=game.par,
        scores=dict(zip(names, placed, strict=True)),
        source=dict(zip(names, sources, strict=True)),
        points=dict(zip(names, points, strict=True)),
        normalized={
            n: ZERO if z else normalize(v, game.par)
            for n, v, z in zip(names, placed, zero, strict=True)
        },
        finish=tuple(finish),
    )


def score_group_night(night: GroupNight[P]) -> GroupResult[P]:
    """Score one group's night from its raw facts (R2-R3, R5-R7, R10.2).

    A present player must have a live score on every game; a late player's
    missing games and an absent player's games come from their pre-makeup
    scores while they have pre-makeup nights left (R3.2, R3.5), else the Zero
    Point Rule applies (R3.4, R3.6, R3.7). Raises `MissingScoresError` listing
    every missing score, `TiedScoresError` for an unordered tie (R5.4).
    """
    _check_group(night)
    settings = night.settings
    players = list(night.players)
    names = [p.player for p in players]
    games = tuple(_score_game(n, g, players) for n, g in enumerate(night.games, start=1))
    mp = {n: sum(g.points[n] for g in games) for n in names}
    tns = {n: total(g.normalized[n] for g in games) for n in names}  # exact (R6.1)
    pre_games = {n: tuple(g.number for g in games if g.source[n] == PRE_MAKEUP) for n in names}
    # R2.4: a player who said they would be late but played no game missed the night.
    absent = frozenset(
        p.player
        for p in players
        if p.attendance == "absent"
        or (p.attendance == "late" and all(g.source[p.player] != LIVE for g in games))
    )
    took_part = frozenset(n for n in names if n not in absent or pre_games[n])
    part_flags = [n in took_part for n in names]
    ranks = [p.rank for p in players]
    mps, tnss = [mp[n] for n in names], [tns[n] for n in names]
    order = [names[i] for i in match_order(mps, tnss, ranks=ranks, took_part=part_flags)]
    present_order = [n for n in order if n in took_part]
    winner = present_order[0] if present_order else None
    loser = present_order[-1] if len(present_order) >= 2 else None
    if bonus_applies(night.week, settings):
        base = match_bonus(mps, tnss, ranks=ranks, took_part=part_flags)
    else:
        base = [0] * len(names)
    bonus_base = dict(zip(names, base, strict=True))
    multiplier = {
        p.player: p.multiplier if night.week >= settings.multiplier_start_week else 1
        for p in players
    }
    bonus = {n: bonus_base[n] * multiplier[n] for n in names}
    return GroupResult(
        week=night.week,
        players=tuple(names),
        games=games,
        match_points=mp,
        tns=tns,
        order=tuple(order),
        winner=winner,
        loser=loser,
        took_part=took_part,
        absent=absent,
        bonus_base=bonus_base,
        multiplier=multiplier,
        bonus=bonus,
        tlp={n: mp[n] + bonus_base[n] for n in names},
        league_points={n: mp[n] + bonus[n] for n in names},
        pre_makeup_games=pre_games,
        used_pre_makeup_night=frozenset(n for n in names if pre_games[n]),
        next_multiplier={
            n: multiplier_after(
                night.week, multiplier[n], won=n == winner, lost=n == loser, settings=settings
            )
            for n in names
        },
    )
