"""The Discord client: resources opened in `setup_hook`, closed in `close()`."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.config import Settings
from bot.database import Database, migrate
from bot.ui.approvals import DecisionButton
from bot.ui.replies import LeagueTree

log = logging.getLogger(__name__)

COGS = (
    "cogs.attendance",
    "cogs.scores",
    "cogs.vetoes",
    "cogs.standings",
    "cogs.commissioner",
)


class LeagueBot(commands.Bot):
    """The league's bot. Default intents only; mentions are off unless a
    message really must ping."""

    def __init__(self, settings: Settings, *, sync_commands: bool = False) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=LeagueTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.settings = settings
        self.sync_commands = sync_commands
        self._db: Database | None = None
        self.failed_cogs: list[str] = []

    @property
    def db(self) -> Database:
        if self._db is None:
            raise RuntimeError("the database is not open yet")
        return self._db

    @property
    def guild(self) -> discord.Object:
        return discord.Object(id=self.settings.guild_id)

    async def setup_hook(self) -> None:
        path = self.settings.database_path
        version = await migrate(path)
        self._db = await Database.open(path)
        log.info("database %s at schema version %d", path, version)
        for name in COGS:
            try:
                await self.load_extension(name)
            except Exception:
                self.failed_cogs.append(name)
                log.exception("cog %s failed to load; the other commands still work", name)
        self.add_dynamic_items(DecisionButton)
        self.tree.copy_global_to(guild=self.guild)
        if self.sync_commands:
            await self.sync_guild_commands()

    async def sync_guild_commands(self) -> int:
        """Register the slash commands with Discord for the league's server."""
        synced = await self.tree.sync(guild=self.guild)
        log.info("synced %d commands to guild %s", len(synced), self.settings.guild_id)
        return len(synced)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop in reverse order: no new interactions, then the database."""
        await super().close()
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()
        log.info("closed")
