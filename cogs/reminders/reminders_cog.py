"""/remind: a member chooses which reminders they get by DM (all off until
they opt in). Without options it shows their choices."""

from __future__ import annotations

from discord import Interaction, app_commands
from discord.ext import commands

from bot.components.interactions import league_bot, note_commissioner
from bot.services import reminders
from bot.ui.approvals import is_commissioner
from bot.ui.replies import guild_of, respond
from cogs.reminders import reminders_text


class Reminders(commands.Cog):
    @app_commands.command(name="remind")
    @app_commands.guild_only()
    @app_commands.describe(
        league_day="On league day, before the late-notice cutoff: your time and group",
        missing_scores="After the grace period, when one of your scores is still missing",
        waiting_scores="Commissioners: after the night, scores still waiting for approval",
    )
    async def remind(
        self,
        interaction: Interaction,
        league_day: bool | None = None,
        missing_scores: bool | None = None,
        waiting_scores: bool | None = None,
    ) -> None:
        """Choose your reminders by DM (all off until you turn them on)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        commissioner = is_commissioner(interaction)
        if commissioner:
            await note_commissioner(interaction)  # who holds the role, for "scores waiting"
        changes = {"league_day": league_day, "missing_scores": missing_scores,
                   "waiting_scores": waiting_scores}  # fmt: skip
        chosen = await reminders.choose(
            league_bot(interaction).db, guild_of(interaction), interaction.user.id, changes,
            commissioner=commissioner,
        )  # fmt: skip
        changed = any(value is not None for value in changes.values())
        await respond(interaction, reminders_text.choices(chosen, changed=changed))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Reminders())
