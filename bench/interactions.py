"""How fast the real bot answers, measured through the loopback Discord stand-in.

Prints one table (the format is kept stable so runs can be compared):
- the framework floor: a minimal discord.py bot whose command replies at once
  (and whose one button acknowledges at once), on a stand-in of its own; and
  the storage floor: one aiosqlite INSERT + COMMIT on a WAL file set up like ours;
- acknowledgement latency (INTERACTION_CREATE sent -> first callback received)
  of /score, /standings, /late and an Approve click, p50 / p99, idle and while
  50 /score submissions are in flight, with the ratio to the floor. The floor
  runs beside the league bot and is sampled alternately with it (an idle
  sample of each in turn; a burst of each in turn), because this machine's
  latency drifts over a run. Under load the bot's 50 are compared with the
  floor's 50 and its probes, sent right after the 50, with the floor's probes
  sent the same way;
- the whole /score (interaction -> filled-in reply and approval post) against
  framework floor + storage floor;
- cold start to READY and resident memory of `league-bot run` (its own
  process) with a 300-player league loaded.

The bots (floor and league) run as their own processes, as they would in
production; the stand-ins run in this one. Run: `python -m bench` (every
benchmark) or `python -m bench.interactions` (about 20 s; `--quick` for a
smoke run of fewer idle samples, every round under load kept). Not part of the tests.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import discord

from bench import league_scale
from bench.world import (
    IDLE_SAMPLES,
    LOAD,
    PROBES,
    ROUNDS,
    TOKEN,
    ZONE,
    Floor,
    Samples,
    World,
    ack,
    bot_process,
    ms,
    pct,
    seed,
    stop,
    storage_floor,
    timed,
)
from bot.database import Database
from bot.migrate import migrate
from standin import DiscordStandIn, Exchange


async def league_bot(
    standin: DiscordStandIn, world: World, folder: Path, floor: Floor
) -> tuple[Samples, Samples]:
    """The league bot's figures, and for each the floor's samples taken
    alternately with it (an idle floor sample before each idle bot sample; a
    floor burst before each bot burst)."""
    database = folder / "league.sqlite3"
    await seed(database, world)
    standin.set_time(datetime(2026, 1, 7, 20, 0, tzinfo=ZONE))
    figures: Samples = {}
    floors: Samples = {}
    players = iter(world.players)
    env = world.env(standin, database)
    both = (standin, floor.standin)

    def run(
        member: int, command: str, options: dict[str, Any] | None = None
    ) -> Callable[[], Awaitable[Exchange]]:
        return lambda: standin.invoke(member, command, options or {}, channel_id=world.general)

    async def idle(name: str, calls: list[Callable[[], Awaitable[Exchange]]], click: bool = False):
        bot, base = figures.setdefault(name, []), floors.setdefault(name, [])
        exchanges = []
        for call in calls:
            base.append(await (floor.idle_click if click else floor.idle_ping)(standin))
            (exchange,) = await timed(standin, [call], also_quiet=both)
            bot.append(ack(exchange))
            exchanges.append(exchange)
        return exchanges

    (folder / "none.env").write_text("")  # an empty settings file: all comes from env
    run_bot = ["bot", "run", "--sync", "--env-file", str(folder / "none.env")]
    async with bot_process(standin, world, run_bot, env, "score"):
        approval_posts = f"/channels/{world.approvals}/messages"

        def posts() -> list[float]:
            """The card's post or edit that shows a score (one card per group)."""
            return [
                r.at
                for r in standin.requests
                if (r.method == "POST" and r.path.endswith(approval_posts))
                or (r.method == "PATCH" and approval_posts + "/" in r.path)
            ]

        whole = figures["/score whole"] = []
        for _ in range(IDLE_SAMPLES // 5):
            member = next(players)
            for g in range(1, 6):
                before = len(posts())
                call = run(member, "score", {"game": g, "score": f"{g}{member % 1000}k"})
                (exchange,) = await idle("/score idle", [call])
                for _ in range(2000):
                    if len(posts()) > before:
                        break
                    await asyncio.sleep(0.001)
                assert exchange.filled_at is not None
                whole.append(max(exchange.filled_at, posts()[-1]) - exchange.created_at)
        floors["/score whole"] = floors["/score idle"]
        await idle("/standings idle", [run(world.players[0], "standings")] * (IDLE_SAMPLES // 2))
        await idle(
            "/late idle",
            [run(world.players[n], "late", {"minutes": 5}) for n in range(IDLE_SAMPLES // 2)],
        )
        await idle("Approve idle", approve_clicks(standin, world, IDLE_SAMPLES // 2), click=True)
        await asyncio.sleep(0.5)  # the approved messages' edits land after the acknowledgement

        kinds = ("/score", "/standings", "/late", "Approve")
        loaded: Samples = {k: [] for k in kinds}
        floor_loaded: list[float] = []
        floor_probes: list[float] = []
        deferring: list[float] = []
        for round_number in range(ROUNDS + 1):
            floor_burst, floor_after = await floor.burst(standin)
            deferring_after = (await floor.burst(standin, deferring=True))[1]
            members = [next(players) for _ in range(LOAD // 5)]
            submissions = [
                run(m, "score", {"game": g, "score": f"{g}{m % 1000}k"})
                for m in members
                for g in range(1, 6)
            ]
            probes = [run(world.players[0], "standings")] * 5 + [
                run(world.players[n], "late", {"minutes": 10}) for n in range(5)
            ]
            clicks = approve_clicks(standin, world, 5)
            assert len(probes) + len(clicks) == PROBES
            exchanges = await timed(standin, submissions + probes + clicks, also_quiet=both)
            if round_number == 0:
                continue  # warm-up: new connections, for both
            floor_loaded.extend(floor_burst)
            floor_probes.extend(floor_after)
            deferring.extend(deferring_after)
            for exchange in exchanges:
                key = {"score": "/score", "standings": "/standings", "late": "/late"}.get(
                    exchange.name, "Approve"
                )
                loaded[key].append(ack(exchange))
        for key, values in loaded.items():
            figures[f"{key} with {LOAD} in flight"] = values
            floors[f"{key} with {LOAD} in flight"] = (
                floor_loaded if key == "/score" else floor_probes
            )
        floors["deferring probes"] = deferring
    return figures, floors


def approve_clicks(
    standin: DiscordStandIn, world: World, count: int
) -> list[Callable[[], Awaitable[Exchange]]]:
    """`count` clicks on "Approve all complete" (a card's first button), the cards
    that have buttons now taken in turn. A card is edited in place as scores
    arrive and decisions land (an approved card loses its buttons), so the
    cards are looked at when the clicks are made, never from an older list."""
    cards = [
        m for m in standin.channel_messages(world.approvals)
        if m.get("components") and m["components"][0].get("components")
    ]  # fmt: skip
    if not cards:
        raise RuntimeError("no scorecard with buttons to click in the approvals channel")
    clicks: list[Callable[[], Awaitable[Exchange]]] = []
    for message in (cards[n % len(cards)] for n in range(count)):
        custom = message["components"][0]["components"][0]["custom_id"]
        clicks.append(functools.partial(standin.click, world.koi, int(message["id"]), custom))
    return clicks


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
    (folder / "none.env").write_text("")  # an empty settings file: all comes from env
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
        await stop(process)
    return cold, rss_kb / 1024


async def wait_for_identify(standin: DiscordStandIn, before: int) -> None:
    """Until the bot process has identified on the gateway (polling, bounded)."""
    for _ in range(6000):
        if standin.gateway.identifies > before:
            return
        await asyncio.sleep(0.005)
    raise TimeoutError("the bot process never connected")


async def main() -> None:
    # The stand-ins play Discord in this process and keep every request and
    # message; their full garbage collections (seen as a whole slow burst, ~50-100
    # ms) are not the bots' doing. The bots, in their own processes, keep theirs.
    gc.disable()
    try:
        await measure_and_print()
    finally:
        gc.enable()  # whatever runs next in this process (bench.league_scale) has it
        gc.collect()


async def measure_and_print() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        async with DiscordStandIn(token=TOKEN) as standin, DiscordStandIn(token=TOKEN) as other:
            world, floor_world = World(standin), World(other)
            storage = await storage_floor(folder)
            floor_env = floor_world.env(other, folder / "unused.sqlite3")
            async with bot_process(other, floor_world, ["bench.floor_bot"], floor_env, "ping"):
                floor = Floor(other, floor_world)
                figures, floors = await league_bot(standin, world, folder, floor)
            cold, rss = await process_figures(standin, world, folder)
    store = ms(statistics.median(storage))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, discord.py {discord.__version__}, "
        f"SQLite {aiosqlite.sqlite_version}"
    )
    print(f"{'measure':<36} {'p50 ms':>8} {'p99 ms':>8} {'p50/floor':>9} {'samples':>7}")
    idle_pings = [v for k in ("/score idle", "/standings idle", "/late idle") for v in floors[k]]
    row("framework floor idle", idle_pings, 1.0)
    row("framework floor, button click [2]", floors["Approve idle"], 1.0)
    row(f"framework floor, {LOAD} in flight", floors[f"/score with {LOAD} in flight"], 1.0)
    row(f"framework floor, probes after {LOAD} [3]", floors[f"/late with {LOAD} in flight"], 1.0)
    row(f"floor deferring, probes after {LOAD} [3]", floors["deferring probes"], None)
    row("storage floor (INSERT+COMMIT)", storage, None)
    for name, values in figures.items():
        base = ms(pct(floors[name], 0.5))
        if name == "/score whole":
            continue
        row(f"{name} ack", values, ms(pct(values, 0.5)) / base)
    whole, base = figures["/score whole"], ms(pct(floors["/score whole"], 0.5))
    row("/score whole (reply + post) [4]", whole, ms(pct(whole, 0.5)) / (base + store))
    print(f"{'cold start to READY + first answer':<36} {ms(cold):>8.0f}")
    print(f"{'resident memory, 300 players (MB)':<36} {rss:>8.1f}")
    print("[1] each ratio is to the floor's samples taken alternately with the bot's")
    print("[2] the floor for Approve: discord.py parses a clicked message before any handler")
    print(f"[3] {PROBES} more sent right after the {LOAD}, as the bot's /standings, /late and"
          " Approve are;\n    the deferring floor acknowledges as the bot does"
          " (defer, then answer)")  # fmt: skip
    deferred = ms(pct(floors["deferring probes"], 0.5))
    ratios = ", ".join(
        f"{key} {ms(pct(figures[f'{key} with {LOAD} in flight'], 0.5)) / deferred:.2f}"
        for key in ("/standings", "/late", "Approve")
    )
    print(f"    against the deferring floor, with {LOAD} in flight: {ratios}")
    print("[4] its ratio is to framework floor + storage floor")


def row(name: str, values: list[float], ratio: float | None) -> None:
    shown = f"{ratio:>9.2f}" if ratio is not None else f"{'':>9}"
    p50, p99 = ms(pct(values, 0.5)), ms(pct(values, 0.99))
    print(f"{name:<36} {p50:>8.2f} {p99:>8.2f} {shown} {len(values):>7}")


def quick() -> None:
    """A smoke run: the same table from fewer idle samples. Every round under load
    is kept, as the full run plays them: the scorecards change from round to round,
    and a smoke run must meet what the full run meets."""
    global IDLE_SAMPLES
    IDLE_SAMPLES = 20


if __name__ == "__main__":
    if "--quick" in sys.argv[1:]:
        quick()
    asyncio.run(main())
