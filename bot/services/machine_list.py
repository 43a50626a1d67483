"""The league's machines: added, their par, in or out of order (R4.2, R6.2)."""

from __future__ import annotations

from datetime import datetime

from bot.database import Database
from bot.models import Machine
from bot.repositories import leagues, people
from bot.scoring import (
    MAX_SCORE,
    default_par,
)
from bot.services.context import (
    check_name,
    league_of,
    machine_named,
    stamp,
)
from bot.services.errors import BadInput, Conflict
from bot.services.outcomes.scores import ParSet


async def add_machine(
    db: Database, guild_id: int, name: str, *, par: int | None = None, now: datetime
) -> Machine:
    """A machine joins the league's order (R4.5). Added mid-season, every
    player owes a pre-makeup score on it (R3.1)."""
    name = check_name(name, "machine")
    _check_par(par)
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        if await people.machine_by_name(conn, league.id, name) is not None:
            raise Conflict(f"There is already a machine called {name}.")
        machine_id = await people.add_machine(conn, league.id, name, par, stamp(now))
        machine = await people.machine_by_id(conn, machine_id)
        assert machine is not None
        return machine


def _check_par(par: int | None) -> None:
    if par is not None and not 1 <= par <= MAX_SCORE:
        raise BadInput("A par is a score from 1 to 10,000,000,000,000.")


async def set_par(db: Database, guild_id: int, machine: str, par: int | None) -> ParSet:
    """R6.1-R6.2: the raw score worth 1,000,000 normalized points; None goes
    back to the median of approved pre-makeup scores. Returns the par that
    applies now (`effective`): the one set, or today's median (None: no
    approved pre-makeup yet, so the machine cannot be in a finalized night)."""
    _check_par(par)
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        found = await machine_named(conn, league, machine)
        await people.set_par(conn, found.id, par)
        changed = await people.machine_by_id(conn, found.id)
        assert changed is not None
        season = await leagues.open_season(conn, league.id)
        if par is not None or season is None:
            return ParSet(changed, par)
        scores = await people.approved_scores_for_machine(conn, found.id, season.id)
        return ParSet(changed, default_par(scores))


async def set_working(db: Database, guild_id: int, machine: str, working: bool) -> Machine:
    """R4.1: a machine out of order does not count among the P working machines."""
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        found = await machine_named(conn, league, machine)
        await people.set_working(conn, found.id, working)
        changed = await people.machine_by_id(conn, found.id)
        assert changed is not None
        return changed
