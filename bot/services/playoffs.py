"""The playoffs: their format made known in time (R13.3), and playoff night
with its field (R13.1, R13.4).

The format is a season setting (bot/services/setup.py); the 8th regular
night's groupings post carries it with the field as the standings stand, and
a change made after that is announced (with the field as it then stands).
Finalizing the last regular night sets playoff night on the league weekday
after it, with each division's field by the standings, and announces both; a
correction of that night before playoff night starts sets the field again. The
commissioner can move the date; the field is told.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta

import aiosqlite

from bot.database import Database
from bot.models import FieldEntry, Night
from bot.outbox_kinds import Kind, night_ref
from bot.repositories import leagues, nights, people, playoff_nights, posts
from bot.rules.calendar import playoff_night
from bot.rules.playoffs import format_week, season_places
from bot.rules.settings import RuleSettings
from bot.rules.standings import playoff_field
from bot.services.context import SeasonContext, season_of, stamp
from bot.services.errors import BadInput, NotReady, WrongState
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes.playoffs import (
    ALTERNATES_SHOWN,
    PlayoffFormat,
    PlayoffNightShown,
    PlayoffPreview,
    SeasonOrder,
)
from bot.services.outcomes.standings import PlayoffDivision, StandingRow
from bot.services.standings import by_division, field_of, in_field, rows_of

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


# --- playoff night and its field (R13.1, R13.4) ---------------------------------------------

LATEST_MOVE = timedelta(days=92)  # R13.4 Decision: a moved playoff night is within 3 months
NOT_SET = "Playoff night is set when the last regular night, week {week}, is finalized."


def field_entries(rows: list[StandingRow], settings: RuleSettings) -> list[FieldEntry]:
    """R13.1: every player of each division by standing; the first spots qualify,
    the others are its alternates in that order."""
    entries: list[FieldEntry] = []
    for pool, ranked in by_division(rows).items():
        qualifiers = playoff_field([r.player.id for r in ranked], settings).qualifiers
        entries.extend(
            FieldEntry(pool, standing, r.player.id, r.player.id in qualifiers)
            for standing, r in enumerate(ranked, start=1)
        )
    return entries


def _as_set(entries: list[FieldEntry]) -> list[tuple[str, int, int, bool]]:
    return [(e.pool, e.standing, e.player_id, e.qualified) for e in entries]


async def set_up_in(
    conn: aiosqlite.Connection, ctx: SeasonContext, night: Night, *, now: datetime
) -> bool:
    """R13.4: the last regular night `night` was finalized (or finalized again
    after a correction): playoff night on the league weekday after it (past any
    skipped date), with each division's field by the standings, announced. A
    field already set is set again while playoff night has not started, and
    announced again only if it changed. True when an announcement is owed."""
    if night.kind != "regular" or night.week != ctx.season.regular_nights:
        return False
    entries = field_entries(await rows_of(conn, ctx), ctx.settings())
    existing = await playoff_nights.playoff_night(conn, ctx.season.id)
    if existing is None:
        regular = [n.date for n in await leagues.nights(conn, ctx.season.id)]
        day = playoff_night(regular, await leagues.skipped_dates(conn, ctx.season.id))
        while day < ctx.local(now).date():  # the last night finalized late: the next weekday
            day += timedelta(days=7)
        night_id = await playoff_nights.add_playoff_night(
            conn, ctx.season.id, ctx.season.regular_nights + 1, day
        )
    else:
        stored = await playoff_nights.field(conn, existing.id)
        if existing.status != "scheduled" or _as_set(stored) == _as_set(entries):
            return False
        night_id = existing.id
    await playoff_nights.set_field(conn, night_id, entries)
    await _announce_night(conn, ctx, night_id, now=now, updated=existing is not None)
    return True


async def _announce_night(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    night_id: int,
    *,
    now: datetime,
    updated: bool = False,
) -> None:
    shown = await shown_in(conn, ctx)
    assert shown is not None
    shown = replace(shown, updated=updated)
    await owe(conn, ctx.league.guild_id, ANNOUNCEMENTS, Kind.PLAYOFF_NIGHT, night_ref(night_id),
              shown.to_data(), now=now)  # fmt: skip


async def refuse_change_once_started(conn: aiosqlite.Connection, ctx: SeasonContext) -> None:
    """R13.3: the format and the field's size cannot change once playoff night
    has started."""
    night = await playoff_nights.playoff_night(conn, ctx.season.id)
    if night is not None and night.status != "scheduled":
        raise WrongState("Playoff night has started: its format and field can no longer change.")


async def setting_changed(conn: aiosqlite.Connection, ctx: SeasonContext, *, now: datetime) -> bool:
    """A playoff setting changed (`ctx` holds the new value). Before playoff night
    is set: announced once the format is known (R13.3). After: playoff night is
    announced again; with the field set again by the standings when its size
    changed, which is refused once a player is checked in."""
    night = await playoff_nights.playoff_night(conn, ctx.season.id)
    if night is None:
        return await announce_change(conn, ctx, now=now)
    entries = field_entries(await rows_of(conn, ctx), ctx.settings())
    stored = await playoff_nights.field(conn, night.id)
    if _as_set(stored) != _as_set(entries):
        if any(e.checked_in_at is not None or e.replaced_by is not None for e in stored):
            raise WrongState(
                "Players are checked in for playoff night: its field can no longer change."
            )
        await playoff_nights.set_field(conn, night.id, entries)
    await _announce_night(conn, ctx, night.id, now=now, updated=True)
    return True


async def shown_in(conn: aiosqlite.Connection, ctx: SeasonContext) -> PlayoffNightShown | None:
    """Playoff night as it stands: its date and times, the format and each
    division's field (seeded again by standing, R13.5) and its alternates (not
    those who said they cannot come); None before it is set."""
    night = await playoff_nights.playoff_night(conn, ctx.season.id)
    if night is None:
        return None
    entries = await playoff_nights.field(conn, night.id)
    everyone = {p.id: p for p in await people.players(conn, ctx.league.id, removed=True)}
    playing = in_field(entries)
    away = {n.player_id for n in await nights.notices(conn, night.id) if n.kind == "absent"}
    divisions: list[PlayoffDivision] = []
    pings: list[int | None] = []
    for pool in sorted({e.pool for e in entries}):
        ranked = [e for e in entries if e.pool == pool]
        seeds = [e.player_id for e in ranked if e.player_id in playing]
        out = playing | away
        waiting = [e.player_id for e in ranked if e.player_id not in out and not e.qualified]
        divisions.append(PlayoffDivision(
            pool, [everyone[p].name for p in seeds], [everyone[p].name for p in waiting]
        ))  # fmt: skip
        pings += [everyone[p].discord_id for p in [*seeds, *waiting[:ALTERNATES_SHOWN]]]
    league = ctx.league
    return PlayoffNightShown(
        night.date, league.play_time, league.grace_until, format_of(ctx), divisions,
        [p for p in pings if p is not None],
    )  # fmt: skip


async def night_shown(db: Database, guild_id: int) -> PlayoffNightShown | PlayoffPreview:
    """`/playoffs field`: playoff night once it is set; before, the format and
    the field if the season ended now."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        shown = await shown_in(conn, ctx)
        return shown if shown is not None else await preview_of(conn, ctx)


