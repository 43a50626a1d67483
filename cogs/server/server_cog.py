"""/setup and /setup-night: a server administrator sets up the server's league in
Discord, and how its nights show there."""

from __future__ import annotations

from typing import Literal

import discord
from discord import Interaction, app_commands
from discord.ext import commands

from bot.components import places
from bot.components.interactions import league_bot, now_of
from bot.components.night_checks import line, run_night_checks
from bot.league_client import RESCHEDULES
from bot.models import ServerSetup
from bot.parsing import parse_clock
from bot.services import night_setup, server_setup
from bot.services.errors import NotAllowed
from bot.ui.replies import respond
from cogs.server import server_text

ANY_SERVER = {"any_server": True}  # runs where no league is set up yet
WEEKDAY = Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class Server(commands.Cog):
    @app_commands.command(name="setup", extras=ANY_SERVER)
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        announcements="Where groupings, results and standings are posted",
        approvals="Where scores wait for the commissioners (a channel only they see)",
        commissioners="The role of the league's commissioners",
        time_zone="The league's time zone, e.g. America/Chicago (default: the bot's)",
    )
    async def setup(
        self,
        interaction: Interaction,
        announcements: discord.TextChannel,
        approvals: discord.TextChannel,
        commissioners: discord.Role,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Set up this server's league: its channels, commissioner role, time zone (admins)."""
        if interaction.guild is None or not interaction.permissions.manage_guild:
            raise NotAllowed(server_text.NOT_ADMIN)
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        guild = interaction.guild
        chosen = ServerSetup(guild.id, announcements.id, approvals.id, commissioners.id)
        if announcements.id == approvals.id:
            await respond(interaction, server_setup.SAME_CHANNEL)
            return
        if commissioners.is_default() or commissioners.managed:
            name = commissioners.name.lstrip("@")  # @everyone's own name has its @
            await respond(interaction, server_text.NOT_A_ROLE.format(role=name))
            return
        found = await places.run_checks(bot, chosen)
        problems = [c.problem or "" for c in places.problems(found)]
        if problems:
            await respond(interaction, server_text.refused(problems))
            return
        first = bot.setup_of(guild.id) is None
        saved = await server_setup.set_up(
            bot.db, guild.id, announcements.id, approvals.id, commissioners.id,
            time_zone=time_zone, by=interaction.user.id, now=now_of(interaction),
        )  # fmt: skip
        await bot.league_set_up(saved)
        bot.channel_checks[guild.id] = found
        league = await server_setup.has_league(bot.db, guild.id)
        zone = saved.time_zone or bot.settings.time_zone
        await respond(interaction, server_text.done(announcements.id, approvals.id,
                                                    commissioners.id, zone, first=first,
                                                    league=league))  # fmt: skip

    @app_commands.command(name="setup-night", extras=RESCHEDULES)
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        weekday="The weekday of the seasons started from now on",
        starts="When play starts, e.g. 19:15",
        late_notices_by="The late-notice cutoff, e.g. 15:00",
        groupings_at="When the groupings are posted, e.g. 12:00",
        grace_until="The end of the grace period, e.g. 19:45",
        picks_lock_at="When picks lock, e.g. 18:00",
        venue="Where the nights are played; each shows in the server's Events ('none': off)",
        group_threads="A thread per group on league night",
        division_roles="Give players a Division A or Division B role",
    )
    async def setup_night(
        self,
        interaction: Interaction,
        weekday: WEEKDAY | None = None,
        starts: app_commands.Range[str, 1, 10] | None = None,
        late_notices_by: app_commands.Range[str, 1, 10] | None = None,
        groupings_at: app_commands.Range[str, 1, 10] | None = None,
        grace_until: app_commands.Range[str, 1, 10] | None = None,
        picks_lock_at: app_commands.Range[str, 1, 10] | None = None,
        venue: app_commands.Range[str, 1, 100] | None = None,
        group_threads: bool | None = None,
        division_roles: bool | None = None,
    ) -> None:
        """The league nights: weekday, times, venue, group threads, division roles (admins)."""
        if interaction.guild is None or not interaction.permissions.manage_guild:
            raise NotAllowed(server_text.NOT_ADMIN)
        typed = {"play_time": starts, "late_cutoff": late_notices_by,
                 "groupings_time": groupings_at, "grace_until": grace_until,
                 "picks_lock_time": picks_lock_at}  # fmt: skip
        times = {name: parse_clock(value) for name, value in typed.items() if value is not None}
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        guild = interaction.guild.id
        if any(v is not None for v in (weekday, venue, group_threads, division_roles)) or times:
            shown = await night_setup.change(
                bot.db, guild, weekday=weekday, times=times, venue=venue,
                group_threads=group_threads, division_roles=division_roles,
            )  # fmt: skip
        else:
            shown = await night_setup.of(bot.db, guild)
        setup = bot.setup_of(guild)
        checks = run_night_checks(bot, setup, shown.setup) if setup is not None else {}
        await respond(interaction, server_text.night(shown, [line(c) for c in checks.values()]))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Server())
