"""/season close and /season reopen (the commissioner's, R13.6)."""

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
from bot.league_client import RESCHEDULES
from bot.ui.replies import guild_of, respond
from cogs.closing import closing, closing_text


@app_commands.guild_only()
class Closing(commands.GroupCog, group_name="season"):
    """The running season closed, or opened again."""

    @app_commands.command(name="close", extras=RESCHEDULES)
    @app_commands.describe(confirm="True to close a season that still has nights to play")
    async def close(self, interaction: Interaction, confirm: bool = False) -> None:
        """Close the running season (commissioner)."""
        await check_commissioner(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await note_commissioner(interaction)
        bot = league_bot(interaction)
        done = await closing.close(bot.db, guild_of(interaction), confirm=confirm,
                                   now=now_of(interaction))  # fmt: skip
        deliver(interaction)  # a close before the end is announced
        await respond(interaction, closing_text.answer(done))

    @app_commands.command(name="reopen", extras=RESCHEDULES)
    async def reopen(self, interaction: Interaction) -> None:
        """Open the closed season again, until the next one starts (commissioner)."""
        await check_commissioner(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await note_commissioner(interaction)
        bot = league_bot(interaction)
        name, told = await closing.reopen(bot.db, guild_of(interaction), now=now_of(interaction))
        deliver(interaction)
        await respond(interaction, closing_text.reopened_answer(name, told))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Closing())
