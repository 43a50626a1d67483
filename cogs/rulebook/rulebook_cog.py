"""/rules [topic]: the league's rules in plain words, with this league's numbers."""

from __future__ import annotations

from discord import Interaction, app_commands
from discord.ext import commands

from bot.components.interactions import league_bot
from bot.services.errors import BadInput
from bot.ui.replies import guild_of, respond
from cogs.rulebook import rulebook, rulebook_text


class Rulebook(commands.Cog):
    @app_commands.command(name="rules")
    @app_commands.guild_only()
    @app_commands.describe(topic="A topic, e.g. late notices (default: the list)")
    async def rules(self, interaction: Interaction, topic: str | None = None) -> None:
        """The league's rules in plain words, with this league's numbers."""
        if topic is None or not topic.strip():
            await respond(interaction, rulebook_text.index())
            return
        found = rulebook_text.find(topic)
        if found is None:
            raise BadInput(rulebook_text.unknown(topic))
        await interaction.response.defer(ephemeral=True, thinking=True)  # before any read
        bot = league_bot(interaction)
        terms = await rulebook.terms(bot.db, guild_of(interaction))
        await respond(interaction, rulebook_text.explain(found, terms))

    @rules.autocomplete("topic")
    async def topics(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The topics containing what is typed (all of them when nothing matches)."""
        return [app_commands.Choice(name=n, value=n) for n in rulebook_text.matching(current)[:25]]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rulebook())
