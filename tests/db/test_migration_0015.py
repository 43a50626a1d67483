"""Migration 0015: every night made before it is a regular night (R1.1), and a
season can hold one playoff night (R13.4) with one field entry per player."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.migrate import migrate


async def league_at_14(tmp_path: Path) -> Path:
    database = tmp_path / "league.sqlite3"
    assert await migrate(database, up_to=14) == 14
    async with aiosqlite.connect(database) as conn:
        await conn.execute(
            "INSERT INTO leagues (id, guild_id, name, created_at) VALUES (1, 5, 'L', 'now')"
        )
        await conn.execute(
            "INSERT INTO seasons (id, league_id, name, start_date, created_at)"
            " VALUES (1, 1, 'S', '2026-01-07', 'now')"
        )
        await conn.execute("INSERT INTO nights (season_id, week, date) VALUES (1, 1, '2026-01-07')")
        await conn.commit()
    return database


async def test_nights_made_before_0015_are_regular_nights(tmp_path: Path) -> None:
    database = await league_at_14(tmp_path)
    assert await migrate(database) >= 15
    async with aiosqlite.connect(database) as conn:
        rows = await conn.execute_fetchall("SELECT week, kind FROM nights")
    assert list(rows) == [(1, "regular")]


async def test_one_playoff_night_a_season_and_one_entry_a_player(tmp_path: Path) -> None:
    database = await league_at_14(tmp_path)
    await migrate(database)
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO players (id, league_id, name, joined_at) VALUES (1, 1, 'A', 'x')")
        night = "INSERT INTO nights (id, season_id, week, date, kind) VALUES (?, 1, ?, ?, ?)"
        conn.execute(night, (9, 2, "2026-01-14", "playoff"))
        with pytest.raises(sqlite3.IntegrityError):  # a second playoff night
            conn.execute(night, (10, 3, "2026-01-21", "playoff"))
        with pytest.raises(sqlite3.IntegrityError):  # a kind the rules do not have
            conn.execute(night, (11, 4, "2026-01-28", "final"))
        entry = (
            "INSERT INTO playoff_field (night_id, pool, standing, player_id, qualified)"
            " VALUES (9, '', ?, 1, 1)"
        )
        conn.execute(entry, (1,))
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(entry, (2,))  # the same player twice
        with pytest.raises(sqlite3.IntegrityError):  # replaced without when
            conn.execute("UPDATE playoff_field SET replaced_by = 1")
