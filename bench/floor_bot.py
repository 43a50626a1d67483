"""The framework floor as its own process: a discord.py bot whose command
replies at once; for comparison, one that defers first as the league bot does;
and, for clicks, one button that acknowledges at once.
Started by bench/interactions.py against the stand-in."""

from __future__ import annotations

import os
import re
from typing import Any

import discord
from discord import app_commands

from bot.client import league_intents
from bot.endpoints import point_at, use_gateway_of

# As long as a score waiting for approval, so a click carries a message like Approve's.
POSTED = "Week 1 · Group 1 · Game 1 · Machine 0\n**P1**: 1,001,000\nWaiting for the commissioner."


class FloorButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"floor:(?P<n>[0-9]+)"):
    """A button that survives a restart, as the league's Approve does; it only acknowledges."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="OK", custom_id=f"floor:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FloorButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()


class FloorBot(discord.Client):
    def __init__(self, guild: int) -> None:
        super().__init__(intents=league_intents(), guild_ready_timeout=0.1)  # as the bot's
        self.guild = discord.Object(guild)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="ping", guild=self.guild)
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        @self.tree.command(name="later", guild=self.guild)
        async def later(interaction: discord.Interaction) -> None:
            # Acknowledged as the league bot acknowledges, then answered.
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("pong", ephemeral=True)

        @self.tree.command(name="post", guild=self.guild)
        async def post(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(FloorButton(1))
            view.add_item(FloorButton(2))
            await interaction.response.send_message(POSTED, view=view)

    async def setup_hook(self) -> None:
        await use_gateway_of(self)
        self.add_dynamic_items(FloorButton)
        await self.tree.sync(guild=self.guild)


def main() -> None:
    point_at(os.environ["DISCORD_API_BASE"])
    FloorBot(int(os.environ["LEAGUE_GUILD_ID"])).run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
