"""A division's playoff places decided, and playoff night over (R13.6): shared
by the final group and the bracket."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from bot.models import Night
from bot.outbox_kinds import Kind, night_ref
from bot.repositories import leagues, playoff_nights
from bot.services.context import SeasonContext, stamp
from bot.services.outbox import ANNOUNCEMENTS, owe


async def store_places(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    pool: str,
    ids: Sequence[int],
    result: dict[str, Any],
    *,
    now: datetime,
) -> bool:
    """R13.6: a division's places (player ids, best first), stored and announced;
    False when they were decided before, the same (nothing is announced again)."""
    stored = {e.player_id: e.place for e in await playoff_nights.field(conn, night.id)}
    if [stored.get(p) for p in ids] == list(range(1, len(ids) + 1)):
        return False
    await playoff_nights.set_places(conn, night.id, pool, ids)
    await owe(
        conn,
        ctx.league.guild_id,
        ANNOUNCEMENTS,
        Kind.PLAYOFF_RESULT,
        f"{night_ref(night.id)}:{pool or '-'}",
        result,
        now=now,
    )
    return True


async def close_if_over(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night: Night,
    *,
    undecided: bool,
    changed: bool,
    now: datetime,
) -> None:
    """When every division is decided playoff night is over, and (again, when a
    correction changed places) the prize shares and the season summary follow."""
    if undecided:
        return
    ending = night.status == "locked"
    if ending:
        await leagues.finalize_night(conn, night.id, stamp(now), 0, 0)
    if changed or ending:  # R13.6: the prizes and the summary by playoff places
        for kind in (Kind.PRIZES, Kind.SEASON_SUMMARY):
            await owe(conn, ctx.league.guild_id, ANNOUNCEMENTS, kind, night_ref(night.id), now=now)
