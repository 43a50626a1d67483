"""The league's Discord server set up in the loopback stand-in, and the real
bot run against it: what the demo and the end-to-end tests share."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from bot.client import LeagueBot
from bot.config import Settings, load_settings
from bot.endpoints import point_at, use_gateway_of
from standin import MANAGE_GUILD, DiscordStandIn


@dataclass(frozen=True)
class Stage:
    """A league's server as the stand-in holds it."""

    guild: int
    commissioner_role: int
    general: int
    announcements: int
    approvals: int
    commissioner: int  # Koi, who has the commissioner role (with Manage Server)
    players: dict[str, int]  # name -> member id, in the order they joined

    def names(self) -> dict[int, str]:
        """Member id -> the name a transcript shows."""
        return {self.commissioner: "Koi", **{v: k for k, v in self.players.items()}}


def build_stage(
    standin: DiscordStandIn,
    name: str,
    players: Iterable[str],
    *,
    announcements: str = "league-announcements",
    approvals: str = "score-approvals",
    announcements_open: bool = True,
    guild_id: int | None = None,
) -> Stage:
    """`name`'s server: #general, the announcements and approvals channels (the
    bot may not post in the first with `announcements_open=False`), Koi the
    commissioner and `players`."""
    guild = standin.add_guild(name, guild_id=guild_id)
    role = standin.add_role(guild, "Commissioner", permissions=MANAGE_GUILD)
    general = standin.add_channel(guild, "general")
    posts = standin.add_channel(guild, announcements, bot_can_post=announcements_open)
    approving = standin.add_channel(guild, approvals)
    koi = standin.add_member(guild, "Koi", roles=[role])
    members = {player: standin.add_member(guild, player) for player in players}
    return Stage(guild, role, general, posts, approving, koi, members)


class Places(Protocol):
    """The ids a bot's settings name: a `Stage`, or a test's own server."""

    @property
    def guild(self) -> int: ...
    @property
    def commissioner_role(self) -> int: ...
    @property
    def announcements(self) -> int: ...
    @property
    def approvals(self) -> int: ...


def settings_for(
    standin: DiscordStandIn,
    stage: Places,
    database: Path,
    token: str,
    *,
    backups: Path | None = None,
) -> Settings:
    """The settings (as the bot reads its .env) of a bot for `stage`'s server."""
    return load_settings(
        env={
            "DISCORD_TOKEN": token,
            "LEAGUE_GUILD_ID": str(stage.guild),
            "COMMISSIONER_ROLE_ID": str(stage.commissioner_role),
            "ANNOUNCEMENT_CHANNEL_ID": str(stage.announcements),
            "APPROVALS_CHANNEL_ID": str(stage.approvals),
            "DATABASE_PATH": str(database),
            "DISCORD_API_BASE": standin.api_base,
            "BACKUP_DIR": str(backups or database.parent / "backups"),
        }
    )


@contextlib.asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    sync: bool = True,
    clock: Callable[[], datetime] | None = None,
    standin: DiscordStandIn | None = None,
) -> AsyncIterator[LeagueBot]:
    """The real bot, logged in to the stand-in and READY; closed completely after.

    The stand-in sends every guild at once, so the bot need not wait the usual
    two seconds for more (guild_ready_timeout)."""
    assert settings.api_base is not None
    point_at(settings.api_base)
    bot = LeagueBot(settings, sync_commands=sync, clock=clock, guild_ready_timeout=0.1)
    connecting: asyncio.Task[None] | None = None
    try:
        await bot.login(settings.token.reveal())
        await use_gateway_of(bot)
        connecting = asyncio.create_task(bot.connect(reconnect=True), name="league-bot-connect")
        ready = asyncio.create_task(bot.wait_until_ready())
        finished, _ = await asyncio.wait(
            {connecting, ready}, timeout=15, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in finished:
            ready.cancel()
            await asyncio.gather(ready, return_exceptions=True)
            if connecting in finished:
                connecting.result()
            raise TimeoutError("the bot was not ready within 15 s")
        yield bot
    finally:
        if standin is not None:  # let the bot take every event already sent before it closes
            await standin.drained()
            await asyncio.sleep(0.05)
        await bot.close()
        if connecting is not None:
            try:
                await asyncio.wait_for(connecting, timeout=5)
            except TimeoutError:
                connecting.cancel()
                await asyncio.gather(connecting, return_exceptions=True)
