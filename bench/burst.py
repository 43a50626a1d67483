"""A true burst: 2,000 interactions at once from 60 players, mid-night.

The league (60 players, groups made, picks locked at 19:15, some scores in) is
asked 2,000 things in the same instant, in a seeded shuffle of the night's mix:
40% `/score`, 20% `/standings`, 15% `/me`, 15% `/groups`, 10% `/late`. The
real bot runs as its own process against the stand-in, with Discord's rate
limits (`Limits()`) and the 3 s first-response deadline on. The framework
floor (`bench.floor_bot`, a discord.py bot whose `/ping` replies at once) gets
the same 2,000 from the same members on a stand-in of its own, once before and
once after the bot, in the same run; its p99 is taken over both.

Prints one table (the format is kept stable so runs can be compared): per
command and overall, how many were acknowledged within 3 s, acknowledgement
p50 / p95 / p99 (">3000" where the deadline was missed), and p99 over the
floor's; then the bot's resident memory (VmRSS) before the burst, at its peak
(VmHWM, reset just before the burst) and `SETTLE` seconds after the last answer,
with the floor's for comparison.

`BENCH_PROFILE=DIR` runs the bot under cProfile and leaves `DIR/burst.prof`.
Run: `python -m bench` (every benchmark) or `python -m bench.burst` (about a
minute; `--quick` for a smoke run of 200). Not part of the tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import os
import random
import sqlite3
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bench import delivery
from bench.world import NIGHT, TOKEN, ZONE, World, bot_process, ms, pct, seed
from bot.database import Database
from bot.services import scores
from standin import DiscordStandIn, Exchange, Limits

PLAYERS = 60
BURST = 2000
MIX = {"score": 40, "standings": 20, "me": 15, "groups": 15, "late": 10}  # percent
SCORED = 20  # players whose first two games are in before the burst
DEADLINE = 3.0  # Discord's first-response deadline
ANSWER_WITHIN = 300.0  # bounded wait for every acknowledged interaction's answer
SETTLE = 10.0  # seconds after the last answer before memory is read again
TONIGHT = datetime(NIGHT.year, NIGHT.month, NIGHT.day, 20, 0, tzinfo=ZONE)


def plan(world: World, count: int) -> list[tuple[str, int, dict[str, Any]]]:
    """`count` interactions in the mix, shuffled (seeded): (command, member, options)."""
    kinds = [kind for kind, share in MIX.items() for _ in range(count * share // 100)]
    kinds += ["score"] * (count - len(kinds))
    random.Random(2000).shuffle(kinds)
    done: list[tuple[str, int, dict[str, Any]]] = []
    for n, kind in enumerate(kinds):
        index = (n * 7) % len(world.players)
        options: dict[str, Any] = {}
        if kind == "score":
            game = 1 + (n // len(world.players)) % 5
            options = {"game": game, "score": str(1_000_000 * game + 1_000 * index + 7)}
        elif kind == "late":
            options = {"minutes": 10}
        done.append((kind, world.players[index], options))
    return done


def memory_mb(pid: int, field: str) -> float:
    """VmRSS or VmHWM of a process, in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


