"""What every cog needs: the bot's database, its guild, the time of a request."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.client import LeagueBot

log = logging.getLogger(__name__)


def league_bot(interaction: discord.Interaction) -> LeagueBot:
    return interaction.client  # type: ignore[return-value]


def now_of(interaction: discord.Interaction) -> datetime:
    """When the user acted: Discord's own timestamp of the interaction."""
    return interaction.created_at


async def post(
    bot: LeagueBot, channel_id: int, content: str, **kwargs: object
) -> discord.Message | None:
    """Post to a configured channel; a failure is logged, never shown to the user."""
    channel = bot.get_channel(channel_id)
    try:
        if channel is None:
            channel = await bot.fetch_channel(channel_id)
        return await channel.send(content, **kwargs)  # type: ignore[union-attr]
    except (discord.HTTPException, AttributeError) as error:
        log.warning("could not post to channel %s: %s", channel_id, error)
        return None
