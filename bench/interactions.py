"""How fast the real bot answers, measured through the loopback Discord stand-in.

Prints one table (the format is kept stable so runs can be compared):
- the framework floor: a minimal discord.py bot whose one command replies at
  once, on the same stand-in; and the storage floor: one aiosqlite INSERT +
  COMMIT on a WAL file set up like ours;
- acknowledgement latency (INTERACTION_CREATE sent -> first callback received)
  of /score, /standings, /late and an Approve click, p50 / p99, idle and while
  50 /score submissions are in flight, with the ratio to the floor measured
  the same way (the 50 against its 50, the probes sent after them against
  its probes sent after its 50);
- the whole /score (interaction -> filled-in reply and approval post) against
  framework floor + storage floor;
- cold start to READY and resident memory of `league-bot run` (its own
  process) with a 300-player league loaded.

The bots (floor and league) run as their own processes, as they would in
production; the stand-in runs in this one. Run: `python -m bench.interactions`
(about 15 s). Not part of the tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import aiosqlite
import discord

from bench import league_scale
from bot.database import Database, migrate
from bot.services import picks, setup
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
    def __init__(self, standin: DiscordStandIn) -> None:
        self.guild = standin.add_guild("Bench League")
        self.role = standin.add_role(self.guild, "Commissioner", permissions=MANAGE_GUILD)
        self.general = standin.add_channel(self.guild, "general")
        self.announcements = standin.add_channel(self.guild, "announcements")
        self.approvals = standin.add_channel(self.guild, "approvals")
        self.koi = standin.add_member(self.guild, "Koi", roles=[self.role])
        self.players = [standin.add_member(self.guild, f"P{n}") for n in range(1, PLAYERS + 1)]

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
    standin: DiscordStandIn, calls: list[Callable[[], Awaitable[Exchange]]]
) -> list[Exchange]:
    """Run the calls together and wait for their answers. With one call, the
    bot first finishes what the previous one left running (posts, the
    approval's message id), so an idle sample is idle."""
    if len(calls) == 1:
        await exchange_quiet(standin)
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


# -- bots in their own processes ---------------------------------------------------
@contextlib.asynccontextmanager
async def bot_process(
    standin: DiscordStandIn, world: World, module: list[str], env: dict[str, str], command: str
) -> AsyncIterator[None]:
    """A bot as its own process (its own event loop and core), ready once the
    stand-in has seen it register `command`."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", *module, env={**os.environ, **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(3000):
            names = {c["name"] for c in standin.registered_commands(world.guild)}
            if command in names and standin.gateway.connected:
                break
            await asyncio.sleep(0.01)
        else:
            raise TimeoutError(f"{module} never registered /{command}")
        await asyncio.sleep(0.3)  # let it finish starting (guilds, scheduler)
        yield
    finally:
        process.terminate()
        await process.wait()


# -- the framework floor -------------------------------------------------------
async def framework_floor(
    standin: DiscordStandIn, world: World, folder: Path
) -> tuple[list[float], list[float], list[float]]:
    """A discord.py bot whose only command replies at once: idle; 50 at a time;
    and probes sent right after those 50, as the league bot's probes are."""
    env = world.env(standin, folder / "unused.sqlite3")
    async with bot_process(standin, world, ["bench.floor_bot"], env, "ping"):
        invoke = lambda: standin.invoke(world.players[0], "ping", {}, channel_id=world.general)  # noqa: E731
        idle = []
        for _ in range(IDLE_SAMPLES):
            idle.extend(ack(e) for e in await timed(standin, [invoke]))
        loaded, probes = [], []
        for round_number in range(ROUNDS + 1):
            burst = [ack(e) for e in await timed(standin, [invoke] * (LOAD + PROBES))]
            if round_number == 0:
                continue  # warm-up
            loaded.extend(burst[:LOAD])
            probes.extend(burst[LOAD:])
    return idle, loaded, probes


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
            await setup.add_player(
                db, world.guild, f"P{n}", discord_id=member, skill=1 + n % 10, now=now
            )
        for n in range(6):
            await setup.add_machine(db, world.guild, f"Machine {n}", par=10**9, now=now)
        await picks.lock_picks(db, world.guild, now=datetime(2026, 1, 7, 19, 15, tzinfo=ZONE))
    finally:
        await db.close()


async def league_bot(standin: DiscordStandIn, world: World, folder: Path) -> dict[str, list[float]]:
    database = folder / "league.sqlite3"
    await seed(database, world)
    standin.set_time(datetime(2026, 1, 7, 20, 0, tzinfo=ZONE))
    figures: dict[str, list[float]] = {}
    players = iter(world.players)
    env = world.env(standin, database)

    def run(
        member: int, command: str, options: dict[str, Any] | None = None
    ) -> Callable[[], Awaitable[Exchange]]:
        return lambda: standin.invoke(member, command, options or {}, channel_id=world.general)

    run_bot = ["bot", "run", "--sync", "--env-file", str(folder / "none.env")]
    async with bot_process(standin, world, run_bot, env, "score"):
        score_calls = []
        for _ in range(IDLE_SAMPLES // 5):
            member = next(players)
            score_calls += [
                run(member, "score", {"game": g, "score": f"{g}{member % 1000}k"})
                for g in range(1, 6)
            ]
        idle_scores, whole = [], []
        approval_posts = f"/channels/{world.approvals}/messages"

        def posts() -> list[float]:
            return [
                r.at
                for r in standin.requests
                if r.method == "POST" and r.path.endswith(approval_posts)
            ]

        for call in score_calls:
            before = len(posts())
            (exchange,) = await timed(standin, [call])
            idle_scores.append(ack(exchange))
            for _ in range(2000):
                if len(posts()) > before:
                    break
                await asyncio.sleep(0.001)
            assert exchange.filled_at is not None
            whole.append(max(exchange.filled_at, posts()[-1]) - exchange.created_at)
        figures["/score idle"] = idle_scores
        figures["/score whole"] = whole
        figures["/standings idle"] = [
            ack(e)
            for _ in range(IDLE_SAMPLES // 2)
            for e in await timed(standin, [run(world.players[0], "standings")])
        ]
        figures["/late idle"] = [
            ack(e)
            for n in range(IDLE_SAMPLES // 2)
            for e in await timed(standin, [run(world.players[n], "late", {"minutes": 5})])
        ]
        approve = []
        for message in [
            m for m in standin.channel_messages(world.approvals) if m.get("components")
        ][: IDLE_SAMPLES // 2]:
            custom = message["components"][0]["components"][0]["custom_id"]
            approve.extend(
                ack(e)
                for e in await timed(
                    standin, [lambda m=message, c=custom: standin.click(world.koi, int(m["id"]), c)]
                )
            )
        figures["Approve idle"] = approve
        await asyncio.sleep(0.5)  # the approved messages' edits land after the acknowledgement

        loaded: dict[str, list[float]] = {
            k: [] for k in ("/score", "/standings", "/late", "Approve")
        }
        pending = [m for m in standin.channel_messages(world.approvals) if m.get("components")]
        for round_number in range(ROUNDS + 1):
            members = [next(players) for _ in range(LOAD // 5)]
            submissions = [
                run(m, "score", {"game": g, "score": f"{g}{m % 1000}k"})
                for m in members
                for g in range(1, 6)
            ]
            probes = [run(world.players[0], "standings")] * 5 + [
                run(world.players[n], "late", {"minutes": 10}) for n in range(5)
            ]
            clicks = []
            for message in pending[round_number * 5 : (round_number + 1) * 5]:
                custom = message["components"][0]["components"][0]["custom_id"]
                clicks.append(lambda m=message, c=custom: standin.click(world.koi, int(m["id"]), c))
            assert len(probes) + len(clicks) == PROBES, "not enough pending approvals to click"
            exchanges = await timed(standin, submissions + probes + clicks)
            if round_number == 0:
                continue  # warm-up, as for the floor
            for exchange in exchanges:
                key = {"score": "/score", "standings": "/standings", "late": "/late"}.get(
                    exchange.name, "Approve"
                )
                loaded[key].append(ack(exchange))
        for key, values in loaded.items():
            figures[f"{key} with {LOAD} in flight"] = values
    return figures


# -- a separate bot process ------------------------------------------------------------
async def process_figures(
    standin: DiscordStandIn, world: World, folder: Path
) -> tuple[float, float]:
    """Cold start to READY and resident memory of `league-bot run` with 300 players."""
    database = folder / "big.sqlite3"
    await migrate(database)
    db = await Database.open(database)
    try:
        await league_scale.build(db, 300)
        from bot.services import finalize

        for week in (1, 2, 3):
            await league_scale.seed_scores(db, week)
            day = league_scale.START + timedelta(weeks=week - 1)
            await finalize.finalize(db, league_scale.GUILD, by=1, now=league_scale.at(day, "23:00"))
    finally:
        await db.close()
    env = {**os.environ, **world.env(standin, database), "LEAGUE_GUILD_ID": str(world.guild)}
    # The 300-player league belongs to guild 1 in league_scale; move it to the stand-in's guild.
    async with aiosqlite.connect(database) as conn:
        await conn.execute("UPDATE leagues SET guild_id = ?", (world.guild,))
        await conn.commit()
    before = standin.gateway.identifies
    started = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        "--env-file",
        str(folder / "none.env"),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        await wait_for_identify(standin, before)
        exchange = await standin.invoke(world.players[0], "standings", {}, channel_id=world.general)
        await exchange.done(timeout=30, quiet=0.0)
        cold = time.perf_counter() - started
        status = await asyncio.to_thread(Path(f"/proc/{process.pid}/status").read_text)
        rss_kb = int(
            next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS"))
        )
    finally:
        process.terminate()
        await process.wait()
    return cold, rss_kb / 1024


async def wait_for_identify(standin: DiscordStandIn, before: int) -> None:
    """Until the bot process has identified on the gateway (polling, bounded)."""
    for _ in range(6000):
        if standin.gateway.identifies > before:
            return
        await asyncio.sleep(0.005)
    raise TimeoutError("the bot process never connected")


async def main() -> None:
    # The stand-in plays Discord in this process and keeps every request and
    # message; its full garbage collections (seen as a whole slow burst, ~50-100
    # ms) are not the bots' doing. The bots, in their own processes, keep theirs.
    gc.disable()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        async with DiscordStandIn(token=TOKEN) as standin:
            world = World(standin)
            floor_idle, floor_loaded, floor_probes = await framework_floor(standin, world, folder)
            storage = await storage_floor(folder)
            figures = await league_bot(standin, world, folder)
            cold, rss = await process_figures(standin, world, folder)
    floor_p50, load_p50 = ms(pct(floor_idle, 0.5)), ms(pct(floor_loaded, 0.5))
    probe_p50 = ms(pct(floor_probes, 0.5))
    store = ms(statistics.median(storage))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, discord.py {discord.__version__}, "
        f"SQLite {aiosqlite.sqlite_version}"
    )
    print(f"{'measure':<36} {'p50 ms':>8} {'p99 ms':>8} {'p50/floor':>9} {'samples':>7}")
    row("framework floor idle", floor_idle, 1.0)
    row(f"framework floor, {LOAD} in flight", floor_loaded, 1.0)
    row(f"framework floor, probes after {LOAD} [2]", floor_probes, 1.0)
    row("storage floor (INSERT+COMMIT)", storage, None)
    for name, values in figures.items():
        if name != "/score whole":
            base = floor_p50
            if "in flight" in name:  # the 50 /score against the floor's 50, probes against probes
                base = load_p50 if name.startswith("/score") else probe_p50
            row(f"{name} ack", values, ms(pct(values, 0.5)) / base)
    whole = figures["/score whole"]
    row("/score whole (reply + post) [1]", whole, ms(pct(whole, 0.5)) / (floor_p50 + store))
    print(f"{'cold start to READY + first answer':<36} {ms(cold):>8.0f}")
    print(f"{'resident memory, 300 players (MB)':<36} {rss:>8.1f}")
    print("[1] its ratio is to framework floor + storage floor")
    print(f"[2] {PROBES} more sent right after the {LOAD}, as the bot's /standings, /late"
          " and Approve probes are")  # fmt: skip


def row(name: str, values: list[float], ratio: float | None) -> None:
    shown = f"{ratio:>9.2f}" if ratio is not None else f"{'':>9}"
    p50, p99 = ms(pct(values, 0.5)), ms(pct(values, 0.99))
    print(f"{name:<36} {p50:>8.2f} {p99:>8.2f} {shown} {len(values):>7}")


if __name__ == "__main__":
    asyncio.run(main())
