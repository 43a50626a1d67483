"""A keeper brings what a league shows elsewhere in its server (its nights'
events, its division roles) in line with the league, in the background: after
a command that changes it, at start and at every sweep of the scheduler. One
round at a time per server; a round never raises: a refusal is said once in
the log (the status command and the start-up check tell the commissioner),
anything else is logged with its server, and the next round tries again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import aiohttp
import discord

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

log = logging.getLogger(__name__)
Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Keeper:
    what = "what the league shows in its server"  # for the log

    def __init__(self, bot: LeagueClient, *, clock: Clock = _utc_now) -> None:
        self.bot = bot
        self.clock = clock
        self.locks: dict[int, asyncio.Lock] = {}
        self.refused: dict[int, str] = {}  # server -> why it could not be kept
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopped = False

    def soon(self, guild_id: int | None) -> None:
        """Keep the server's, in the background (a command's answer is not held)."""
        if guild_id is None or self.stopped:
            return
        task = asyncio.create_task(self.sync(guild_id), name=f"keep-{guild_id}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def sync(self, guild_id: int) -> None:
        """One round for the server; never raises."""
        async with self.locks.setdefault(guild_id, asyncio.Lock()):
            try:
                await self.keep(guild_id)
            except discord.Forbidden as error:
                self.refuse(guild_id, f"Discord refused: {error.text or error.code}")
            except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
                log.warning("server %d: %s wait for the next round: %s", guild_id, self.what,
                            error)  # fmt: skip
            except Exception:
                log.exception("server %d: %s could not be kept", guild_id, self.what)

    async def stop(self) -> None:
        """No more rounds; one under way is cancelled (the bot is closing)."""
        self.stopped = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def keep(self, guild_id: int) -> None:
        raise NotImplementedError

    def refuse(self, guild_id: int, why: str) -> None:
        if self.refused.get(guild_id) != why:
            log.warning("server %d: %s are not kept: %s", guild_id, self.what, why)
        self.refused[guild_id] = why
