"""Migration 0014: an existing season gets the playoff format the league's
document implies by default (R13.3), and the database refuses a format the bot
does not know or a match without a winner."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.migrate import migrate


async def test_a_season_made_before_0014_plays_a_final_group_of_5(tmp_path: Path) -> None:
    database = tmp_path / "league.sqlite3"
    assert await migrate(database, up_to=13) == 13
    async with aiosqlite.connect(database) as conn:
        await conn.execute(
            "INSERT INTO leagues (id, guild_id, name, created_at) VALUES (1, 5, 'L', 'now')"
        )
        await conn.execute(
            "INSERT INTO seasons (league_id, name, start_date, created_at)"
            " VALUES (1, 'S', '2026-01-07', 'now')"
        )
        await conn.commit()
    assert await migrate(database) >= 14
    async with aiosqlite.connect(database) as conn:
        rows = await conn.execute_fetchall(
            "SELECT playoff_format, playoff_games, playoff_best_of FROM seasons"
        )
    assert list(rows) == [("final_group", 5, 3)]


@pytest.mark.parametrize(
    ("column", "value"),
    [("playoff_format", "knockout"), ("playoff_games", 0), ("playoff_games", 11),
     ("playoff_best_of", 4), ("playoff_best_of", 11), ("playoff_best_of", -1)],
)  # fmt: skip
async def test_the_database_refuses_a_format_the_rules_do_not_have(
    tmp_path: Path, column: str, value: object
) -> None:
    database = tmp_path / "league.sqlite3"
    await migrate(database)
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO leagues (id, guild_id, name, created_at) VALUES (1, 5, 'L', 'x')")
        conn.execute(
            "INSERT INTO seasons (league_id, name, start_date, created_at)"
            " VALUES (1, 'S', '2026-01-07', 'x')"
        )
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            conn.execute(f"UPDATE seasons SET {column} = ?", (value,))
