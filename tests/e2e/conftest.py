"""Fixtures: the stand-in, the league's server in it, settings, the running bot.

`point_at` mutates two discord.py globals (Route.BASE and the default gateway);
every test gets them back as they were. The bot is closed, its connect task
finished and the stand-in stopped before the test's loop ends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest

from bot.client import LeagueBot
from bot.config import Settings
from bot.migrate import migrate
from bot.stage import settings_for
from standin import DiscordStandIn, Limits
from tests.e2e.harness import TOKEN, World, build_world, running_bot


@pytest.fixture(autouse=True)
def discord_globals() -> Iterator[None]:
    """Undo `point_at` after the test."""
    route_base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        yield
    finally:
        discord.http.Route.BASE = route_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


@pytest.fixture
async def standin(discord_globals: None) -> AsyncIterator[DiscordStandIn]:
    async with DiscordStandIn(token=TOKEN, limits=Limits()) as running:  # Discord's rate limits
        yield running


@pytest.fixture
def world(standin: DiscordStandIn) -> World:
    return build_world(standin)


@pytest.fixture
def settings(standin: DiscordStandIn, world: World, tmp_path: Path) -> Settings:
    return settings_for(standin, world, tmp_path / "league.sqlite3", TOKEN)


@pytest.fixture
async def bot(settings: Settings) -> AsyncIterator[LeagueBot]:
    await migrate(settings.database_path)
    async with running_bot(settings) as running:
        yield running
