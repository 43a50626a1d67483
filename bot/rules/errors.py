"""Errors the rules raise for input they cannot score.

Every error is a `ValueError` whose message a commissioner can act on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic

from bot.rules.ranks import P


class RuleError(ValueError):
    """Input the league rules cannot handle; the message says what to fix."""


class TiedScoresError(RuleError, Generic[P]):
    """R5.4/R5.5: equal raw scores (two present players on 0 included) need an order
    recorded by the commissioner; Zero Point entries share last place instead."""

    def __init__(
        self,
        message: str,
        tied: Sequence[int],
        *,
        players: Sequence[P] = (),
        game: int | None = None,
        machine: str = "",
    ) -> None:
        super().__init__(message)
        self.tied = tuple(tied)  # indices of the tied entries, as given
        self.players = tuple(players)  # their player keys, when a whole night was scored
        self.game = game
        self.machine = machine


class MissingScoresError(RuleError, Generic[P]):
    """A group's night cannot be scored: these (player, game number) have no score."""

    def __init__(self, missing: Sequence[tuple[P, int]]) -> None:
        self.missing = tuple(missing)
        listed = "; ".join(f"{player} on game {game}" for player, game in self.missing)
        super().__init__(f"Missing scores: {listed}.")
