"""What the cogs, their components and the outbox's sender need of the bot,
without importing the bot itself (`bot.client.LeagueBot`, which imports them
all to wire them together): its settings, its database, each server's league
places (`setups`, set with /setup), the outbox's wake-up, each league's
scheduler, the upload queue and the slash commands' sync. `LeagueBot` is the
one subclass; a test's fake bot has the same attributes."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from discord.ext import commands

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.database import Database
    from bot.models import ServerSetup
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


class Keeper(Protocol):
    def soon(self, guild_id: int | None) -> None:
        """Bring what a league shows in its server (its events, its roles) in line, soon."""

    async def stop(self) -> None:
        """No more of it: the bot is closing."""


class LeagueClient(commands.Bot):
    settings: Settings
    outbox: Outbox
    night_events: Keeper  # each league's nights in its server's Events
    division_roles: Keeper  # each league's Division A and B roles
    schedulers: dict[int, LeagueScheduler]  # each league's, by its server's id
    setups: dict[int, ServerSetup]  # each set-up server's league places, by its id
    # Each server's last check of the places its league names (bot.components.places), by name.
    channel_checks: dict[int, dict[str, Any]]  # bot.components.places.ChannelCheck
    uploads: asyncio.Semaphore  # answers that carry a file, a few at a time
    # When a host-wide command (a backup, registering the commands) was last done,
    # by (what, server): one server's commissioner may not repeat it in a loop.
    recent: dict[tuple[str, int], datetime]

    @property
    def db(self) -> Database:
        raise NotImplementedError

    def setup_of(self, guild_id: int | None) -> ServerSetup | None:
        """The league places of server `guild_id`, if a server administrator set them up."""
        return self.setups.get(guild_id) if guild_id is not None else None

    def scheduler_of(self, guild_id: int | None) -> LeagueScheduler | None:
        return self.schedulers.get(guild_id) if guild_id is not None else None

    async def league_set_up(self, setup: ServerSetup) -> None:
        """A server set up (or moved): its places kept, its schedule started."""
        raise NotImplementedError

    async def sync_guild_commands(self) -> int:
        """Register the slash commands with Discord (for every server)."""
        raise NotImplementedError
