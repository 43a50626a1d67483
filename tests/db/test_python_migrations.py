"""Python migrations (`NNNN_name.py` with `async def upgrade(conn)`): for data
that SQL alone cannot convert, such as exact fractions (R6.1). They run in the
runner's transaction, like a SQL file, with their `PRAGMA user_version`."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.database_errors import MigrationError
from bot.migrate import DEFAULT_MIGRATIONS, load_migrations, migrate
from tests.db.test_database import PLAYERS, schema, write_migrations

HALVES = """
async def upgrade(conn):
    await conn.execute("ALTER TABLE player ADD COLUMN half TEXT")
    rows = await conn.execute_fetchall("SELECT id FROM player")
    for (player_id,) in rows:
        await conn.execute("UPDATE player SET half = ? WHERE id = ?", (f"{player_id}/2", player_id))
"""
FAILS_HALFWAY = """
async def upgrade(conn):
    await conn.execute("CREATE TABLE half_done (x)")
    raise ValueError("the data cannot be converted")
"""
COMMITS = """
async def upgrade(conn):
    await conn.execute("COMMIT")
"""
COMMITS_HALFWAY = """
async def upgrade(conn):
    await conn.execute("CREATE TABLE half_done (x)")
    await conn.execute("COMMIT")
    await conn.execute("BEGIN")
    raise ValueError("and then it failed")
"""
EXECUTESCRIPT = """
async def upgrade(conn):
    await conn.executescript("CREATE TABLE half_done (x);")
"""
NOT_ASYNC = "def upgrade(conn):\n    pass\n"
BROKEN = "async def upgrade(conn):\n    return (\n"


async def test_a_python_migration_runs_after_sql_ones_and_sets_the_version(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    folder = write_migrations(
        tmp_path / "migrations",
        {
            "0001_players.sql": PLAYERS + "\nINSERT INTO player (name) VALUES ('Ann'), ('Bo');",
            "0002_halves.py": HALVES,
        },
    )
    assert await migrate(path, folder) == 2
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT half FROM player ORDER BY id").fetchall() == [
            ("1/2",),
            ("2/2",),
        ]
    conn.close()
    assert await migrate(path, folder) == 2  # applied once only


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (FAILS_HALFWAY, "failed: the data cannot be converted"),
        (COMMITS, "0002_step.py"),
        (COMMITS_HALFWAY, "0002_step.py"),
        (EXECUTESCRIPT, "0002_step.py"),
        (NOT_ASYNC, "must define `async def upgrade"),
        (BROKEN, "cannot load migration 0002_step.py"),
    ],
)
async def test_a_bad_python_migration_changes_nothing(
    tmp_path: Path, source: str, message: str
) -> None:
    path = tmp_path / "league.db"
    folder = write_migrations(tmp_path / "migrations", {"0001_players.sql": PLAYERS})
    await migrate(path, folder)
    before = schema(path)
    write_migrations(folder, {"0002_step.py": source})
    with pytest.raises(MigrationError, match=message):
        await migrate(path, folder)
    assert schema(path) == before


def test_the_projects_migrations_include_the_exact_scores_conversion() -> None:
    names = [m.name for m in load_migrations(DEFAULT_MIGRATIONS)]
    assert "0002_exact_scores.py" in names
