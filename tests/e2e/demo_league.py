"""The demo's league (bot.demo: Koi and seven players) served by the real bot,
logged in to a fresh loopback Discord on the stand-in's clock: for e2e tests
that play its night with `LeagueNight` (bot.demo_night)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from bot import demo, stage
from bot.client import LeagueBot
from bot.demo_night import LeagueNight
from bot.demo_script import TOKEN
from bot.stage import Stage
from bot.transcript import Transcript
from standin import DiscordStandIn


@dataclass
class DemoLeague:
    standin: DiscordStandIn
    world: Stage
    night: LeagueNight
    bot: LeagueBot


@contextlib.asynccontextmanager
async def demo_league(folder: Path) -> AsyncIterator[DemoLeague]:
    standin = DiscordStandIn(token=TOKEN)
    await standin.start()
    try:
        world = demo.build_world(standin)
        night = LeagueNight(standin, world, Transcript(world.names(), {}, out=None))
        settings = demo.settings_for(standin, world, folder / "league.sqlite3")
        async with stage.running_bot(settings, clock=standin.now) as bot:
            night.bot = bot
            yield DemoLeague(standin, world, night, bot)
    finally:
        await standin.stop()
