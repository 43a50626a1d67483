"""Scores and pre-makeups as the bot shows them, and the per-score approval post (R3.1, R5, R6)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.models import (
    Game,
    Machine,
    Night,
    Player,
    PreMakeup,
    Score,
)


@dataclass(frozen=True)
class ScoreView:
    score: Score
    player: Player
    game: Game
    night: Night
    group_label: str
    photo: bool = False  # the league keeps a photo of the score display with it
    where: str = ""  # "Week 3 · Group 2", "Playoffs · Division A"


@dataclass(frozen=True)
class PhotoPost:
    """A score's photo as the approvals channel shows it (the league's cleaned
    copy): whose score, on which game, and the file."""

    view: ScoreView
    file_name: str  # "week-3-group-2-game-4-alice.jpg"
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class TonightScore:
    """One score a player submitted tonight and where it stands."""

    game: int
    machine: str
    score: int
    status: str  # pending, approved, rejected
    reason: str | None = None  # the commissioner's, when rejected (shown only to the player)


@dataclass(frozen=True)
class ParSet:
    """A machine's par after the commissioner set it (R6.1-R6.2)."""

    machine: Machine
    effective: int | None  # the par that applies now; None: no par and no pre-makeup yet


@dataclass(frozen=True)
class PreMakeupView:
    """A pre-makeup score with who played it, where, and who was there (R3.1)."""

    pre_makeup: PreMakeup
    player: Player
    machine: Machine
    witnesses: list[Player]


@dataclass(frozen=True)
class Approval:
    """A score or a pre-makeup score as it stands (one of the two); who decided
    it is on its record (`decided_by`)."""

    score: ScoreView | None
    pre_makeup: PreMakeupView | None
