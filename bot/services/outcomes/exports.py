"""A season's export (its CSV tables and photos) and a roster file imported."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from bot.models import (
    Player,
)


@dataclass(frozen=True)
class Cents:
    """An amount of money in an export: written in dollars, two decimals."""

    cents: int


ExportValue = str | int | Cents | date | datetime | None  # bool is written yes/no


@dataclass(frozen=True)
class ExportTable:
    """One CSV file of a season's export: `name`.csv with a header row.
    Times are in the league's time zone; names, never database ids."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[ExportValue, ...], ...]


@dataclass(frozen=True)
class ExportPhoto:
    """A score's photo in an export: the league's copy, under `name`
    ("photos/week-3-group-2-game-4-alice.jpg", what scores.csv names)."""

    score_id: int
    name: str
    size: int


@dataclass(frozen=True)
class SeasonExport:
    league: str
    season: str
    tables: tuple[ExportTable, ...]
    photos: tuple[ExportPhoto, ...] = ()

    def table(self, name: str) -> ExportTable:
        return next(t for t in self.tables if t.name == name)


@dataclass(frozen=True)
class RosterImported:
    """The players a roster file added; `restored`: welcomed back;
    `left_out`: rows an export marked removed."""

    added: tuple[Player, ...]
    restored: tuple[str, ...]
    left_out: tuple[str, ...] = ()
