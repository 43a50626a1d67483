"""What the cogs, their components and the outbox's sender need of the bot,
without importing the bot itself (`bot.client.LeagueBot`, which imports them
all to wire them together): its settings, its database, the outbox's wake-up,
the scheduler, the upload queue and the slash commands' sync. `LeagueBot` is the
one subclass; a test's fake bot has the same attributes."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.database import Database
    from bot.scheduler import LeagueScheduler


RESCHEDULES = {"reschedules": True}  # a command's `extras`: the schedule follows it


def reschedules(command: object) -> bool:
    """Whether the week's scheduled posts are worked out again after `command`
    (`extras=RESCHEDULES` on it: it changed a date, a time or a setting they
    follow)."""
    extras = getattr(command, "extras", None)
    return isinstance(extras, dict) and extras.get("reschedules") is True


class Outbox(Protocol):
    def wake(self) -> None:
        """Something was owed: deliver it now rather than at the next look."""


class LeagueClient(commands.Bot):
    settings: Settings
    outbox: Outbox
    scheduler: LeagueScheduler | None
    uploads: asyncio.Semaphore  # answers that carry a file, a few at a time

    @property
    def db(self) -> Database:
        raise NotImplementedError

    @property
    def guild(self) -> discord.Object:
        """The league's server."""
        return discord.Object(id=self.settings.guild_id)

    async def sync_guild_commands(self) -> int:
        """Register the slash commands with Discord for the league's server."""
        raise NotImplementedError
