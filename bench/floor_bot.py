"""The framework floor as its own process: a discord.py bot whose only command
replies at once. Started by bench/interactions.py against the stand-in."""

from __future__ import annotations

import os

import discord
from discord import app_commands

from bot.__main__ import point_at
from bot.client import league_intents


class FloorBot(discord.Client):
    def __init__(self, guild: int) -> None:
        super().__init__(intents=league_intents(), guild_ready_timeout=0.1)  # as the bot's
        self.guild = discord.Object(guild)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="ping", guild=self.guild)
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.guild)


def main() -> None:
    point_at(os.environ["DISCORD_API_BASE"])
    FloorBot(int(os.environ["LEAGUE_GUILD_ID"])).run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
