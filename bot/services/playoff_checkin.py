"""Playoff night's check-in and replacements (R13.2, R13.5).

The commissioner checks in the players who came; a qualifier may say in
advance that they cannot come (`/absent` for the playoff date, an absence
notice on playoff night). At the end of the grace period every qualifier not
checked in, or with an absence notice, is replaced by the next alternate who is
checked in; the field is seeded again by standing. A replacement made by
mistake can be undone until the first playoff score is in.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import FieldEntry, Night
from bot.outbox_kinds import Kind, night_ref
from bot.repositories import nights, people, playoff_nights, scores
from bot.rules.playoffs import replacements
from bot.services.context import SeasonContext, brief, season_of, stamp
from bot.services.errors import BadInput, NotFound, NotReady, WrongState
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes.playoffs import CheckedIn, Replacement, ReplacementUndone
from bot.services.playoffs import NOT_SET, shown_in
from bot.services.standings import in_field

MAX_NAMES = 40  # names in one check-in: a whole field and its alternates
COMMAS_IN_A_NAME = 3  # "Smith, Jo" is one name when the field has a player so called


async def playoff_night_of(conn: aiosqlite.Connection, ctx: SeasonContext) -> Night:
    night = await playoff_nights.playoff_night(conn, ctx.season.id)
    if night is None:
        raise NotReady(NOT_SET.format(week=ctx.season.regular_nights))
    return night


async def _entry_named(
    conn: aiosqlite.Connection, ctx: SeasonContext, entries: list[FieldEntry], name: str
) -> FieldEntry:
    wanted = " ".join(name.split()).casefold()
    ids = {e.player_id: e for e in entries}
    for player in await people.players(conn, ctx.league.id, removed=True):
        if player.id in ids and player.name.casefold() == wanted:
            return ids[player.id]
    raise NotFound(f"{brief(name)} is not in the playoff field or among its alternates.")


async def _names_typed(
    conn: aiosqlite.Connection, ctx: SeasonContext, entries: list[FieldEntry], names: str
) -> list[str]:
    """The comma-separated names, a name with a comma of its own ("Smith, Jo")
    kept whole when the field has a player of that name."""
    ids = {e.player_id for e in entries}
    players = await people.players(conn, ctx.league.id, removed=True)
    known = {" ".join(p.name.split()).casefold() for p in players if p.id in ids}
    parts = names.split(",")
    found: list[str] = []
    start = 0
    while start < len(parts):
        longest = min(len(parts), start + COMMAS_IN_A_NAME + 1)
        end = next((j for j in range(longest, start + 1, -1)
                    if " ".join(",".join(parts[start:j]).split()).casefold() in known),
                   start + 1)  # fmt: skip
        name = ",".join(parts[start:end]).strip()
        if name:
            found.append(name)
        start = end
    return found


async def check_in(db: Database, guild_id: int, names: str, *, now: datetime) -> CheckedIn:
    """The players who came, comma-separated: qualifiers or alternates, on
    playoff night. Checking in withdraws an absence notice (they came after
    all). All or nothing: one unknown name changes nothing."""
    typed = [n for n in (part.strip() for part in names.split(",")) if n]
    if not typed:
        raise BadInput("Name the players who came, separated by commas.")
    if len(typed) > MAX_NAMES:
        raise BadInput(f"Check in at most {MAX_NAMES} players at a time.")
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await playoff_night_of(conn, ctx)
        today = ctx.local(now).date()
        if night.status == "finalized":
            raise WrongState("Playoff night is over.")
        if today != night.date:
            raise WrongState(
                f"Check-in is on playoff night, {night.date:%A %d %B}, not before or after."
            )
        entries = await playoff_nights.field(conn, night.id)
        chosen = [await _entry_named(conn, ctx, entries, name)
                  for name in await _names_typed(conn, ctx, entries, names)]  # fmt: skip
        everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
        checked: list[str] = []
        already: list[str] = []
        for entry in dict.fromkeys(chosen):
            fresh = await playoff_nights.check_in(conn, night.id, entry.player_id, stamp(now))
            (checked if fresh else already).append(everyone[entry.player_id])
            await nights.withdraw_notice(conn, night.id, entry.player_id, stamp(now))
        return CheckedIn(checked, already)


async def at_grace(db: Database, guild_id: int, *, now: datetime) -> list[Replacement]:
    """R13.5, at the end of the grace period on playoff night: each qualifier not
    checked in, or with an absence notice, replaced by the next checked-in
    alternate of their division. Run again, it replaces nobody twice."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await playoff_night_of(conn, ctx)
        entries = await playoff_nights.field(conn, night.id)
        absent = {n.player_id for n in await nights.notices(conn, night.id) if n.kind == "absent"}
        checked = {e.player_id for e in entries if e.checked_in_at is not None}
        everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
        playing = in_field(entries)
        made: list[Replacement] = []
        for pool in sorted({e.pool for e in entries}):
            ranked = [e.player_id for e in entries if e.pool == pool]  # by standing
            field = [p for p in ranked if p in playing]
            alternates = [p for p in ranked if p not in playing and _alternate(entries, p)]
            missing = {p for p in field if p not in checked or p in absent}
            ready = {p for p in alternates if p in checked and p not in absent}
            for out, into in replacements(field, alternates, missing, ready):
                if into is not None:
                    await _replace(conn, night, entries, out, into, now)
                why = "absent" if out in absent else "missing"
                made.append(Replacement(pool, everyone[out], why,
                                        everyone[into] if into is not None else None))  # fmt: skip
        return made