async def move(db: Database, guild_id: int, day: date, *, now: datetime) -> PlayoffNightShown:
    """R13.4 Decision: the commissioner moves playoff night (a qualifier gave
    notice); the field is told. Refused once it has started, or to a date
    that is past, not after the last regular night, or over 3 months away."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await playoff_nights.playoff_night(conn, ctx.season.id)
        if night is None:
            raise NotReady(NOT_SET.format(week=ctx.season.regular_nights))
        if night.status != "scheduled":
            raise WrongState("Playoff night has started; its date can no longer move.")
        last = (await leagues.nights(conn, ctx.season.id))[-1].date
        today = ctx.local(now).date()
        if day == night.date:
            raise BadInput(f"Playoff night is already on {day:%A %d %B %Y}.")
        if day <= last:
            raise BadInput(
                f"Playoff night comes after the last regular night ({last:%A %d %B %Y})."
            )
        if day < today:
            raise BadInput(f"{day:%A %d %B %Y} is past; pick a date from today on.")
        if day > max(today, last) + LATEST_MOVE:
            raise BadInput("Playoff night can move up to 3 months ahead, no further.")
        await playoff_nights.move_playoff_night(conn, night.id, day)
        # The check-in, the replacements and the absences were for the old date.
        await playoff_nights.reset_check_in(conn, night.id)
        await nights.withdraw_notices_of_night(conn, night.id, stamp(now))
        shown = await shown_in(conn, ctx)
        assert shown is not None
        moved = replace(shown, moved_from=night.date)
        await owe(conn, guild_id, ANNOUNCEMENTS, Kind.PLAYOFF_NIGHT, night_ref(night.id),
                  moved.to_data(), now=now)  # fmt: skip
        return moved


async def call_off(
    conn: aiosqlite.Connection, ctx: SeasonContext, regular_nights: int, *, now: datetime
) -> None:
    """The season's length changes to `regular_nights` after playoff night was set:
    playoff night is called off (it is set again when the new last night is
    finalized) and the players told. Refused once it has started."""
    night = await playoff_nights.playoff_night(conn, ctx.season.id)
    if night is None or regular_nights == ctx.season.regular_nights:
        return
    if night.status != "scheduled":
        raise WrongState("Playoff night has started: the season's nights can no longer change.")
    await playoff_nights.delete_playoff_night(conn, night.id)
    told = {"called_off": night.date.isoformat(), "nights": regular_nights}
    await owe(conn, ctx.league.guild_id, ANNOUNCEMENTS, Kind.PLAYOFF_NIGHT, night_ref(night.id),
              told, now=now)  # fmt: skip


async def season_length_changed(
    conn: aiosqlite.Connection, ctx: SeasonContext, *, now: datetime
) -> bool:
    """The season's length changed (`ctx` holds it): when its new last night is
    already final, playoff night is set after it (R13.4)."""
    last = await leagues.night_by_week(conn, ctx.season.id, ctx.season.regular_nights)
    if last is None or last.status != "finalized":
        return False
    return await set_up_in(conn, ctx, last, now=now)


async def still_set(db: Database, night_id: int) -> bool:
    """Whether playoff night `night_id` is still set (not called off)."""
    async with db.read() as conn:
        night = await leagues.night_by_id(conn, night_id)
    return night is not None and night.kind == "playoff"


async def season_order_in(conn: aiosqlite.Connection, ctx: SeasonContext) -> SeasonOrder | None:
    """R13.6: each division's final places once playoff night is decided: the
    field by its playoff places, then the qualifiers replaced (who forfeit a
    prize), then everyone else by standings. None before (or without) playoffs."""
    night = await playoff_nights.playoff_night(conn, ctx.season.id)
    if night is None or night.status != "finalized":
        return None
    entries = await playoff_nights.field(conn, night.id)
    replaced = {e.player_id for e in entries if e.replaced_by is not None}
    out: dict[str, list[int]] = {}
    for pool, ranked in by_division(await rows_of(conn, ctx)).items():
        placed = sorted((e for e in entries if e.pool == pool and e.place is not None),
                        key=lambda e: e.place or 0)  # fmt: skip
        out[pool] = season_places(
            [e.player_id for e in placed], replaced, [r.player.id for r in ranked]
        )
    return SeasonOrder(out, frozenset(replaced))


async def closed_early(conn: aiosqlite.Connection, ctx: SeasonContext, night: Night) -> bool:
    """R13.6: `ctx`'s season was closed before its playoffs were decided, and
    `night` is its last night played: its end (summary, prizes) goes by the
    standings, without playoffs."""
    if ctx.season.status != "closed" or night.kind != "regular" or night.status != "finalized":
        return False
    finale = await playoff_nights.playoff_night(conn, ctx.season.id)
    if finale is not None and finale.status == "finalized":
        return False
    played = [n for n in await leagues.nights(conn, ctx.season.id) if n.status == "finalized"]
    return played[-1].id == night.id
