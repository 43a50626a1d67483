"""A date skipped by the commissioner: the season's nights move, its notices are
withdrawn (R1.2)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime
from typing import Any

import aiosqlite

from bot.database import Database
from bot.models import Night, Player
from bot.outbox_kinds import Kind, skip_ref
from bot.repositories import leagues, nights, people
from bot.scoring import (
    league_nights,
)
from bot.services.context import (
    check_text,
    season_of,
    stamp,
)
from bot.services.errors import NotFound, WrongState
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes.notices import DateSkipped, WithdrawnNotice


async def skip_date(
    db: Database, guild_id: int, day: date, reason: str = "", *, now: datetime
) -> DateSkipped:
    """R1.2: `day` is not a league night; every later week moves one week on.

    A late notice or absence belongs to a date: those for `day` are withdrawn
    (kept, marked withdrawn) and returned so their players can be told; those
    for a later date follow that date to whichever night now carries it. A
    notice whose date is left with no night is withdrawn too (`stranded`)."""
    reason = check_text(reason, "reason", 200)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        season = ctx.season
        night = await leagues.night_by_date(conn, season.id, day)
        if night is None:
            raise NotFound(f"{day:%A %d %B %Y} is not a league night of this season.")
        if night.status != "scheduled":
            raise WrongState(
                f"Week {night.week} on {day:%d %B} has already started; it cannot be skipped."
            )
        await leagues.add_skipped_date(conn, season.id, day, reason)
        skipped = await leagues.skipped_dates(conn, season.id)
        dates = league_nights(season.start_date, season.weekday, season.regular_nights, skipped)
        current = await leagues.nights(conn, season.id)
        moved = [n for n in current if n.date != dates[n.week - 1]]
        withdrawn = await _withdraw_notices(conn, night, now)
        await leagues.move_nights(conn, [(n.id, dates[n.week - 1]) for n in moved])
        carrier = {n.date: n for n in await leagues.nights(conn, season.id)}
        kept, stranded = 0, []
        # Earliest date first: a night's own notices have left before others arrive.
        for old in sorted(moved, key=lambda n: n.date):
            if old.id == night.id:
                continue
            target = carrier.get(old.date)
            if target is None:
                stranded += await _withdraw_notices(conn, old, now)
            else:
                kept += await nights.move_notices(conn, old.id, target.id)
        done = DateSkipped(
            day, reason, await leagues.nights(conn, season.id), withdrawn, kept, stranded
        )
        # R1.2: the announcement, owed with the change; it pings the players it tells.
        await owe(conn, guild_id, ANNOUNCEMENTS, Kind.SKIP, skip_ref(day), skip_data(done),
                  now=now)  # fmt: skip
        return done


def skip_data(skipped: DateSkipped) -> dict[str, Any]:
    """What the skip announcement needs, frozen as JSON when it is owed (the
    notices it tells about are withdrawn by then and cannot be read back as such)."""

    def notices(found: list[WithdrawnNotice]) -> list[dict[str, Any]]:
        return [
            {"player": asdict(n.player), "kind": n.kind, "day": n.day.isoformat()} for n in found
        ]

    return {
        "day": skipped.day.isoformat(), "reason": skipped.reason, "kept": skipped.kept,
        "withdrawn": notices(skipped.withdrawn), "stranded": notices(skipped.stranded),
    }  # fmt: skip


def skip_from_data(data: dict[str, Any]) -> DateSkipped:
    """`skip_data` read back (the new calendar is not part of the announcement)."""

    def notices(found: list[dict[str, Any]]) -> list[WithdrawnNotice]:
        return [
            WithdrawnNotice(Player(**n["player"]), n["kind"], date.fromisoformat(n["day"]))
            for n in found
        ]

    return DateSkipped(
        date.fromisoformat(data["day"]), data["reason"], [], notices(data["withdrawn"]),
        data["kept"], notices(data["stranded"]),
    )  # fmt: skip


async def _withdraw_notices(
    conn: aiosqlite.Connection, night: Night, now: datetime
) -> list[WithdrawnNotice]:
    """Withdraw the live notices of `night` (given for its date, `night.date`)."""
    given = await nights.notices(conn, night.id)
    await nights.withdraw_notices_of_night(conn, night.id, stamp(now))
    withdrawn = []
    for notice in given:
        player = await people.player_by_id(conn, notice.player_id)
        assert player is not None
        withdrawn.append(WithdrawnNotice(player, notice.kind, night.date))
    return withdrawn
