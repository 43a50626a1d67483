"""The approval cards: one per group (and one per day of pre-makeups), game by game."""

from __future__ import annotations

from dataclasses import dataclass

WAITING, APPROVED, REJECTED, MISSING = "pending", "approved", "rejected", "missing"


@dataclass(frozen=True)
class CardLine:
    """One player's score on one game (or one machine's pre-makeup) as it stands:
    the live score, else the last rejected one (with the reason), else missing."""

    player: str
    score: int | None
    state: str  # pending, approved, rejected, missing
    reason: str | None = None
    value: str = ""  # what the reject menu answers for it ('s12', 'p3')
    by: int | None = None  # who submitted it, when not the player (a Discord id)
    note: str = ""  # a pre-makeup's: who was there ("with Bob")
    photo: CardPhoto | None = None  # a photo of the score display


@dataclass(frozen=True)
class CardPhoto:
    """A score's photo on its card: the league's copy, posted in the approvals
    channel (`message_id`; None while its post is still owed), or for a score sent
    before copies were kept, Discord's own link, which may have expired."""

    message_id: int | None = None
    old_link: str | None = None


@dataclass(frozen=True)
class CardGame:
    label: str  # "Game 2 · Medieval Madness", or a machine's name
    lines: list[CardLine]
    value: str = ""  # what the approve menu answers for it

    @property
    def complete(self) -> bool:
        """Every score is in, and some wait for approval."""
        states = {line.state for line in self.lines}
        return WAITING in states and states <= {WAITING, APPROVED}

    @property
    def waiting(self) -> list[CardLine]:
        return [line for line in self.lines if line.state == WAITING]


@dataclass(frozen=True)
class CardView:
    id: int
    title: str  # "Week 3 · Group 2", "Pre-makeups · Ann · 12 March"
    games: list[CardGame]
    message_id: int | None
    pre_makeups: bool = False

    @property
    def waiting(self) -> list[CardLine]:
        return [line for game in self.games for line in game.waiting]


@dataclass(frozen=True)
class CardDecision:
    """What a click decided: the games (labels) and how many scores, and what
    was left (games still waiting for a score); or the one score rejected."""

    approved: list[CardGame]
    count: int
    rejected: CardLine | None = None
    incomplete: list[CardGame] | None = None
