"""What every cog needs: the bot's database, its guild, the time of a request, and
the nudge that has the outbox deliver what a command owed."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.services import commissioners
from bot.ui.approvals import is_commissioner, require_commissioner

if TYPE_CHECKING:
    from bot.client import LeagueBot


def league_bot(interaction: discord.Interaction) -> LeagueBot:
    return interaction.client  # type: ignore[return-value]


def now_of(interaction: discord.Interaction) -> datetime:
    """When the user acted: Discord's own timestamp of the interaction."""
    return interaction.created_at


def deliver(interaction: discord.Interaction) -> None:
    """The command owed messages (written by its service, in its transaction):
    have the outbox's sender deliver them now rather than at its next look."""
    league_bot(interaction).outbox.wake()


async def check_commissioner(interaction: discord.Interaction) -> None:
    """The commissioner role check (raises NotCommissioner). Whoever passes it is
    recorded, so the bot can DM them without the members intent; a recorded
    member seen without the role is forgotten."""
    bot = league_bot(interaction)
    holds = is_commissioner(interaction)
    if interaction.guild_id == bot.settings.guild_id:
        await commissioners.seen(
            bot.db,
            bot.settings.guild_id,
            interaction.user.id,
            holds,
            now=now_of(interaction),
            name=interaction.user.display_name,
        )
    require_commissioner(interaction)
