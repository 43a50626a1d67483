"""Refusals the services raise; each message says what to do instead."""

from __future__ import annotations


class LeagueError(Exception):
    """A refusal fit to show the user who asked."""


class NotSetUp(LeagueError):
    """No league or no open season in this server."""


class NotFound(LeagueError):
    """A player, machine, night, game or score that does not exist."""


class NotAllowed(LeagueError):
    """The user may not do this (not in the group, not their score, …)."""


class BadInput(LeagueError):
    """A value out of range or malformed."""


class AlreadyDecided(LeagueError):
    """A score or pre-makeup was already approved or rejected."""


class WrongState(LeagueError):
    """The night is not in a state that allows this (locked, finalized, …)."""


class Conflict(LeagueError):
    """The fact already exists (a second pre-makeup on a machine, a name taken, …)."""


class NotReady(LeagueError):
    """Finalizing is refused: scores are missing, pending or tied."""
