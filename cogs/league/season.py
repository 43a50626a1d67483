"""/league season …: the league, its season, settings, times, skipped dates and
the playoff field (R1, R13)."""

from __future__ import annotations

from typing import Literal

from discord import Interaction, app_commands

from bot.components.interactions import deliver, now_of
from bot.league_client import RESCHEDULES
from bot.parsing import parse_clock, parse_date
from bot.services import night_setup, skips, standings
from bot.services.setup import (
    SETTINGS,
    change_setting,
    create_league,
    set_league_time,
    start_season,
)
from bot.ui import calendar
from bot.ui.replies import respond
from cogs.league.group import LeagueCommands
from cogs.standings import standings_text
from cogs.stats import stats, stats_text


class SeasonCommands(LeagueCommands):
    """The league, its season, settings and times; skipped dates; the playoff field."""

    season = app_commands.Group(name="season", description="League, season, settings, playoffs")

    @season.command(name="setup", extras=RESCHEDULES)
    @app_commands.describe(
        name="The league's name",
        time_zone="e.g. America/Chicago (default: /setup's, else the bot's)",
    )
    async def setup_league(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        time_zone: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Start this server's league."""
        bot, guild = await self._ack(interaction)
        setup = bot.setup_of(guild)  # /setup's time zone, else LEAGUE_TIME_ZONE
        default = setup.time_zone if setup is not None and setup.time_zone else None
        zone = time_zone.strip() if time_zone else default or bot.settings.time_zone
        league = await create_league(bot.db, guild, name, time_zone=zone, now=now_of(interaction))
        await respond(interaction, f"League {league.name} is set up ({league.time_zone}).")

    @season.command(name="start", extras=RESCHEDULES)
    @app_commands.describe(
        name="e.g. Spring 2026",
        start="First night, e.g. 2026-03-04",
        weekday="League weekday",
        nights="Regular-season nights",
    )
    async def start_season(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        start: app_commands.Range[str, 1, 20],
        weekday: str | None = None,
        nights: app_commands.Range[int, 1, 52] = 10,
    ) -> None:
        """Start a season; the running one closes."""
        day = parse_date(start)
        bot, guild = await self._ack(interaction)
        weekday = weekday or await night_setup.weekday_of(bot.db, guild)  # /setup-night's
        made, dates = await start_season(
            bot.db,
            guild,
            name,
            day,
            weekday=weekday,
            regular_nights=nights,
            now=now_of(interaction),
        )
        listed = ", ".join(f"{n.week}: {n.date:%d %b}" for n in dates)
        roster = stats_text.roster_change(await stats.roster_change(bot.db, guild))
        await respond(
            interaction, f"Season {made.name}: {made.weekday}s. Nights {listed}. {roster}".strip()
        )

    @season.command(name="setting", extras=RESCHEDULES)
    @app_commands.describe(
        name="Which setting",
        value="A number, percents like 30,15,10, yes/no, or final group/bracket",
    )
    async def setting(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 40],
        value: app_commands.Range[str, 1, 40],
    ) -> None:
        """Change a season setting."""
        bot, guild = await self._ack(interaction)
        changed = await change_setting(bot.db, guild, name, value, now=now_of(interaction))
        told = ""
        if changed.announced:  # R13.3: the players are told of the playoffs' change
            deliver(interaction)
            told = " The change is announced to the players."
        await respond(interaction, f"{changed.name} is now {changed.shown}.{told}")

    @setting.autocomplete("name")
    async def setting_names(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The settings the service accepts, those containing what is typed first."""
        typed = current.strip().lower()
        names = [n for n in SETTINGS if typed in n] or list(SETTINGS)
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @season.command(name="time", extras=RESCHEDULES)
    @app_commands.describe(name="Which time", value="Wall-clock time, e.g. 19:15")
    async def time(
        self,
        interaction: Interaction,
        name: Literal[
            "play_time", "grace_until", "late_cutoff", "groupings_time", "picks_lock_time"
        ],
        value: app_commands.Range[str, 1, 5],
    ) -> None:
        """Change a league time."""
        clock = parse_clock(value)
        bot, guild = await self._ack(interaction)
        await set_league_time(bot.db, guild, name, clock)
        await respond(interaction, f"{name} is now {clock:%H:%M}.")

    @season.command(name="skip", extras=RESCHEDULES)
    @app_commands.describe(date="The league night to skip, e.g. 2026-03-11", reason="Why")
    async def skip(
        self,
        interaction: Interaction,
        date: app_commands.Range[str, 1, 20],
        reason: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        """Skip a date; every later week moves."""
        day = parse_date(date)
        bot, guild = await self._ack(interaction)
        skipped = await skips.skip_date(bot.db, guild, day, reason, now=now_of(interaction))
        # R1.2: the announcement (it pings the players whose notice is withdrawn) is owed.
        deliver(interaction)
        await respond(interaction, calendar.skip_reply(skipped))

    @season.command(name="playoffs")
    @app_commands.describe(unavailable="Qualifiers not coming, comma-separated")
    async def playoffs(
        self, interaction: Interaction, unavailable: app_commands.Range[str, 0, 300] = ""
    ) -> None:
        """Playoff qualifiers and alternates."""
        bot, guild = await self._ack(interaction)
        names = [n.strip() for n in unavailable.split(",") if n.strip()]
        await respond(
            interaction, standings_text.playoffs(await standings.playoffs(bot.db, guild, names))
        )
