"""What the interaction benchmarks share: the league they seed, the bot
processes they start, the framework and storage floors, and how figures are
taken (milliseconds, percentiles, acknowledgement times)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import aiosqlite

from bot.database import Database
from bot.migrate import migrate
from bot.services import machine_list, membership, picks, setup
from standin import MANAGE_GUILD, DiscordStandIn, Exchange

TOKEN = "bench-token.not-a-secret.0123456789abcdef"
ZONE = ZoneInfo("America/New_York")
NIGHT = date(2026, 1, 7)
PLAYERS = 120
IDLE_SAMPLES = 100
LOAD = 50  # concurrent /score submissions
PROBES = 15  # sent right after them: 5 /standings, 5 /late, 5 Approve clicks
ROUNDS = 8  # after one warm-up round (new connections), not counted


def ms(seconds: float) -> float:
    return seconds * 1000


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ack(exchange: Exchange) -> float:
    assert exchange.acknowledged_at is not None, exchange.errors
    return exchange.acknowledged_at - exchange.created_at


class World:
    def __init__(self, standin: DiscordStandIn, players: int | None = None) -> None:
        self.guild = standin.add_guild("Bench League")
        self.role = standin.add_role(self.guild, "Commissioner", permissions=MANAGE_GUILD)
        self.general = standin.add_channel(self.guild, "general")
        self.announcements = standin.add_channel(self.guild, "announcements")
        self.approvals = standin.add_channel(self.guild, "approvals")
        self.koi = standin.add_member(self.guild, "Koi", roles=[self.role])
        count = PLAYERS if players is None else players
        self.players = [standin.add_member(self.guild, f"P{n}") for n in range(1, count + 1)]

    def env(self, standin: DiscordStandIn, database: Path) -> dict[str, str]:
        return {
            "DISCORD_TOKEN": TOKEN,
            "LEAGUE_GUILD_ID": str(self.guild),
            "COMMISSIONER_ROLE_ID": str(self.role),
            "ANNOUNCEMENT_CHANNEL_ID": str(self.announcements),
            "APPROVALS_CHANNEL_ID": str(self.approvals),
            "DATABASE_PATH": str(database),
            "DISCORD_API_BASE": standin.api_base,
            "LOG_LEVEL": "WARNING",
        }


async def timed(
    standin: DiscordStandIn,
    calls: list[Callable[[], Awaitable[Exchange]]],
    also_quiet: tuple[DiscordStandIn, ...] = (),
) -> list[Exchange]:
    """Run the calls together and wait for their answers. First the bots
    finish what the previous calls left running (posts, the approval's message
    id), so an idle sample is idle and a burst starts from quiet."""
    for each in (standin, *also_quiet):
        await exchange_quiet(each)
    exchanges = await asyncio.gather(*(call() for call in calls))
    for exchange in exchanges:
        await exchange.done(timeout=30, quiet=0.0)
    return list(exchanges)


async def exchange_quiet(standin: DiscordStandIn, quiet: float = 0.02) -> None:
    """Until no request has reached the stand-in for `quiet` seconds (bounded)."""
    loop = asyncio.get_running_loop()
    for _ in range(500):
        last = standin.requests[-1].at if standin.requests else 0.0
        if loop.time() - last >= quiet:
            return
        await asyncio.sleep(quiet / 2)


async def stop(process: asyncio.subprocess.Process) -> None:
    """Terminate a bot process; kill it if it has not stopped within 10 s."""
    if process.returncode is None:
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), 10)
    except TimeoutError:
        process.kill()
        await process.wait()


# -- bots in their own processes ---------------------------------------------------
@contextlib.asynccontextmanager
async def bot_process(
    standin: DiscordStandIn, world: World, module: list[str], env: dict[str, str], command: str
) -> AsyncIterator[asyncio.subprocess.Process]:
    """A bot as its own process (its own event loop and core), ready once the
    stand-in has seen it register `command`."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", *module, env={**os.environ, **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(3000):
            registered = standin.registered_commands(world.guild) + standin.registered_commands()
            names = {c["name"] for c in registered}  # a guild's commands, or every server's
            if command in names and standin.gateway.connected:
                break
            await asyncio.sleep(0.01)
        else:
            raise TimeoutError(f"{module} never registered /{command}")
        await asyncio.sleep(0.3)  # let it finish starting (guilds, scheduler)
        yield process
    finally:
        await stop(process)


# -- the framework floor -------------------------------------------------------
class Floor:
    """A discord.py bot whose only command replies at once, and whose one button
    only acknowledges, on its own stand-in. It runs beside the league bot and is
    sampled alternately with it, so both see the machine in the same state (an
    idle 2-core machine's latency drifts by ~2x over a minute)."""

    def __init__(self, standin: DiscordStandIn, world: World) -> None:
        self.standin, self.world = standin, world
        self.posted: dict[str, Any] | None = None

    def ping(self) -> Awaitable[Exchange]:
        return self.standin.invoke(self.world.players[0], "ping", {}, channel_id=self.world.general)

    def later(self) -> Awaitable[Exchange]:
        member, channel = self.world.players[0], self.world.general
        return self.standin.invoke(member, "later", {}, channel_id=channel)

    async def idle_ping(self, *others: DiscordStandIn) -> float:
        (exchange,) = await timed(self.standin, [self.ping], also_quiet=others)
        return ack(exchange)

    async def idle_click(self, *others: DiscordStandIn) -> float:
        """A click on a message like an approval post: discord.py parses the
        clicked message before any handler runs, which a command does not pay."""
        if self.posted is None:
            post = lambda: self.standin.invoke(  # noqa: E731
                self.world.koi, "post", {}, channel_id=self.world.general
            )
            await timed(self.standin, [post])
            (self.posted,) = [
                m for m in self.standin.channel_messages(self.world.general) if m.get("components")
            ]
        message_id = int(self.posted["id"])
        click = lambda: self.standin.click(self.world.koi, message_id, "floor:1")  # noqa: E731
        (exchange,) = await timed(self.standin, [click], also_quiet=others)
        return ack(exchange)

    async def burst(
        self, *others: DiscordStandIn, deferring: bool = False
    ) -> tuple[list[float], list[float]]:
        """50 pings at once and 15 more right after them, as the bot's burst
        (`deferring`: each deferred, then answered, as the bot acknowledges)."""
        calls = [self.later if deferring else self.ping] * (LOAD + PROBES)
        burst = [ack(e) for e in await timed(self.standin, calls, also_quiet=others)]
        return burst[:LOAD], burst[LOAD:]


async def storage_floor(folder: Path) -> list[float]:
    """One INSERT + COMMIT on a WAL file with our pragmas, through aiosqlite."""
    conn = await aiosqlite.connect(folder / "floor.sqlite3", isolation_level=None)
    for pragma in (
        "journal_mode = WAL",
        "synchronous = NORMAL",
        "foreign_keys = ON",
        "busy_timeout = 5000",
    ):
        await conn.execute(f"PRAGMA {pragma}")
    await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
    times = []
    for n in range(500):
        started = time.perf_counter()
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute("INSERT INTO t (v) VALUES (?)", (n,))
        await conn.execute("COMMIT")
        times.append(time.perf_counter() - started)
    await conn.close()
    return times


# -- the league bot --------------------------------------------------------------
async def seed(database: Path, world: World) -> None:
    await migrate(database)
    db = await Database.open(database)
    now = datetime(2026, 1, 1, 10, tzinfo=ZONE)
    try:
        await setup.create_league(db, world.guild, "Bench League", now=now)
        await setup.start_season(db, world.guild, "Bench", NIGHT, now=now)
        for n, member in enumerate(world.players, start=1):
            await membership.add_player(
                db, world.guild, f"P{n}", discord_id=member, skill=1 + n % 10, now=now
            )
        for n in range(6):
            await machine_list.add_machine(db, world.guild, f"Machine {n}", par=10**9, now=now)
        await picks.lock_picks(db, world.guild, now=datetime(2026, 1, 7, 19, 15, tzinfo=ZONE))
    finally:
        await db.close()


Samples = dict[str, list[float]]
