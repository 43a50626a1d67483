"""Migration 0003: an existing season gets the R10.4 / R13.1 settings it played under."""

from __future__ import annotations

import shutil
from pathlib import Path

import aiosqlite

from bot.migrate import DEFAULT_MIGRATIONS, migrate


async def test_a_season_made_before_0003_keeps_todays_defaults(tmp_path: Path) -> None:
    older = tmp_path / "migrations"
    older.mkdir()
    for path in sorted(DEFAULT_MIGRATIONS.iterdir()):
        if path.name[:4] in ("0001", "0002"):
            shutil.copy(path, older / path.name)
    database = tmp_path / "league.sqlite3"
    assert await migrate(database, older) == 2
    async with aiosqlite.connect(database) as conn:
        await conn.execute(
            "INSERT INTO leagues (id, guild_id, name, created_at) VALUES (1, 5, 'L', 'now')"
        )
        await conn.execute(
            "INSERT INTO seasons (league_id, name, start_date, created_at)"
            " VALUES (1, 'S', '2026-01-07', 'now')"
        )
        await conn.commit()
    assert await migrate(database) >= 3  # 0003 and any later migration
    async with aiosqlite.connect(database) as conn:
        rows = await conn.execute_fetchall(
            "SELECT playoff_divisor, playoff_min, playoff_max, prize_places_a, prize_places_b,"
            " prize_consolation_a, prize_consolation_b FROM seasons"
        )
    assert list(rows) == [(3, 2, 4, "30,15,10", "20,10,7", 20, 50)]
