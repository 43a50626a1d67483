"""/playoffs field (everyone) and /playoffs date (the commissioner) (R13)."""

from __future__ import annotations

from discord import Interaction, app_commands
from discord.ext import commands

from bot.components.interactions import (
    check_commissioner,
    deliver,
    league_bot,
    note_commissioner,
    now_of,
)
from bot.league_client import RESCHEDULES, LeagueClient
from bot.parsing import parse_date
from bot.services import playoff_checkin, playoff_play, playoffs
from bot.ui.playoffs import night_view
from bot.ui.replies import respond
from cogs.playoffs import playoffs_text


@app_commands.guild_only()
class Playoffs(commands.GroupCog, group_name="playoffs"):
    """Playoff night: its date, format and field."""

    @app_commands.command(name="field")
    async def field(self, interaction: Interaction) -> None:
        """Playoff night: its date, its format and each division's field."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        shown = await playoffs.night_shown(bot.db, bot.settings.guild_id)
        await respond(interaction, night_view(shown))

    @app_commands.command(name="date", extras=RESCHEDULES)
    @app_commands.describe(date="The new date, e.g. 2026-03-25")
    async def move(self, interaction: Interaction, date: app_commands.Range[str, 1, 20]) -> None:
        """Move playoff night to another date (commissioner)."""
        day = parse_date(date)
        bot = await self._commissioner(interaction)
        shown = await playoffs.move(bot.db, bot.settings.guild_id, day, now=now_of(interaction))
        deliver(interaction)  # R13.4: the field is told
        await respond(interaction, playoffs_text.moved(shown))

    @app_commands.command(name="checkin")
    @app_commands.describe(players="The players who came, comma-separated")
    async def checkin(
        self, interaction: Interaction, players: app_commands.Range[str, 1, 1000]
    ) -> None:
        """Check in the playoff players who came (commissioner)."""
        bot = await self._commissioner(interaction)
        done = await playoff_checkin.check_in(
            bot.db, bot.settings.guild_id, players, now=now_of(interaction)
        )
        await respond(interaction, playoffs_text.checked_in(done))

    @app_commands.command(name="undo")
    @app_commands.describe(player="The qualifier replaced by mistake")
    async def undo(self, interaction: Interaction, player: app_commands.Range[str, 1, 64]) -> None:
        """Undo a replacement made by mistake, until the first score (commissioner)."""
        bot = await self._commissioner(interaction)
        undone = await playoff_checkin.undo(
            bot.db, bot.settings.guild_id, player, now=now_of(interaction)
        )
        deliver(interaction)  # the field is announced again
        await respond(interaction, playoffs_text.undone(undone))

    @app_commands.command(name="start")
    @app_commands.describe(machines="One machine per game, in game order, comma-separated")
    async def start(
        self, interaction: Interaction, machines: app_commands.Range[str, 1, 400]
    ) -> None:
        """Start playoff night on the machines named (commissioner)."""
        bot = await self._commissioner(interaction)
        play = await playoff_play.start(
            bot.db, bot.settings.guild_id, machines, now=now_of(interaction)
        )
        deliver(interaction)  # the games are posted for the players
        await respond(interaction, playoffs_text.started(play))

    async def _commissioner(self, interaction: Interaction) -> LeagueClient:
        """The role check, then the acknowledgement (Discord's 3 s)."""
        await check_commissioner(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await note_commissioner(interaction)
        return league_bot(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Playoffs())
