"""The playoffs: their format made known in time (R13.3).

The format is a season setting (bot/services/setup.py); the 8th regular
night's groupings post carries it with the field as the standings stand, and
a change made after that is announced (with the field as it then stands).
"""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.outbox_kinds import Kind
from bot.repositories import leagues, posts
from bot.rules.playoffs import format_week
from bot.services.context import SeasonContext, season_of
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes.playoffs import PlayoffFormat, PlayoffPreview
from bot.services.standings import field_of

# The settings a change of which is announced once the format is known.
ANNOUNCED = (
    "playoff_format",
    "playoff_games",
    "playoff_best_of",
    "playoff_divisor",
    "playoff_min",
    "playoff_max",
)
MADE = ("claimed", "sent")  # a groupings post in one of these states went out (or will)


def format_of(ctx: SeasonContext) -> PlayoffFormat:
    rules = ctx.rules
    return PlayoffFormat(rules.playoff_format, rules.playoff_games, rules.playoff_best_of)


async def preview_of(conn: aiosqlite.Connection, ctx: SeasonContext) -> PlayoffPreview:
    """R13.1, R13.3: the format and the field if the season ended now."""
    return PlayoffPreview(format_of(ctx), await field_of(conn, ctx))


async def preview(db: Database, guild_id: int) -> PlayoffPreview:
    async with db.read() as conn:
        return await preview_of(conn, await season_of(conn, guild_id))


async def format_known(conn: aiosqlite.Connection, ctx: SeasonContext) -> bool:
    """R13.3: the format has been made known: the groupings of the night that
    announces it were posted, or that night has been played."""
    week = format_week(ctx.season.regular_nights)
    night = await leagues.night_by_week(conn, ctx.season.id, week)
    if night is None:
        return False
    if night.status != "scheduled":
        return True
    record = await posts.post_by_key(conn, ctx.league.id, f"groupings:{night.date.isoformat()}")
    return record is not None and record.status in MADE


async def announce_change(conn: aiosqlite.Connection, ctx: SeasonContext, *, now: datetime) -> bool:
    """R13.3: a change of the format (or of the field's size) made after the format
    was made known is announced, with the field as it now stands. `ctx` holds
    the settings after the change. True when an announcement is owed."""
    if not await format_known(conn, ctx):
        return False
    shown = await preview_of(conn, ctx)
    await owe(conn, ctx.league.guild_id, ANNOUNCEMENTS, Kind.PLAYOFF_FORMAT,
              f"season:{ctx.season.id}", shown.to_data(), now=now)  # fmt: skip
    return True
