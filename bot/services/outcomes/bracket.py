"""What playing a playoff bracket produces (R13.3, R13.6), frozen into the
outbox's posts as plain data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameShown:
    """A game of a match: its machine, who picked it, and the raw scores
    (the match's better seed first) once played."""

    machine: str
    picked_by: str
    high: int | None = None
    low: int | None = None

    def to_data(self) -> list[Any]:
        return [self.machine, self.picked_by, self.high, self.low]

    @classmethod
    def from_data(cls, data: list[Any]) -> GameShown:
        machine, picker, high, low = data
        return cls(str(machine), str(picker), high, low)


@dataclass(frozen=True)
class MatchShown:
    """A bracket match as it stands: its players with their seeds, its games,
    the games each has won, and its winner or who picks the next machine."""

    division: str
    round: str  # 'semifinal', 'final' or 'third'
    high: tuple[int, str]  # (seed, name)
    low: tuple[int, str]
    games: list[GameShown]
    wins: tuple[int, int]
    winner: str | None
    next_picker: str | None  # None once decided
    slot: int = 1  # a semifinal's number (1: seeds 1 v 4, 2: 2 v 3)

    def to_data(self) -> dict[str, Any]:
        return {
            "division": self.division,
            "round": self.round,
            "high": list(self.high),
            "low": list(self.low),
            "games": [g.to_data() for g in self.games],
            "wins": list(self.wins),
            "winner": self.winner,
            "next_picker": self.next_picker,
            "slot": self.slot,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> MatchShown:
        high, low, wins = data["high"], data["low"], data["wins"]
        return cls(
            str(data["division"]),
            str(data["round"]),
            (int(high[0]), str(high[1])),
            (int(low[0]), str(low[1])),
            [GameShown.from_data(g) for g in data["games"]],
            (int(wins[0]), int(wins[1])),
            data["winner"],
            data["next_picker"],
            int(data.get("slot", 1)),
        )


@dataclass(frozen=True)
class BracketShown:
    """R13.3: the whole bracket as it stands: each division's matches, with
    the match length and the machines to pick from."""

    best_of: int
    machines: list[str]
    matches: list[MatchShown]
    champions: dict[str, str]  # division -> champion, once decided (a field of one too)

    def to_data(self) -> dict[str, Any]:
        return {
            "best_of": self.best_of,
            "machines": self.machines,
            "matches": [m.to_data() for m in self.matches],
            "champions": self.champions,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> BracketShown:
        return cls(
            int(data["best_of"]),
            list(data["machines"]),
            [MatchShown.from_data(m) for m in data["matches"]],
            dict(data["champions"]),
        )


@dataclass(frozen=True)
class GameRecorded:
    """A bracket game recorded (or corrected): the match after it, the
    matches it made next, and the bracket as it stands."""

    match: MatchShown
    number: int
    made: list[MatchShown]
    bracket: BracketShown
    corrected: bool = False

    def to_data(self) -> dict[str, Any]:
        return {
            "match": self.match.to_data(),
            "number": self.number,
            "made": [m.to_data() for m in self.made],
            "bracket": self.bracket.to_data(),
            "corrected": self.corrected,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> GameRecorded:
        return cls(
            MatchShown.from_data(data["match"]),
            int(data["number"]),
            [MatchShown.from_data(m) for m in data["made"]],
            BracketShown.from_data(data["bracket"]),
            bool(data.get("corrected", False)),
        )


@dataclass(frozen=True)
class MachinePicked:
    """R13.3: a machine picked for the next game of a match."""

    match: MatchShown
    number: int
    machine: str


@dataclass(frozen=True)
class BracketResult:
    """R13.6: a division's bracket decided: its places, best first, and the
    final's games won (the champion's first)."""

    division: str
    places: list[str]
    final: tuple[int, int] | None  # None: a field of one, no match played
    player_ids: list[int]

    def to_data(self) -> dict[str, Any]:
        return {
            "bracket": True,
            "division": self.division,
            "places": self.places,
            "final": list(self.final) if self.final else None,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> BracketResult:
        final = data["final"]
        return cls(
            str(data["division"]),
            [str(p) for p in data["places"]],
            (int(final[0]), int(final[1])) if final else None,
            [],
        )


@dataclass(frozen=True)
class MatchCardShown:
    """R13.3: a bracket match's card as it stands: the match in its place in the
    bracket (None when a correction undid it), and, while it is open (playoff
    night under way and the match undecided), the machines its next game may
    be played on."""

    card_id: int
    division: str
    round: str
    slot: int
    match: MatchShown | None
    best_of: int
    open: bool
    left: list[str]
    message_id: int | None = None  # None: not posted yet


@dataclass(frozen=True)
class PickChoices:
    """The machines a player may pick for their match's next game (R13.3)."""

    card_id: int
    number: int
    machines: list[tuple[int, str]]  # (id, name)
    match_id: int  # the match the menu is for: a correction since makes it another


@dataclass(frozen=True)
class GameForm:
    """What the commissioner's form for a match's next game asks: both players'
    raw scores (the better seed's first), and its machine when none is picked."""

    card_id: int
    number: int
    high: str
    low: str
    machine: str | None  # picked; None: the form asks for it
    picker: str
    match_id: int  # the match the form is for: a correction since makes it another
    title: str  # 'Final · Game 2'
