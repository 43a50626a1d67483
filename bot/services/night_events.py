"""Each league night as a scheduled event in the league's Discord server (the
venue set with /setup-night): what the events should be (`wanted`), and the
events the bot made (`made`), so that its keeper (`bot.delivery.night_events`)
creates, edits or deletes only what differs.

A night is wanted while it is still to start (locked early or not): every
night of the running season and its playoff night (R13.4), at the league's
play time (R1.3) in its time zone, for EVENT_HOURS, with the link to its
groupings once they are posted. A night that has started is left as it is."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.database import Database
from bot.models import League, Night
from bot.outbox_kinds import Kind
from bot.repositories import leagues, night_events, outbox_items, playoff_nights, server_setups
from bot.services.outcomes.night import WantedEvent

EVENT_HOURS = 4  # Decision: how long a league night's event lasts in Discord


async def wanted(db: Database, guild_id: int, now: datetime) -> tuple[list[WantedEvent], set[int]]:
    """The events the server should show now (none without a venue or a season),
    and every night of the running season not finalized yet, when the server
    has a venue (an event whose night is no longer wanted but still among them
    has started, or was moved before now: it is left alone)."""
    async with db.read() as conn:
        setup = await server_setups.night_of(conn, guild_id)
        places = await server_setups.of(conn, guild_id)
        league = await leagues.league_by_guild(conn, guild_id)
        season = await leagues.open_season(conn, league.id) if league is not None else None
        if setup is None or places is None or league is None or season is None:
            return [], set()
        nights = list(await leagues.nights(conn, season.id))
        finale = await playoff_nights.playoff_night(conn, season.id)
        nights += [finale] if finale is not None else []
        if setup.venue is None:
            return [], set()  # no events: those still to come go
        live = {n.id for n in nights if n.status != "finalized"}
        found = []
        for night in nights:
            starts = _start(league, night)
            if night.status == "finalized" or starts <= now:
                continue
            sent = await outbox_items.last_of(
                conn, guild_id, Kind.POST, f"groupings:{night.date.isoformat()}"
            )
            posted = None
            if sent is not None and sent.status == "sent" and sent.message_id is not None:
                posted = (guild_id, places.announcements_channel_id, sent.message_id)
            found.append(WantedEvent(
                night.id, league.name, night.week if night.kind == "regular" else None,
                starts, starts + timedelta(hours=EVENT_HOURS), setup.venue, posted,
            ))  # fmt: skip
    return found, live


def _start(league: League, night: Night) -> datetime:
    local = datetime.combine(night.date, league.play_time, tzinfo=ZoneInfo(league.time_zone))
    return local.astimezone(ZoneInfo("UTC"))


async def made(db: Database, guild_id: int) -> dict[int, tuple[int, str]]:
    """The events the bot made, by night: (Discord's event id, the fields sent)."""
    async with db.read() as conn:
        return await night_events.of_guild(conn, guild_id)


async def record(db: Database, guild_id: int, night_id: int, event_id: int, shown: str) -> None:
    async with db.transaction() as conn:
        await night_events.record(conn, guild_id, night_id, event_id, shown)


async def forget(db: Database, guild_id: int, night_id: int) -> None:
    async with db.transaction() as conn:
        await night_events.forget(conn, guild_id, night_id)