def reset_peak(pid: int) -> bool:
    """Reset the process's VmHWM to its VmRSS now (Linux 4.0+)."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


@dataclass
class Burst:
    kinds: list[str]
    acks: list[float]  # seconds; inf where the deadline was missed
    memory: tuple[float, float, float]  # MB: before, peak, SETTLE s after the last answer
    answered: float  # seconds from the first interaction to the last answer


async def burst(
    standin: DiscordStandIn,
    world: World,
    pid: int,
    interactions: list[tuple[str, int, dict[str, Any]]],
    database: Path | None = None,
) -> Burst:
    """Fire every interaction in one go, wait for the answers, read the memory.
    With `database`, the burst starts once the bot's outbox is empty."""
    loop = asyncio.get_running_loop()
    if database is not None:
        await outbox_empty(database)
    await delivery_quiet(standin)
    before = memory_mb(pid, "VmRSS")
    peak_reset = reset_peak(pid)
    polled = before
    exchanges: list[Exchange] = []

    async def poll() -> None:
        nonlocal polled
        while True:
            polled = max(polled, memory_mb(pid, "VmRSS"))
            await asyncio.sleep(0.05)

    poller = asyncio.create_task(poll())
    try:
        for kind, member, options in interactions:
            exchanges.append(await standin.invoke(member, kind, options, channel_id=world.general))
        first = exchanges[0].created_at
        last_deadline = exchanges[-1].created_at + DEADLINE + 0.5
        for _ in range(round((last_deadline - loop.time()) / 0.05) + 1):
            if loop.time() >= last_deadline or all(e.acknowledged for e in exchanges):
                break
            await asyncio.sleep(0.05)
        answered = [e for e in exchanges if e.acknowledged]
        for exchange in answered:
            remaining = first + ANSWER_WITHIN - loop.time()
            with contextlib.suppress(TimeoutError):
                await exchange.done(timeout=max(remaining, 0.01), quiet=0.0)
        last = max((e.filled_at or e.acknowledged_at or first) for e in answered) if answered \
            else first  # fmt: skip
        peak = max(polled, memory_mb(pid, "VmHWM") if peak_reset else polled)
        await asyncio.sleep(SETTLE)
        after = memory_mb(pid, "VmRSS")
    finally:
        poller.cancel()
    acks = [
        e.acknowledged_at - e.created_at if e.acknowledged_at is not None else float("inf")
        for e in exchanges
    ]
    return Burst([k for k, _, _ in interactions], acks, (before, peak, after), last - first)


def unsent(database: Path) -> int:
    """Messages the bot still owes (read-only, from this process)."""
    uri = database.resolve().as_uri() + "?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
        (count,) = conn.execute(
            "SELECT count(*) FROM outbox WHERE status IN ('pending', 'sending')"
        ).fetchone()
    return int(count)


async def outbox_empty(database: Path) -> None:
    """Until the bot has delivered every message it owed (polling, bounded)."""
    for _ in range(600):
        if not await asyncio.to_thread(unsent, database):
            return
        await asyncio.sleep(0.2)
    raise TimeoutError("the bot's outbox never emptied")


async def delivery_quiet(standin: DiscordStandIn, quiet: float = 0.5) -> None:
    """Until the bot has sent nothing for `quiet` seconds (bounded)."""
    loop = asyncio.get_running_loop()
    for _ in range(600):
        last = standin.requests[-1].at if standin.requests else 0.0
        if loop.time() - last >= quiet:
            return
        await asyncio.sleep(0.1)


async def seed_night(database: Path, world: World) -> None:
    """The league at 20:00 on its night: groups made and picks locked (`seed`),
    and the first two games of `SCORED` players in, waiting for approval."""
    await seed(database, world)
    db = await Database.open(database)
    try:
        for index, member in enumerate(world.players[:SCORED]):
            for game in (1, 2):
                await scores.submit(db, world.guild, member, game,
                                    1_000_000 * game + 1_000 * index + 3, now=TONIGHT)  # fmt: skip
    finally:
        await db.close()


@contextlib.asynccontextmanager
async def floor_bot(standin: DiscordStandIn, world: World, folder: Path) -> AsyncIterator[int]:
    env = world.env(standin, folder / "unused.sqlite3")
    async with bot_process(standin, world, ["bench.floor_bot"], env, "ping") as process:
        yield process.pid


