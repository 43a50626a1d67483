"""SIGKILL in the middle of finalizing a night: never half a night.

A league of 300 players has week 1 locked with every score approved. A
separate process finalizes it and is killed with SIGKILL after a range of
delays, some before, some during and some after its transaction. Each time the
database must be whole (integrity_check ok, the night finalized with every
result, or not finalized with none) and finalizing it again must give exactly
what an uninterrupted run gives.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.league_scale import build, seed_scores
from bot.database import Database
from bot.migrate import migrate
from bot.services import finalize

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 300


def results_of(path: Path) -> tuple[str, list[tuple], list[tuple], list[tuple]]:
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        status = conn.execute("SELECT status FROM nights WHERE week = 1").fetchone()[0]
        night = conn.execute("SELECT * FROM night_results ORDER BY player_id").fetchall()
        games = conn.execute("SELECT * FROM game_results ORDER BY game_id, player_id").fetchall()
        week2 = conn.execute(
            "SELECT g.pool, g.position, m.player_id, m.ladder FROM night_groups g"
            " JOIN group_members m ON m.group_id = g.id JOIN nights n ON n.id = g.night_id"
            " WHERE n.week = 2 ORDER BY g.pool, g.position, m.ladder"
        ).fetchall()
    return status, night, games, week2


async def finalized_again(path: Path) -> None:
    db = await Database.open(path)
    try:
        await finalize.finalize(db, 1, week=1, by=1, now=datetime(2026, 1, 8, 5, tzinfo=UTC))
    finally:
        await db.close()


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with week 1 locked and every score approved, never finalized."""
    import asyncio

    path = tmp_path_factory.mktemp("kill") / "league.sqlite3"

    async def make() -> None:
        await migrate(path)
        db = await Database.open(path)
        try:
            await build(db, PLAYERS)
            await seed_scores(db, 1)
        finally:
            await db.close()

    asyncio.run(make())
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def test_sigkill_during_finalize_leaves_the_night_whole(league: Path, tmp_path: Path) -> None:
    import asyncio

    reference = tmp_path / "reference.sqlite3"
    shutil.copy(league, reference)
    asyncio.run(finalized_again(reference))
    expected = results_of(reference)
    assert expected[0] == "finalized" and len(expected[1]) == PLAYERS

    outcomes = set()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for delay_ms in (0, 10, 20, 30, 40, 50, 60, 70, 80, 100, 150, 3000):
        copy = tmp_path / f"killed-{delay_ms}.sqlite3"
        shutil.copy(league, copy)
        worker = subprocess.Popen(
            [sys.executable, "-m", "tests.faults.finalize_worker", str(copy)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == "finalizing"
        time.sleep(delay_ms / 1000)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
        worker.stdout.close()
        status, night, games, week2 = results_of(copy)
        if status == "finalized":
            assert (night, games, week2) == expected[1:]
        else:
            assert status == "locked" and night == [] and games == [] and week2 == []
        outcomes.add(status)
        asyncio.run(finalized_again(copy))
        assert results_of(copy) == expected
    # The delays span the transaction: kills came both before and after the commit.
    assert outcomes == {"locked", "finalized"}
