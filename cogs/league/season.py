"""/league …: the league, its season, settings and times; skipped dates; backup and sync (R1)."""

from __future__ import annotations

import asyncio
from typing import Literal

from discord import Interaction, app_commands

from bot.parsing import parse_clock, parse_date
from bot.services import backup
from bot.services import setup as league_setup
from bot.ui import calendar
from bot.ui.replies import respond
from cogs._base import now_of, post
from cogs.league._common import LeagueCommands, Setting


class SeasonCommands(LeagueCommands):
    """The league, its season, settings and times; skipped dates; backup and sync (R1)."""

    @app_commands.command(name="setup")
    @app_commands.describe(name="The league's name", time_zone="IANA time zone (R1.3)")
    async def setup_league(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        time_zone: str = "America/New_York",
    ) -> None:
        """Start this server's league."""
        bot, guild = await self._ack(interaction)
        league = await league_setup.create_league(
            bot.db, guild, name, time_zone=time_zone, now=now_of(interaction)
        )
        await respond(interaction, f"League {league.name} is set up ({league.time_zone}).")

    @app_commands.command(name="season")
    @app_commands.describe(
        name="e.g. Spring 2026",
        start="First night, e.g. 2026-03-04",
        weekday="League weekday",
        nights="Regular-season nights (R1.1)",
    )
    async def season(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        start: app_commands.Range[str, 1, 20],
        weekday: str = "Wednesday",
        nights: app_commands.Range[int, 1, 52] = 10,
    ) -> None:
        """Start a season (closes the running one; history stays)."""
        day = parse_date(start)
        bot, guild = await self._ack(interaction)
        made, dates = await league_setup.start_season(
            bot.db,
            guild,
            name,
            day,
            weekday=weekday,
            regular_nights=nights,
            now=now_of(interaction),
        )
        listed = ", ".join(f"{n.week}: {n.date:%d %b}" for n in dates)
        await respond(interaction, f"Season {made.name}: {made.weekday}s. Nights {listed}.")

    @app_commands.command(name="setting")
    @app_commands.describe(name="Which setting", value="Its new value (whole number)")
    async def setting(self, interaction: Interaction, name: Setting, value: int) -> None:
        """Change a rule setting of the season."""
        bot, guild = await self._ack(interaction)
        season = await league_setup.change_setting(bot.db, guild, name, value)
        await respond(interaction, f"{name} is now {getattr(season, name)}.")

    @app_commands.command(name="time")
    @app_commands.describe(name="Which time", value="Wall-clock time, e.g. 19:15")
    async def time(
        self,
        interaction: Interaction,
        name: Literal[
            "play_time", "grace_until", "late_cutoff", "groupings_time", "picks_lock_time"
        ],
        value: app_commands.Range[str, 1, 5],
    ) -> None:
        """Change one of the league's times (R1.3)."""
        clock = parse_clock(value)
        bot, guild = await self._ack(interaction)
        await league_setup.set_league_time(bot.db, guild, name, clock)
        await respond(interaction, f"{name} is now {clock:%H:%M}.")

    @app_commands.command(name="skip")
    @app_commands.describe(date="The league night to skip, e.g. 2026-03-11", reason="Why")
    async def skip(
        self,
        interaction: Interaction,
        date: app_commands.Range[str, 1, 20],
        reason: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        """Skip a date; every later week moves (R1.2)."""
        day = parse_date(date)
        bot, guild = await self._ack(interaction)
        skipped = await league_setup.skip_date(bot.db, guild, day, reason, now=now_of(interaction))
        await respond(interaction, calendar.skip_reply(skipped))
        # R1.2: the players whose notice for the date is withdrawn are told (and pinged).
        for piece in calendar.skip_announcement(skipped):
            await post(
                bot, bot.settings.announcement_channel_id, piece,
                allowed_mentions=calendar.pings(skipped),
            )  # fmt: skip

    @app_commands.command(name="backup")
    async def backup(self, interaction: Interaction) -> None:
        """Write a consistent copy of the league's database."""
        bot, _ = await self._ack(interaction)
        folder = bot.settings.backup_dir
        await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
        path = await backup.backup(bot.db, folder, now=now_of(interaction))
        await respond(interaction, f"Backed up to {path.name}.")

    @app_commands.command(name="sync")
    async def sync(self, interaction: Interaction) -> None:
        """Register the slash commands with Discord for this server."""
        bot, _ = await self._ack(interaction)
        count = await bot.sync_guild_commands()
        await respond(interaction, f"Synced {count} commands.")
