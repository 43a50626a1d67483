"""The playoffs as announced: the format and the field (R13.1, R13.3)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from typing import Any

from bot.services.outcomes.bracket import BracketShown
from bot.services.outcomes.standings import PlayoffDivision

ALTERNATES_SHOWN = 3  # alternates named (and told) in an announcement: a later one rarely plays


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


@dataclass(frozen=True)
class PlayoffNightShown:
    """R13.4: playoff night as announced: its date and times, the format and
    each division's field (qualifiers by seed, then alternates in order).
    `pings`: the Discord ids of the players it tells (qualifiers and the
    alternates shown)."""

    day: date
    play_time: time
    grace_until: time
    format: PlayoffFormat
    divisions: list[PlayoffDivision]
    pings: list[int]
    moved_from: date | None = None  # a move of the date: the date it had
    updated: bool = False  # the field set again (a correction, a setting changed)

    def to_data(self) -> dict[str, Any]:
        f = self.format
        return {
            "day": self.day.isoformat(), "play": self.play_time.strftime("%H:%M"),
            "grace": self.grace_until.strftime("%H:%M"),
            "format": [f.format, f.games, f.best_of],
            "divisions": [[d.division, d.qualifiers, d.alternates] for d in self.divisions],
            "pings": self.pings,
            "moved_from": self.moved_from.isoformat() if self.moved_from else None,
            "updated": self.updated,
        }  # fmt: skip

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> PlayoffNightShown:
        moved = data.get("moved_from")
        return cls(
            date.fromisoformat(data["day"]),
            time.fromisoformat(data["play"]),
            time.fromisoformat(data["grace"]),
            PlayoffFormat(*data["format"]),
            [PlayoffDivision(str(d), list(q), list(a)) for d, q, a in data["divisions"]],
            [int(i) for i in data["pings"]],
            date.fromisoformat(moved) if moved else None,
            bool(data.get("updated")),
        )


@dataclass(frozen=True)
class Replacement:
    """R13.5: a qualifier out at the end of the grace period, and who took the
    place (None: no alternate was there)."""

    division: str
    out: str
    why: str  # "absent" (said they cannot come) or "missing" (not checked in)
    into: str | None


@dataclass(frozen=True)
class CheckedIn:
    """The commissioner's check-in on playoff night."""

    checked: list[str]  # checked in now
    already: list[str]  # checked in before


@dataclass(frozen=True)
class ReplacementUndone:
    """A replacement made by mistake undone: `player` plays, `alternate` waits again."""

    player: str
    alternate: str | None
    shown: PlayoffNightShown


@dataclass(frozen=True)
class PlayoffStarted:
    """R13.3: playoff night under way: each division's final group in seed
    order, and the machines, in game order."""

    groups: list[tuple[str, list[str]]]  # (division, players by seed)
    machines: list[str]
    out: list[str]  # in the field but not checked in (no alternate took the place)
    bracket: BracketShown | None = None  # a bracket's first matches; None: final groups

    def to_data(self) -> dict[str, Any]:
        return {"groups": [[d, names] for d, names in self.groups], "machines": self.machines,
                "out": self.out,
                "bracket": self.bracket.to_data() if self.bracket else None}  # fmt: skip

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> PlayoffStarted:
        drawn = data.get("bracket")
        return cls([(str(d), list(n)) for d, n in data["groups"]], list(data["machines"]),
                   list(data.get("out", [])),
                   BracketShown.from_data(drawn) if drawn else None)  # fmt: skip


@dataclass(frozen=True)
class FinalGroupResult:
    """R13.3, R13.6: a division's final group decided: places, best first, each
    with the playoff points and the total normalized score (R6.1, as shown)."""

    division: str
    places: list[tuple[str, int, int]]  # (name, playoff points, normalized total)
    player_ids: list[int]  # the same players, best first

    def to_data(self) -> dict[str, Any]:
        return {"division": self.division, "places": [list(p) for p in self.places]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> FinalGroupResult:
        places = [(str(n), int(p), int(t)) for n, p, t in data["places"]]
        return cls(str(data["division"]), places, [])


@dataclass(frozen=True)
class SeasonOrder:
    """R13.6: each division's final places (player ids, best first) once the
    playoffs are decided, and the replaced qualifiers, who forfeit a prize."""

    divisions: dict[str, list[int]]
    forfeit: frozenset[int]