async def measure() -> tuple[Burst, list[Burst]]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        async with (
            DiscordStandIn(token=TOKEN, limits=Limits()) as standin,
            DiscordStandIn(token=TOKEN, limits=Limits()) as other,
        ):
            standin.interaction_deadline = other.interaction_deadline = DEADLINE
            world, floor_world = World(standin, PLAYERS), World(other, PLAYERS)
            interactions = plan(world, BURST)
            pings: list[tuple[str, int, dict[str, Any]]] = [
                ("ping", member, {}) for _, member, _ in plan(floor_world, BURST)
            ]
            database = folder / "league.sqlite3"
            await seed_night(database, world)
            standin.set_time(TONIGHT)
            other.set_time(TONIGHT)
            profile_dir = os.environ.get("BENCH_PROFILE")
            profile = Path(profile_dir) / "burst.prof" if profile_dir else None
            async with floor_bot(other, floor_world, folder) as floor_pid:
                floors = [await burst(other, floor_world, floor_pid, pings)]
                async with delivery.league_bot(standin, world, database, profile) as process:
                    league = await burst(standin, world, process.pid, interactions, database)
                floors.append(await burst(other, floor_world, floor_pid, pings))
    return league, floors


async def main() -> None:
    # As in bench.interactions: the stand-ins keep every request and message, and
    # their full collections are their cost, not the bots' (the bots keep theirs).
    gc.disable()
    try:
        league, floors = await measure()
    finally:
        gc.enable()
        gc.collect()
    report(league, floors)


def shown(seconds: float) -> str:
    return f"{ms(seconds):>8.2f}" if seconds != float("inf") else f"{'>3000':>8}"


def report(league: Burst, floors: list[Burst]) -> None:
    floor_acks = [a for f in floors for a in f.acks]
    floor_p99 = pct(floor_acks, 0.99)
    print(f"burst: {len(league.acks):,} interactions at once from {PLAYERS} players,"
          f" Discord's rate limits and {DEADLINE:.0f} s deadline on; {os.cpu_count()} cores"
          " shared by the bots and the stand-ins")  # fmt: skip
    print(f"{'command':<12} {'sent':>6} {'acked<=3s':>9} {'p50 ms':>8} {'p95 ms':>8}"
          f" {'p99 ms':>8} {'p99/floor':>9}")  # fmt: skip
    rows = [(f"/{k}", [a for kind, a in zip(league.kinds, league.acks, strict=True) if kind == k])
            for k in MIX]  # fmt: skip
    rows += [("overall", league.acks), ("floor", floor_acks)]
    for name, acks in rows:
        within = sum(1 for a in acks if a <= DEADLINE)
        ratio = pct(acks, 0.99) / floor_p99
        ratio_shown = f"{ratio:>9.2f}" if math.isfinite(ratio) else f"{'-':>9}"
        print(f"{name:<12} {len(acks):>6} {within:>9} {shown(pct(acks, 0.5))}"
              f" {shown(pct(acks, 0.95))} {shown(pct(acks, 0.99))} {ratio_shown}")  # fmt: skip
    before, peak, after = league.memory
    print(f"bot memory (MB): before {before:.1f}, peak {peak:.1f}, {SETTLE:.0f} s after the"
          f" last answer {after:.1f}")  # fmt: skip
    f_before = min(f.memory[0] for f in floors)
    f_peak, f_after = max(f.memory[1] for f in floors), floors[-1].memory[2]
    print(f"floor memory (MB): before {f_before:.1f}, peak {f_peak:.1f}, {SETTLE:.0f} s after"
          f" the last answer {f_after:.1f}")  # fmt: skip
    print(f"last answer: bot {league.answered:.1f} s after the first interaction,"
          f" floor {max(f.answered for f in floors):.1f} s")  # fmt: skip
    each = ", ".join(f"{ms(pct(f.acks, 0.99)):.0f} ms" for f in floors)
    print(f"floor p99 of each burst (before, after the bot's): {each}")


def quick() -> None:
    """A smoke run: the same burst, 200 interactions, a short settle."""
    global BURST, SETTLE
    BURST, SETTLE = 200, 1.0


if __name__ == "__main__":
    if "--quick" in sys.argv[1:]:
        quick()
    asyncio.run(main())
