"""/standings, /groups and /me: public posts of the league's numbers (R8, R11)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import Interaction, app_commands
from discord.ext import commands

from bot.components import paging, picture
from bot.components.choices import season_choices
from bot.components.interactions import league_bot, now_of
from bot.services import groups, standings
from bot.services.errors import NotFound
from bot.ui.replies import guild_of, respond
from cogs.attendance.attendance_views import attendance_view
from cogs.standings import standings_text


class Standings(commands.Cog):
    @app_commands.command(name="standings")
    @app_commands.guild_only()
    @app_commands.describe(division="Only this division (A or B)", season="A past season")
    async def standings(
        self,
        interaction: Interaction,
        division: Literal["A", "B"] | None = None,
        season: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """The season standings."""
        bot = league_bot(interaction)
        # Refusals first, privately; then acknowledge at once and post the table.
        named = await standings.check_standings(bot.db, guild_of(interaction), division, season)
        await interaction.response.defer(thinking=True)
        guild = guild_of(interaction)
        title = f"Division {division} standings" if division else "Standings"
        # the picture draws the running season only
        png = None if named else await picture.standings_file(bot.db, guild, title, division)
        season_id = await standings.season_id(bot.db, guild, named)
        arg = f"{division or ''}:{season_id}"
        await paging.show(interaction, "standings", arg, ephemeral=False, file=png)

    standings.autocomplete("season")(season_choices)

    @app_commands.command(name="groups")
    @app_commands.guild_only()
    @app_commands.describe(week="Which week (default: the coming night)")
    async def groups(
        self, interaction: Interaction, week: app_commands.Range[int, 1, 52] | None = None
    ) -> None:
        """A week's groups, games and game-1 play order."""
        bot = league_bot(interaction)
        # Refusals first, privately (one quick statement); then acknowledge at once.
        shown = await groups.check_week(
            bot.db, guild_of(interaction), week=week, now=now_of(interaction)
        )
        await interaction.response.defer(thinking=True)
        await paging.show(interaction, "groups", str(shown), ephemeral=False)

    @app_commands.command(name="me")
    @app_commands.guild_only()
    @app_commands.describe(player="Another player (default: you)", season="A past season")
    async def me(
        self,
        interaction: Interaction,
        player: discord.Member | None = None,
        season: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """A player's season: nights, points, multiplier, pre-makeups, dues, playoffs."""
        await interaction.response.defer(ephemeral=True, thinking=True)  # private, refusals too
        bot = league_bot(interaction)
        try:
            shown = await standings.player_season(
                bot.db,
                guild_of(interaction),
                discord_id=(player or interaction.user).id,
                now=now_of(interaction),
                season=season,
            )
        except NotFound:
            if player is None or player.id == interaction.user.id:
                raise
            # the service speaks to the user ("You are not a player …"); this is someone else
            raise NotFound(f"{player.display_name} is not a player in this league.") from None
        mine = player is None or player.id == interaction.user.id
        # Their own /me carries the next night's attendance buttons (late, absent, cancel).
        view = attendance_view(shown.coming_night) if mine and shown.coming_night else None
        await respond(interaction, standings_text.player_season(shown, reasons=mine), view=view)

    me.autocomplete("season")(season_choices)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Standings())
