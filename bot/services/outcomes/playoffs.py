"""The playoffs as announced: the format and the field (R13.1, R13.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.services.outcomes.standings import PlayoffDivision


@dataclass(frozen=True)
class PlayoffFormat:
    """R13.3: how the playoffs are played, from the season's settings."""

    format: str  # final_group or bracket
    games: int  # a final group's games
    best_of: int  # a bracket match's games, at most


@dataclass(frozen=True)
class PlayoffPreview:
    """The format and each division's field as the standings stand now ("if the
    season ended tonight"), qualifiers in seed order."""

    format: PlayoffFormat
    divisions: list[PlayoffDivision]

    def to_data(self) -> dict[str, Any]:
        """As frozen in the outbox when a change is announced."""
        f = self.format
        return {
            "format": f.format, "games": f.games, "best_of": f.best_of,
            "divisions": [[d.division, d.qualifiers, d.alternates] for d in self.divisions],
        }  # fmt: skip

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> PlayoffPreview:
        return cls(
            PlayoffFormat(str(data["format"]), int(data["games"]), int(data["best_of"])),
            [PlayoffDivision(str(d), list(q), list(a)) for d, q, a in data["divisions"]],
        )
