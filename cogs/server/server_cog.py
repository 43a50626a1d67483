"""/setup: a server administrator sets up the server's league in Discord."""

from __future__ import annotations

import discord
from discord import Interaction, app_commands
from discord.ext import commands

from bot.components import places
from bot.components.interactions import league_bot, now_of
from bot.models import ServerSetup
from bot.services import server_setup
from bot.services.errors import NotAllowed
from bot.ui.replies import respond
from cogs.server import server_text

ANY_SERVER = {"any_server": True}  # runs where no league is set up yet


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


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Server())
