"""Dues, the weekly pot and the season prizes (R10)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PrizeShare:
    player: str
    place: int  # 1, 2, 3 …; 0 for the consolation prize (R10.4)
    cents: int


@dataclass(frozen=True)
class SeasonPrizes:
    """R10.4: the season prize fund and each player's share by the standings."""

    fund_cents: int
    divisions: dict[str, list[PrizeShare]]  # '' before divisions, else 'A' and 'B'
    final: bool = False  # the standings after the last regular-season night
    by_playoffs: bool = False  # R13.6: by the playoff places, the playoffs decided


@dataclass(frozen=True)
class Pot:
    week: int
    dues_cents: int
    pot_cents: int  # R10.1: half of the night's dues
    fund_cents: int  # the other half
    recomputed: bool = False  # the night was final: its payout was recomputed


@dataclass(frozen=True)
class DuesRecorded:
    pot: Pot
    paid: list[tuple[str, int]]  # (player's name, cents), in the order given


@dataclass(frozen=True)
class PlayerDues:
    name: str
    paid_cents: int  # this season, up to the week
    owed_cents: int  # dues of the nights they played up to the week, not recorded


@dataclass(frozen=True)
class MoneySummary:
    week: int
    pot_cents: int  # R10.1: half of the week's dues
    fund_cents: int  # the season prize fund, as it stands
    players: list[PlayerDues]
