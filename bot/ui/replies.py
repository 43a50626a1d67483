"""One error path for commands and buttons, and a reply helper.

Refusals (`LeagueError`, bad input, a missing role) reach the user as their
message, ephemeral. Anything else is logged once, with the command, user and
guild, and the user gets a short apology: never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TypedDict

import discord
from discord import app_commands

from bot.parsing import InputError
from bot.scoring import RuleError
from bot.services.errors import LeagueError
from bot.ui.render import chunks

log = logging.getLogger(__name__)

APOLOGY = "Something went wrong on our side. It has been logged; please try again in a minute."


OTHER_SERVER = (
    "This server has no league yet: a server administrator can set one up with /setup "
    "(the league's channels and its commissioner role)."
)


class NotCommissioner(app_commands.CheckFailure):
    """The command or button is the commissioner's."""


class OtherServer(app_commands.CheckFailure):
    """The interaction came from a server with no league set up (or a DM)."""


def in_league_guild(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a server whose league is set up (never a DM).
    Everything it does is that server's league's: the services take its id."""
    setups = getattr(interaction.client, "setups", {})
    return interaction.guild_id is not None and interaction.guild_id in setups


def require_league_guild(interaction: discord.Interaction) -> None:
    """Refuse an interaction from a server with no league set up, or a DM."""
    if not in_league_guild(interaction):
        raise OtherServer(OTHER_SERVER)


def guild_of(interaction: discord.Interaction) -> int:
    """The id of the server the interaction came from, whose league it acts on."""
    require_league_guild(interaction)
    assert interaction.guild_id is not None  # checked just above
    return interaction.guild_id


class _LastPiece(TypedDict, total=False):
    """What goes on a reply's last piece only."""

    view: discord.ui.View
    file: discord.File


async def respond(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
) -> None:
    """Reply whether or not the interaction was acknowledged yet; long text is split.
    The view and the file go on the last piece."""
    pieces = chunks(content) or ["(nothing to show)"]
    for number, piece in enumerate(pieces):
        last = number == len(pieces) - 1
        extra: _LastPiece = {"view": view} if view is not None and last else {}
        if file is not None and last:
            extra["file"] = file
        try:
            if interaction.response.is_done():
                await interaction.followup.send(piece, ephemeral=ephemeral, **extra)
            else:
                await interaction.response.send_message(piece, ephemeral=ephemeral, **extra)
        finally:
            if "file" in extra:
                release(extra["file"])


def release(file: discord.File) -> None:
    """Free a sent file's bytes now. discord.File puts its buffer's own close()
    back on the buffer when it is sent, a reference cycle that only a full
    garbage collection frees; the buffer holds the copy aiohttp made of the
    bytes, so a burst of /standings kept one picture per answer (2,000: 230 MB)."""
    file.close()  # what discord.py does after sending; idempotent
    file.fp.close()


def user_message(error: BaseException) -> str | None:
    """The message a refusal shows, or None for an unexpected error."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, NotCommissioner):
        return str(error) or "Only the commissioner can do that."
    if isinstance(error, OtherServer):
        return OTHER_SERVER
    if isinstance(error, app_commands.NoPrivateMessage):
        return "League commands work in the league's server, not in direct messages."
    if isinstance(error, app_commands.TransformerError):
        return f"{error.value!r} is not a valid value for that option."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use that command here."
    if isinstance(error, LeagueError | InputError | RuleError):
        return str(error)
    shown = getattr(type(error), "user_message", None)  # e.g. the database file was replaced
    return shown if isinstance(shown, str) else None


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong; log what they should not see."""
    original = getattr(error, "original", error)
    message = user_message(original)
    if message is None:
        command = interaction.command.qualified_name if interaction.command else None
        data: Mapping[str, object] = interaction.data or {}
        custom_id = data.get("custom_id")
        log.error(
            "unexpected error in %s (user %s, guild %s, options %s)",
            command or custom_id or "an interaction",
            interaction.user.id if interaction.user else None,
            interaction.guild_id,
            data.get("options"),
            exc_info=original,
        )
        message = APOLOGY
    claim = getattr(original, "claim_alert", None)
    alert = getattr(original, "alert_message", None)
    if callable(claim) and isinstance(alert, str) and claim():
        await alert_commissioner(interaction, alert)
    try:
        await respond(interaction, message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", getattr(interaction.user, "id", None))


async def alert_commissioner(interaction: discord.Interaction, message: str) -> None:
    """Tell the commissioner in the approvals channel (once per such fault)."""
    client = interaction.client
    setup = getattr(client, "setups", {}).get(interaction.guild_id)
    if setup is None:
        log.warning("no approvals channel to alert the commissioner in: %s", message)
        return
    channel_id = setup.approvals_channel_id
    text = f"Commissioner: {message}"
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        await channel.send(text)  # type: ignore[union-attr]  # AttributeError: caught below
    except (discord.HTTPException, AttributeError) as error:
        log.warning("could not alert the commissioner in channel %s: %s", channel_id, error)


class LeagueTree(app_commands.CommandTree):
    """The bot's command tree: every command error goes through `report`, and
    every command is refused outside the league's server (`require_league_guild`)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        command = interaction.command
        if command is not None and command.extras.get("any_server"):
            return True  # /setup: a server's league is set up with it
        if interaction.type is discord.InteractionType.autocomplete:
            return in_league_guild(interaction)  # no suggestions elsewhere; nothing to say
        require_league_guild(interaction)  # a CheckFailure: `on_error` tells the user
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)
