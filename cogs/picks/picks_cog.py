"""/veto: a player's picks for tonight, vetoes when P > 5, repeats when P < 5 (R4)."""

from __future__ import annotations

from discord import Interaction, app_commands
from discord.ext import commands

from bot.components.interactions import league_bot, now_of
from bot.services import membership, picks
from bot.services.errors import LeagueError
from bot.ui.replies import guild_of, respond
from cogs.picks import picks_text

CLEAR = "clear"


class Picks(commands.Cog):
    @app_commands.command(name="veto")
    @app_commands.guild_only()
    @app_commands.describe(
        machine="A working machine to veto (or repeat), or 'clear' to start over"
    )
    async def veto(self, interaction: Interaction, machine: app_commands.Range[str, 1, 64]) -> None:
        """Add your next pick for tonight's games, or clear your picks."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        if machine.strip().lower() == CLEAR:
            chosen = await picks.clear_picks(
                bot.db, guild_of(interaction), interaction.user.id, now=now_of(interaction)
            )
        else:
            chosen = await picks.add_pick(
                bot.db,
                guild_of(interaction),
                interaction.user.id,
                machine,
                now=now_of(interaction),
            )
        await respond(interaction, picks_text.pick_list(chosen))

    @veto.autocomplete("machine")
    async def machine_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        bot = league_bot(interaction)
        try:
            _, machines = await membership.roster(bot.db, guild_of(interaction))
        except LeagueError:
            return []
        names = [m.name for m in machines if m.working and current.lower() in m.name.lower()]
        choices = [app_commands.Choice(name=n, value=n) for n in names[:24]]
        return [*choices, app_commands.Choice(name="Clear my picks", value=CLEAR)]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Picks())
