"""`/stats`, `/machine`, the season summary and a new season's roster change."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.stats import HighScore, Improvement, MachineStats, PlayerStats
from bot.services.outcomes.standings import PlayoffStanding
from cogs.money.money_outcomes import PrizeShare


@dataclass(frozen=True)
class PlayerStatsView:
    """`/stats`: one player's season, names not ids."""

    season: str
    stats: PlayerStats[str]
    playoffs: PlayoffStanding | None = None  # R13: their part in the season's playoffs


@dataclass(frozen=True)
class MachineView:
    """`/machine`: a machine's season."""

    season: str
    stats: MachineStats[str]
    par: int | None  # the commissioner's par, else the pre-makeup median (R6.2)
    par_set: bool  # False: `par` is the median of pre-makeups, or None


@dataclass(frozen=True)
class SeasonSummary:
    """The post after the last regular-season night, and after the playoffs."""

    season: str
    champions: dict[str, str]  # division ('' without divisions) -> player
    fund_cents: int  # R10.1: the season prize fund
    weekly_payouts_cents: int  # R10.2: paid out on the nights
    prizes: dict[str, list[PrizeShare]]  # R10.4, by the final standings
    high_scores: list[tuple[str, HighScore[str]]]  # machine, its best played score
    most_improved: Improvement[str] | None
    by_playoffs: bool = False  # R13.6: the champions won the playoffs
    playoffs_to_come: bool = False  # the regular season is over; the playoffs decide
    closed_after: int | None = None  # closed by the commissioner after this week, no playoffs


@dataclass(frozen=True)
class RosterChange:
    """A new season's players next to the last season's."""

    previous: str | None  # the previous season's name
    new: list[str]  # added since the previous season started
    gone: list[str]  # in the previous season's groups, removed since
