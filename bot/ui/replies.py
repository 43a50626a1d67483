"""One error path for commands and buttons, and a reply helper.

Refusals (`LeagueError`, bad input, a missing role) reach the user as their
message, ephemeral. Anything else is logged once, with the command, user and
guild, and the user gets a short apology: never a traceback.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.parsing import InputError
from bot.scoring import RuleError
from bot.services.errors import LeagueError
from bot.ui.render import chunks

log = logging.getLogger(__name__)

APOLOGY = "Something went wrong on our side. It has been logged; please try again in a minute."


class NotCommissioner(app_commands.CheckFailure):
    """The command or button is the commissioner's."""


async def respond(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    view: discord.ui.View | None = None,
) -> None:
    """Reply whether or not the interaction was acknowledged yet; long text is split."""
    pieces = chunks(content) or ["(nothing to show)"]
    for number, piece in enumerate(pieces):
        extra = {"view": view} if view is not None and number == len(pieces) - 1 else {}
        if interaction.response.is_done():
            await interaction.followup.send(piece, ephemeral=ephemeral, **extra)
        else:
            await interaction.response.send_message(piece, ephemeral=ephemeral, **extra)


def user_message(error: BaseException) -> str | None:
    """The message a refusal shows, or None for an unexpected error."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, NotCommissioner):
        return str(error) or "Only the commissioner can do that."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "League commands work in the league's server, not in direct messages."
    if isinstance(error, app_commands.TransformerError):
        return f"{error.value!r} is not a valid value for that option."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use that command here."
    if isinstance(error, LeagueError | InputError | RuleError):
        return str(error)
    return None


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong; log what they should not see."""
    original = getattr(error, "original", error)
    message = user_message(original)
    if message is None:
        command = interaction.command.qualified_name if interaction.command else None
        custom_id = (interaction.data or {}).get("custom_id")
        log.error(
            "unexpected error in %s (user %s, guild %s, options %s)",
            command or custom_id or "an interaction",
            interaction.user.id if interaction.user else None,
            interaction.guild_id,
            (interaction.data or {}).get("options"),
            exc_info=original,
        )
        message = APOLOGY
    try:
        await respond(interaction, message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", getattr(interaction.user, "id", None))


class LeagueTree(app_commands.CommandTree):
    """The bot's command tree: every command error goes through `report`."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)
