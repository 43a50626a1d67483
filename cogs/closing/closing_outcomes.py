"""What closing a season, or opening it again, produces."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any


@dataclass(frozen=True)
class SeasonClosing:
    """A season's close: what it ends (the nights not played, playoff night not
    played), whether it was over, and whether it is closed now (False: the
    commissioner is asked to confirm)."""

    season: str
    regular_nights: int
    last_week: int | None  # the last night played; None: none was
    unplayed: list[int]  # regular nights not played, by week
    playoff_day: date | None  # playoff night set but not played
    closed: bool

    @property
    def over(self) -> bool:
        """Nothing left to play: its close ends nothing."""
        return not self.unplayed and self.playoff_day is None

    def to_data(self) -> dict[str, Any]:
        return {"season": self.season, "regular_nights": self.regular_nights,
                "last_week": self.last_week, "unplayed": self.unplayed,
                "playoff_day": self.playoff_day.isoformat() if self.playoff_day else None,
                "closed": self.closed}  # fmt: skip

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> SeasonClosing:
        day = data["playoff_day"]
        return cls(
            str(data["season"]), int(data["regular_nights"]), data["last_week"],
            [int(w) for w in data["unplayed"]], date.fromisoformat(day) if day else None,
            bool(data["closed"]),
        )  # fmt: skip
