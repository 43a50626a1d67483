"""/score-form: enter several scores in one Discord form.

Without `game`, a form with your remaining games tonight; with `game`, a form
for that game of your group with a field per member still without a score
(any member of the group may keep score). The form is the FIRST answer to the
command (Discord allows no modal after a defer). On submit every field is
parsed here, then one service call stores them all in one transaction, each
checked as `/score` checks it and owed its approval post, or stores none."""

from __future__ import annotations

import discord
from discord import Interaction, app_commands
from discord.ext import commands

from bot.components.interactions import deliver, league_bot, now_of
from bot.parsing import InputError, parse_score
from bot.services import scores
from bot.services.errors import BadInput
from bot.ui.replies import guild_of, report, respond
from cogs.scores import scores_text
from cogs.scores.scores_cog import my_game_choices

TITLE_LIMIT = LABEL_LIMIT = 45  # Discord: a modal's title, a text input's label


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ScoreForm(discord.ui.Modal):
    """One text input per field of `scores.form`; blank fields are skipped."""

    def __init__(self, title: str, fields: list[scores.FormField]) -> None:
        super().__init__(title=_cut(title, TITLE_LIMIT), timeout=900)
        self.fields = fields
        self.inputs: list[discord.ui.TextInput[ScoreForm]] = []
        for field in fields[: scores.FORM_FIELDS]:
            box: discord.ui.TextInput[ScoreForm] = discord.ui.TextInput(
                placeholder="e.g. 1,234,567 or 850M (blank: skip)", required=False, max_length=40
            )
            self.inputs.append(box)
            self.add_item(discord.ui.Label(text=_cut(field.label, LABEL_LIMIT), component=box))

    def entries(self) -> list[tuple[scores.FormField, int]]:
        """Every filled field parsed like `/score`; the first bad one refuses the form."""
        parsed = []
        for field, box in zip(self.fields, self.inputs, strict=False):
            if not box.value.strip():
                continue
            try:
                parsed.append((field, parse_score(box.value)))
            except InputError as error:
                raise BadInput(f"{field.label}: {error} Nothing was stored.") from None
        if not parsed:
            raise BadInput("Every field was blank: nothing was stored.")
        return parsed

    async def on_submit(self, interaction: Interaction) -> None:
        entries = self.entries()
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        views = await scores.submit_form(
            bot.db, guild_of(interaction), interaction.user.id, entries, now=now_of(interaction)
        )
        deliver(interaction)  # their approval posts, owed with them
        await respond(interaction, scores_text.scores_pending(views))

    async def on_error(  # type: ignore[override]  # discord.py: Modal's drops BaseView's `item`
        self, interaction: Interaction, error: Exception
    ) -> None:
        await report(interaction, error)


class ScoreFormCommand(commands.Cog):
    @app_commands.command(name="score-form")
    @app_commands.guild_only()
    @app_commands.describe(game="A game of your group: one field per member (default: your games)")
    async def score_form(
        self, interaction: Interaction, game: app_commands.Range[int, 1, 10] | None = None
    ) -> None:
        """Enter several scores in one form: your games tonight, or one game for your group."""
        bot = league_bot(interaction)
        title, fields = await scores.form(bot.db, guild_of(interaction), interaction.user.id, game)
        await interaction.response.send_modal(ScoreForm(title, fields))

    @score_form.autocomplete("game")
    async def game_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await my_game_choices(interaction, current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ScoreFormCommand())
