"""Delivery and sustained load, with Discord's rate limits on (`Limits()`).

Prints three tables (the format is kept stable so runs can be compared):
- a night's approvals: 32 `/score` submissions from 8 players spread over
  60 s (seeded random times); for each, the time from the interaction to its
  approval post appearing in the approvals channel (matched by content), p50 /
  p95; and how many messages the bot posted in all channels (and how many of
  its requests the stand-in answered 429);
- a burst at the approvals channel (`bench.card_burst`): 35 `/score` in 1 s over
  3 groups; per group's card, the time to its first score shown and to every
  score shown;
- sustained rate: a stream of interactions (4 /score, 4 /standings, 2 /late in
  10) at a fixed rate for STEP_SECONDS, with the stand-in refusing a first
  response after 3 s as Discord does (`interaction_deadline`); the rate is
  stepped up until a step misses the deadline. Each step has a fresh bot
  process on a fresh copy of the same seeded league. Each row: the rate, the
  interactions not acknowledged within 3 s, acknowledgement p50 / p95, and CPU
  seconds of the bot process and of this process (the stand-in, which shares
  the machine's cores) over the step.

`BENCH_PROFILE=DIR` runs each step's bot under cProfile and leaves
`DIR/step-<rate>.prof` (read with `python -m pstats`). The bot runs as its own
process, the stand-in in this one. Run: `python -m bench` (every benchmark)
or `python -m bench.delivery` (about 4 minutes; `--quick` for a smoke run:
8 submissions over 4 s and one short step). Not part of the tests.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bench import card_burst
from bench.league_process import PostWatch, league_bot, score_key, score_value
from bench.world import TOKEN, ZONE, World, ms, pct, seed
from standin import DiscordStandIn, Exchange, Limits

SUBMISSIONS = 32  # /score submissions of a night
SUBMITTERS = 8  # players submitting them (4 games each)
WINDOW = 60.0  # seconds over which they arrive
# Interactions per second, stepped up until one misses.
RATES: tuple[int, ...] = (8, 16, 24, 32, 48, 64, 96)
STEP_SECONDS = 15.0
DEADLINE = 3.0  # Discord's first-response deadline
MIX = ("score", "standings", "late", "score", "standings",
       "score", "late", "standings", "score", "standings")  # fmt: skip
SETTLE = 60.0  # bounded wait for the last approval posts


def clock_ticks() -> int:
    return os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / clock_ticks()


def posted(standin: DiscordStandIn, since: int) -> tuple[int, int]:
    """Channel messages the bot posted (all channels) and 429s, since request `since`."""
    sent = sum(
        1
        for r in standin.requests[since:]
        if r.method == "POST" and r.path.endswith("/messages") and "/channels/" in r.path
        and r.status == 200
    )  # fmt: skip
    return sent, sum(1 for r in standin.rate_limited if r.at >= standin.requests[since].at)


@dataclass
class Night:
    latencies: list[float]
    messages: int
    refused_429: int
    unmatched: int


async def night_of_approvals(standin: DiscordStandIn, world: World, database: Path) -> Night:
    """SUBMISSIONS /score from SUBMITTERS players at seeded random times within WINDOW."""
    loop = asyncio.get_running_loop()
    rng = random.Random(7)
    plan = sorted(
        (rng.uniform(0, WINDOW), index, game)
        for index in range(SUBMITTERS)
        for game in range(1, SUBMISSIONS // SUBMITTERS + 1)
    )
    watch = PostWatch(standin, world.approvals)
    async with league_bot(standin, world, database):
        since = len(standin.requests)
        started = loop.time()
        sent: list[tuple[Exchange, str]] = []
        for at, index, game in plan:
            await asyncio.sleep(max(0.0, started + at - loop.time()))
            member = world.players[index]
            value = score_value(index, game)
            exchange = await standin.invoke(
                member, "score", {"game": game, "score": str(value)}, channel_id=world.general
            )
            sent.append((exchange, score_key(index, game)))
        for exchange, _ in sent:
            await exchange.done(timeout=30, quiet=0.0)
        latencies: list[float] = []
        deadline = loop.time() + SETTLE
        while loop.time() < deadline:
            found = [(e, watch.first_shown(key)) for e, key in sent]
            if all(at is not None for _, at in found):
                break
            await asyncio.sleep(0.1)
        latencies = [at - e.created_at for e, at in found if at is not None]
        await asyncio.sleep(1.0)  # anything else it posts for these (there should be none)
        messages, refused = posted(standin, since)
    watch.stop()
    return Night(latencies, messages, refused, len(sent) - len(latencies))


@dataclass
class Step:
    rate: int
    sent: int
    missed: int
    acks: list[float]
    bot_cpu: float
    standin_cpu: float
    seconds: float


async def stream(
    standin: DiscordStandIn, world: World, seeded: Path, folder: Path, rate: int, seconds: float
) -> Step:
    """`rate` interactions a second for `seconds`, on a fresh bot and copy of the league."""
    loop = asyncio.get_running_loop()
    database = folder / f"step-{rate}.sqlite3"
    shutil.copyfile(seeded, database)
    profile_dir = os.environ.get("BENCH_PROFILE")
    profile = Path(profile_dir) / f"step-{rate}.prof" if profile_dir else None
    count = round(rate * seconds)
    scores = [(p, g) for g in range(1, 6) for p in range(len(world.players))]
    async with league_bot(standin, world, database, profile) as process:
        bot_before, mine_before = cpu_seconds(process.pid), time.process_time()
        started = loop.time()
        exchanges: list[Exchange] = []
        submitted = 0
        for n in range(count):
            await asyncio.sleep(max(0.0, started + n / rate - loop.time()))
            kind = MIX[n % len(MIX)]
            if kind == "score":
                index, game = scores[submitted % len(scores)]
                submitted += 1
                options = {"game": game, "score": str(score_value(index, game))}
                member = world.players[index]
            elif kind == "late":
                member, options = world.players[n % len(world.players)], {"minutes": 5}
            else:
                member, options = world.players[n % len(world.players)], {}
            exchanges.append(await standin.invoke(member, kind, options, channel_id=world.general))
        elapsed = loop.time() - started
        # Until each is acknowledged or past the deadline (then the stand-in refuses it).
        last = exchanges[-1].created_at + DEADLINE + 0.5
        for _ in range(round((DEADLINE + 1) / 0.05)):
            if loop.time() >= last or all(e.acknowledged for e in exchanges):
                break
            await asyncio.sleep(0.05)
        bot_cpu = cpu_seconds(process.pid) - bot_before
        standin_cpu = time.process_time() - mine_before
    acks = [e.acknowledged_at - e.created_at for e in exchanges if e.acknowledged_at is not None]
    missed = sum(1 for e in exchanges if e.acknowledged_at is None)
    return Step(rate, count, missed, acks, bot_cpu, standin_cpu, elapsed)


async def main() -> None:
    # As in bench.interactions: the stand-in keeps every request and message, and
    # its full collections are its cost, not the bot's (the bot keeps its own).
    gc.disable()
    try:
        await measure_and_print()
    finally:
        gc.enable()
        gc.collect()


async def measure_and_print() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        async with DiscordStandIn(token=TOKEN, limits=Limits()) as standin:
            standin.interaction_deadline = DEADLINE
            world = World(standin)
            seeded = folder / "seeded.sqlite3"
            await seed(seeded, world)
            standin.set_time(datetime(2026, 1, 7, 20, 0, tzinfo=ZONE))
            first = folder / "night.sqlite3"
            shutil.copyfile(seeded, first)
            night = await night_of_approvals(standin, world, first)
            await asyncio.sleep(5.0)  # the rate-limit windows of the night reset
            busy = folder / "burst.sqlite3"
            shutil.copyfile(seeded, busy)
            moment = await card_burst.burst(standin, world, busy)
            steps: list[Step] = []
            for rate in RATES:
                await asyncio.sleep(5.0)  # the rate-limit windows of the step before reset
                step = await stream(standin, world, seeded, folder, rate, STEP_SECONDS)
                steps.append(step)
                if step.missed:
                    break
    cores = os.cpu_count()
    print(f"delivery and sustained load, Discord's rate limits on; {cores} cores shared"
          " by the bot and the stand-in")  # fmt: skip
    print(f"{'measure':<36} {'p50 ms':>8} {'p95 ms':>8} {'count':>7}")
    lat = night.latencies
    name = f"/score -> approval post ({SUBMISSIONS}/{WINDOW:.0f}s)"
    print(f"{name:<36} {ms(pct(lat, 0.5)):>8.2f} {ms(pct(lat, 0.95)):>8.2f} {len(lat):>7}")
    print(f"{'posts unmatched':<36} {'':>8} {'':>8} {night.unmatched:>7}")
    print(f"{'messages posted that night':<36} {'':>8} {'':>8} {night.messages:>7}")
    print(f"{'429s answered to the bot':<36} {'':>8} {'':>8} {night.refused_429:>7}")
    print()
    print("\n".join(card_burst.table(moment)))
    print()
    print(f"{'rate/s':>6} {'sent':>6} {'missed':>6} {'ack p50 ms':>10} {'ack p95 ms':>10}"
          f" {'bot cpu s':>9} {'stand-in cpu s':>14} {'seconds':>7}")  # fmt: skip
    for step in steps:
        acks = step.acks or [float("nan")]
        print(f"{step.rate:>6} {step.sent:>6} {step.missed:>6} {ms(pct(acks, 0.5)):>10.2f}"
              f" {ms(pct(acks, 0.95)):>10.2f} {step.bot_cpu:>9.2f} {step.standin_cpu:>14.2f}"
              f" {step.seconds:>7.1f}")  # fmt: skip
    clean = [s.rate for s in steps if not s.missed]
    highest = f"{max(clean)}/s" if clean else f"below {steps[0].rate}/s"
    first_miss = next((f"{s.rate}/s" for s in steps if s.missed), "none of the rates tried")
    print(f"highest rate with no missed {DEADLINE:.0f} s deadline: {highest}"
          f" (first miss: {first_miss}; {STEP_SECONDS:.0f} s steps)")  # fmt: skip


def quick() -> None:
    """A smoke run: 8 submissions over 4 s, one short step."""
    global SUBMISSIONS, SUBMITTERS, WINDOW, RATES, STEP_SECONDS, SETTLE
    SUBMISSIONS, SUBMITTERS, WINDOW, RATES, STEP_SECONDS, SETTLE = 8, 4, 4.0, (5,), 2.0, 20.0
    card_burst.SETTLE = 20.0


if __name__ == "__main__":
    if "--quick" in sys.argv[1:]:
        quick()
    asyncio.run(main())
