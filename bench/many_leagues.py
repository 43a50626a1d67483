"""Many leagues on one bot: 100 leagues of 30 players, each in its own server,
served by one `league-bot run` process (its own interpreter, as in production)
against the loopback stand-in.

Prints one table (the format is kept stable so runs can be compared):
- the time from starting the process to its first answer: READY comes after
  every league's schedule is built (100 schedulers) and the commands are
  registered;
- acknowledgement latency p50 / p99 (INTERACTION_CREATE sent -> first
  callback received) of `/me`, with 50 in flight at once spread over the
  leagues (targets: p99 under 100 ms);
- finalize of one league's night of 30 players, p50 over leagues (the
  services directly on the same file, while the bot runs);
- the bot process's resident memory with the 100 leagues loaded (target: under
  200 MB).

Garbage collection is off in the benchmark's process while it measures, as in
`bench.interactions`: the stand-in keeps every message, and its collections
would pause a burst, which is the stand-in's cost and not the bot's.

Run: `python -m bench` (every benchmark) or `python -m bench.many_leagues`
(`--quick` for a smoke run of 10 leagues). Not part of the tests.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import date, datetime
from pathlib import Path

from bench.league_scale import seed_scores
from bench.world import TOKEN, ZONE, ack, ms, pct, stop, timed
from bot.database import Database
from bot.migrate import migrate
from bot.services import finalize, machine_list, membership, server_setup, setup
from bot.stage import Stage, build_stage
from standin import DiscordStandIn, Exchange
from standin.limits import Limits

LEAGUES, PLAYERS, IN_FLIGHT, ROUNDS = 100, 30, 50, 10
START = date(2026, 1, 7)
NOW = datetime(2026, 1, 1, 10, tzinfo=ZONE)


async def seed(database: Path, stages: list[Stage]) -> None:
    """Each server set up, its league named, a season started, its players and machines."""
    await migrate(database)
    db = await Database.open(database)
    try:
        for stage in stages:
            guild = stage.guild
            await server_setup.set_up(
                db, guild, stage.announcements, stage.approvals, stage.commissioner_role,
                by=stage.commissioner, now=NOW,
            )  # fmt: skip
            await setup.create_league(db, guild, f"League {guild}", now=NOW)
            await setup.start_season(db, guild, "Spring", START, now=NOW)
            for n, member in enumerate(stage.players.values()):
                await membership.add_player(db, guild, f"P{n}", discord_id=member,
                                            skill=1 + n % 10, now=NOW)  # fmt: skip
            for n in range(6):
                await machine_list.add_machine(db, guild, f"Machine {n}", par=10**9, now=NOW)
    finally:
        await db.close()


async def settled(standin: DiscordStandIn, quiet: float = 1.0) -> None:
    """Until no message has been posted for `quiet` seconds (at most a minute)."""
    loop = asyncio.get_running_loop()
    count, since = len(standin.messages), loop.time()
    deadline = since + 60
    while loop.time() < deadline:
        await asyncio.sleep(0.1)
        if len(standin.messages) != count:
            count, since = len(standin.messages), loop.time()
        elif loop.time() - since >= quiet:
            return


def resident_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def finalize_each(database: Path, stages: list[Stage]) -> list[float]:
    """Each league's first night: 30 players' approved scores, then finalize, timed."""
    db = await Database.open(database)
    took = []
    try:
        for stage in stages:
            await seed_scores(db, 1, stage.guild)
            started = time.perf_counter()
            await finalize.finalize(db, stage.guild, by=stage.commissioner,
                                    now=datetime(2026, 1, 7, 23, tzinfo=ZONE))  # fmt: skip
            took.append(time.perf_counter() - started)
    finally:
        await db.close()
    return took


async def main() -> None:
    quick = "--quick" in sys.argv
    leagues = 10 if quick else LEAGUES
    rounds = 2 if quick else ROUNDS
    async with DiscordStandIn(token=TOKEN, limits=Limits()) as standin:
        standin.limits.switch_off()  # Discord's rate limits would time the stand-in, not the bot
        stages = [build_stage(standin, f"Server {n}", [f"P{p}" for p in range(PLAYERS)])
                  for n in range(leagues)]  # fmt: skip
        with tempfile.TemporaryDirectory() as folder:
            database = Path(folder) / "league.sqlite3"
            await seed(database, stages)
            (Path(folder) / "none.env").write_text("")  # all settings from the environment
            env = {**os.environ, "DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(database),
                   "DISCORD_API_BASE": standin.api_base, "LOG_LEVEL": "WARNING",
                   "BACKUP_DIR": str(Path(folder) / "backups")}  # fmt: skip
            standin.set_time(datetime(2026, 1, 7, 20, tzinfo=ZONE))
            started = time.perf_counter()
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", "--sync", "--env-file",
                str(Path(folder) / "none.env"), env=env,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
            )  # fmt: skip
            try:
                for _ in range(6000):
                    if standin.registered_commands() and standin.gateway.connected:
                        break
                    await asyncio.sleep(0.01)
                first = stages[0]
                answer = await standin.invoke(next(iter(first.players.values())), "me", {},
                                              channel_id=first.general)  # fmt: skip
                await answer.done(timeout=60, quiet=0.0)
                ready = time.perf_counter() - started  # READY follows every schedule's start
                await settled(standin)  # each league's posts of the day, owed at start, sent
                gc.collect()
                gc.disable()  # the stand-in's collections would pause a burst: not the bot's
                samples: list[float] = []
                for turn in range(rounds + 1):
                    calls: list[Callable[[], Awaitable[Exchange]]] = []
                    for n in range(IN_FLIGHT):
                        stage = stages[(turn * IN_FLIGHT + n) % len(stages)]
                        member = list(stage.players.values())[n % PLAYERS]
                        calls.append(functools.partial(standin.invoke, member, "me", {},
                                                       channel_id=stage.general))  # fmt: skip
                    exchanges = await timed(standin, calls)
                    if turn:  # the first round opens connections: not counted
                        samples += [ms(ack(e)) for e in exchanges]
                memory = resident_mb(process.pid or 0)
                finals = [ms(t) for t in await finalize_each(database, stages[:10])]
            finally:
                gc.enable()
                await stop(process)
    width = 40
    print(f"Many leagues on one bot: {leagues} leagues of {PLAYERS} players, one process")
    print(f"{'':{width}}figure")
    print(f"{'start to first answer (s)':{width}}{ready:.1f}")
    print(f"{f'/me ack p50, {IN_FLIGHT} in flight (ms)':{width}}{pct(samples, 0.5):.1f}")
    print(f"{f'/me ack p99, {IN_FLIGHT} in flight (ms)':{width}}{pct(samples, 0.99):.1f}")
    print(f"{'finalize one league, p50 (ms)':{width}}{statistics.median(finals):.1f}")
    print(f"{'bot resident memory (MB)':{width}}{memory:.0f}")


if __name__ == "__main__":
    asyncio.run(main())
