"""Closing the running season, and opening it again (R13.6).

A season whose nights and playoff night are all played closes at once. One
with anything left to play closes only when the commissioner confirms, after
being told what it ends; then the summary and the prizes go by the standings
("closed without playoffs") and the close is announced. The league's newest
season can be opened again until the next one starts (a new season closes the
running one for good).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.database import Database
from bot.outbox_kinds import Kind, night_ref
from bot.repositories import leagues, playoff_nights, season_history
from bot.services.context import league_of, season_of
from bot.services.errors import NotSetUp, WrongState
from bot.services.outbox import ANNOUNCEMENTS, owe
from cogs.closing.closing_outcomes import SeasonClosing

CLOSED = "closed"


async def close(db: Database, guild_id: int, *, confirm: bool, now: datetime) -> SeasonClosing:
    """R13.6: close the running season. Refused while a night or playoff night is
    being played. With something left to play and no `confirm`, nothing changes:
    the answer says what closing would end."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        nights = await leagues.nights(conn, ctx.season.id)  # the regular season's
        playing = [n for n in nights if n.status == "locked"]
        if playing:
            raise WrongState(f"Week {playing[0].week} is being played: finalize it before "
                             "closing the season.")  # fmt: skip
        finale = await playoff_nights.playoff_night(conn, ctx.season.id)
        if finale is not None and finale.status == "locked":
            raise WrongState("Playoff night is under way: finish it before closing the season.")
        played = [n for n in nights if n.status == "finalized"]
        closing = SeasonClosing(
            ctx.season.name,
            ctx.season.regular_nights,
            played[-1].week if played else None,
            [n.week for n in nights if n.status == "scheduled"],
            finale.date if finale is not None and finale.status == "scheduled" else None,
            closed=False,
        )
        if not closing.over and not confirm:
            return closing
        await leagues.close_season(conn, ctx.season.id)
        closing = replace(closing, closed=True)
        if not closing.over:  # closed before its end: announced, with its end by standings
            gid = ctx.league.guild_id
            await owe(conn, gid, ANNOUNCEMENTS, Kind.SEASON_CLOSED, f"season:{ctx.season.id}",
                      closing.to_data(), now=now)  # fmt: skip
            if played:
                for kind in (Kind.PRIZES, Kind.SEASON_SUMMARY):
                    await owe(conn, gid, ANNOUNCEMENTS, kind, night_ref(played[-1].id), now=now)
        return closing


async def reopen(db: Database, guild_id: int, *, now: datetime) -> tuple[str, bool]:
    """Open the league's newest season again: its name, and whether the players
    are told (a season closed early: what was posted at its close no longer
    stands). Refused while a season runs."""
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        running = await leagues.open_season(conn, league.id)
        if running is not None:
            raise WrongState(f"{running.name} is running: only a closed season can be opened "
                             "again, before the next one starts.")  # fmt: skip
        seasons = await season_history.seasons(conn, league.id)
        if not seasons:
            raise NotSetUp("There is no season yet. The commissioner starts one with "
                           "/league season start.")  # fmt: skip
        newest = seasons[-1].season
        await leagues.open_season_again(conn, newest.id)
        finale = await playoff_nights.playoff_night(conn, newest.id)
        left = any(n.status != "finalized" for n in await leagues.nights(conn, newest.id)) or (
            finale is not None and finale.status != "finalized"
        )
        if left:
            await owe(conn, guild_id, ANNOUNCEMENTS, Kind.SEASON_CLOSED, f"season:{newest.id}",
                      {"reopened": newest.name}, now=now)  # fmt: skip
        return newest.name, left