def _alternate(entries: list[FieldEntry], player_id: int) -> bool:
    """Not a qualifier, and not yet replaced (an alternate who stepped in and
    then went missing is out, not an alternate again)."""
    entry = next(e for e in entries if e.player_id == player_id)
    return not entry.qualified and entry.replaced_by is None


async def _replace(
    conn: aiosqlite.Connection,
    night: Night,
    entries: list[FieldEntry],
    out: int,
    into: int,
    now: datetime,
) -> None:
    """The place `out` held goes to `into`: on the qualifier's own row, or, when
    `out` had stepped in for a qualifier, on that qualifier's row."""
    holder = next((e for e in entries if e.replaced_by == out), None)
    if holder is not None:
        await playoff_nights.undo_replacement(conn, night.id, holder.player_id)
        await playoff_nights.replace(conn, night.id, holder.player_id, into, stamp(now))
    else:
        await playoff_nights.replace(conn, night.id, out, into, stamp(now))


async def undo(db: Database, guild_id: int, name: str, *, now: datetime) -> ReplacementUndone:
    """A replacement made by mistake: `name` (the replaced qualifier) plays after
    all, checked in, and the alternate waits again. Refused once a playoff score
    is in. The field is announced again."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await playoff_night_of(conn, ctx)
        if await scores.live_scores_of_night(conn, night.id):
            raise WrongState("A playoff score is in: the field is final and the replacement stays.")
        if night.status != "scheduled":
            raise WrongState(
                "Playoff night has started: its groups are set and the replacement stays."
            )
        entries = await playoff_nights.field(conn, night.id)
        entry = await _entry_named(conn, ctx, entries, name)
        everyone = {p.id: p.name for p in await people.players(conn, ctx.league.id, removed=True)}
        if entry.replaced_by is None:
            raise WrongState(f"{everyone[entry.player_id]} was not replaced; nothing to undo.")
        await playoff_nights.undo_replacement(conn, night.id, entry.player_id)
        await playoff_nights.check_in(conn, night.id, entry.player_id, stamp(now))
        await nights.withdraw_notice(conn, night.id, entry.player_id, stamp(now))
        shown = await shown_in(conn, ctx)
        assert shown is not None
        told = replace(shown, updated=True)
        await owe(conn, guild_id, ANNOUNCEMENTS, Kind.PLAYOFF_NIGHT, night_ref(night.id),
                  told.to_data(), now=now)  # fmt: skip
        return ReplacementUndone(everyone[entry.player_id], everyone[entry.replaced_by], told)
