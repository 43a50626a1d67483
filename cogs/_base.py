"""What every cog needs: the bot's database, its guild, the time of a request, and
the nudge that has the outbox deliver what a command owed."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import discord

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
