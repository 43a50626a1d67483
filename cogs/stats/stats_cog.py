"""/stats and /machine: a player's and a machine's season."""

from __future__ import annotations

from discord import Interaction, app_commands
from discord.ext import commands

from bot.components.choices import season_choices, suggest
from bot.components.interactions import league_bot
from bot.services.errors import LeagueError
from bot.ui.replies import guild_of, respond
from cogs.stats import stats, stats_text


class Stats(commands.Cog):
    @app_commands.command(name="stats")
    @app_commands.guild_only()
    @app_commands.describe(player="A player (default: you)", season="A past season")
    async def stats(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 64] | None = None,
        season: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """A player's season: wins, moves, machines, records."""
        bot = league_bot(interaction)
        # A season's read comes after the acknowledgement (Discord's 3 s deadline).
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await stats.player_stats_of(
            bot.db, guild_of(interaction), name=player, discord_id=interaction.user.id,
            season=season,
        )  # fmt: skip
        await respond(interaction, stats_text.player_stats(found), ephemeral=True)

    @app_commands.command(name="machine")
    @app_commands.guild_only()
    @app_commands.describe(name="Which machine", season="A past season")
    async def machine(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        season: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """A machine's high scores, par, average, vetoes and repeats."""
        bot = league_bot(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await stats.machine_stats_of(bot.db, guild_of(interaction), name, season=season)
        await respond(interaction, stats_text.machine_stats(found), ephemeral=True)

    @stats.autocomplete("player")
    async def player_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        bot = league_bot(interaction)
        try:
            return suggest(await stats.player_names(bot.db, guild_of(interaction)), current)
        except LeagueError:
            return []

    @machine.autocomplete("name")
    async def machine_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        bot = league_bot(interaction)
        try:
            return suggest(await stats.machine_names(bot.db, guild_of(interaction)), current)
        except LeagueError:
            return []

    stats.autocomplete("season")(season_choices)
    machine.autocomplete("season")(season_choices)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Stats())
