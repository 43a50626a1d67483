"""What every cog needs: the bot's database, its guild, the time of a request, and
the nudge that has the outbox deliver what a command owed."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.services import commissioners
from bot.ui.approvals import is_commissioner, require_commissioner

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

log = logging.getLogger(__name__)


def league_bot(interaction: discord.Interaction) -> LeagueClient:
    return interaction.client  # type: ignore[return-value]  # typed Client; it is our LeagueClient


def now_of(interaction: discord.Interaction) -> datetime:
    """When the user acted: Discord's own timestamp of the interaction."""
    return interaction.created_at


def deliver(interaction: discord.Interaction) -> None:
    """The command owed messages (written by its service, in its transaction):
    have the outbox's sender deliver them now rather than at its next look."""
    league_bot(interaction).outbox.wake()


async def check_commissioner(interaction: discord.Interaction) -> None:
    """The role check (raises NotCommissioner), with nothing written before the
    interaction is acknowledged: the caller records a commissioner with
    `note_commissioner` after its acknowledgement. A recorded member seen
    without the role is forgotten here (best effort), so no alert DMs them."""
    if not is_commissioner(interaction):
        await _seen(interaction, holds=False)
    require_commissioner(interaction)


async def note_commissioner(interaction: discord.Interaction) -> None:
    """After the acknowledgement: record who acted as commissioner, and their
    display name (the exports name who approved), so the bot can DM them
    without the members intent."""
    await _seen(interaction, holds=True)


async def _seen(interaction: discord.Interaction, *, holds: bool) -> None:
    """Best effort: a full disk or a replaced database file must not stop the
    command itself, which says what is wrong if it must write."""
    bot = league_bot(interaction)
    if bot.setup_of(interaction.guild_id) is None or interaction.guild_id is None:
        return
    try:
        await commissioners.seen(
            bot.db,
            interaction.guild_id,
            interaction.user.id,
            holds,
            now=now_of(interaction),
            name=interaction.user.display_name,
        )
    except Exception as error:
        log.warning(
            "could not note whether member %s is a commissioner: %s", interaction.user.id, error
        )
