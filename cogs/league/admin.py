"""/league admin …: backups and registering the slash commands."""

from __future__ import annotations

import asyncio

from discord import Interaction, app_commands

from bot.services import backup
from bot.ui.replies import respond
from cogs._base import now_of
from cogs.league._common import LeagueCommands


class AdminCommands(LeagueCommands):
    """Backups and registering the slash commands."""

    admin = app_commands.Group(name="admin", description="Backups and command registration")

    @admin.command(name="backup")
    async def backup(self, interaction: Interaction) -> None:
        """Write a consistent copy of the league's database."""
        bot, _ = await self._ack(interaction)
        folder = bot.settings.backup_dir
        await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
        path = await backup.backup(bot.db, folder, now=now_of(interaction))
        await respond(interaction, f"Backed up to {path.name}.")

    @admin.command(name="sync")
    async def sync(self, interaction: Interaction) -> None:
        """Register the slash commands with Discord for this server."""
        bot, _ = await self._ack(interaction)
        count = await bot.sync_guild_commands()
        await respond(interaction, f"Synced {count} commands.")
