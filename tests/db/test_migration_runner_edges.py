"""The migration runner at its edges: how a file is cut into statements
(comments anywhere, statements back to back), the words and line numbers of
its refusals, files in the folder that are not migrations, a file read as
UTF-8 whatever the machine's locale, two starts migrating one database at
once, the time each file is recorded with, and a Python migration that ends
the runner's transaction or uses what an imported module may use."""

from __future__ import annotations

import asyncio
import locale
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.database_errors import MigrationError
from bot.migrate import load_migrations, migrate
from tests.db.test_database import MACHINES, PLAYERS, ROWS, SCORES, schema, write_migrations


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        found = [tuple(r) for r in conn.execute(sql)]
    conn.close()
    return found


def exists(path: Path) -> bool:
    return path.exists()


async def refused(path: Path, folder: Path) -> str:
    with pytest.raises(MigrationError) as error:
        await migrate(path, folder)
    return str(error.value)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "league.db"


# --- statements and comments ------------------------------------------------------------


async def test_statements_back_to_back_and_after_comments_are_each_applied(
    tmp_path: Path, db_path: Path
) -> None:
    folder = write_migrations(
        tmp_path / "migrations",
        {
            "0001_tight.sql": "/* the first table */CREATE TABLE a (x INTEGER);"
            "CREATE TABLE b (x INTEGER);/*one*/INSERT INTO a VALUES (1);"
            "/**/INSERT INTO a VALUES (2);",
        },
    )
    assert await migrate(db_path, folder) == 1
    assert schema(db_path) == (1, {"a", "b"})
    assert rows(db_path, "SELECT x FROM a ORDER BY x") == [(1,), (2,)]


@pytest.mark.parametrize(
    "end",
    ["-- the end, without a newline", "/* a comment never closed"],
    ids=["line comment", "unclosed block comment"],
)
async def test_a_file_ending_in_a_comment_is_applied(
    tmp_path: Path, db_path: Path, end: str
) -> None:
    folder = write_migrations(
        tmp_path / "migrations", {"0001_rows.sql": f"{ROWS}\nINSERT INTO row VALUES (7);\n{end}"}
    )
    assert await migrate(db_path, folder) == 1
    assert rows(db_path, "SELECT n FROM row") == [(7,)]


@pytest.mark.parametrize(
    ("before", "line"),
    [("", 3), ("-- start our own\n", 4), ("/* start our own */ ", 3)],
    ids=["alone", "after a line comment", "after a block comment"],
)
async def test_a_statement_the_runner_owns_is_refused_after_comments_too(
    tmp_path: Path, db_path: Path, before: str, line: int
) -> None:
    """Named with its line, counted from the top of the file (which here
    begins with an empty line)."""
    folder = write_migrations(
        tmp_path / "migrations", {"0001_players.sql": f"\n{PLAYERS}\n{before}BEGIN;\n{MACHINES}"}
    )
    assert await refused(db_path, folder) == (
        f"migration 0001_players.sql line {line}: remove 'BEGIN' — the runner wraps each file "
        "in its own transaction and sets PRAGMA user_version itself"
    )
    assert not exists(db_path)


async def test_an_unfinished_last_statement_is_named_by_its_own_line(
    tmp_path: Path, db_path: Path
) -> None:
    folder = write_migrations(
        tmp_path / "migrations",
        {
            "0001_trigger.sql": f"{ROWS}\n{MACHINES}\nCREATE TRIGGER t AFTER INSERT ON row\n"
            "BEGIN\n    DELETE FROM row;\n-- END forgotten\n",
        },
    )
    assert await refused(db_path, folder) == (
        "migration 0001_trigger.sql line 3: statement is incomplete"
    )


# --- the folder -------------------------------------------------------------------------


async def test_files_that_are_not_migrations_are_left_alone(tmp_path: Path, db_path: Path) -> None:
    folder = write_migrations(
        tmp_path / "migrations",
        {
            ".gitkeep": "",
            "0001_players.sql": PLAYERS,
            "0001_players.sql.orig": "an editor's copy",
            "0002_machines.sql": MACHINES,
            "README.md": "# migrations\n",
            "__init__.py": "",
        },
    )
    (folder / "__pycache__").mkdir()
    assert await migrate(db_path, folder) == 2
    assert schema(db_path) == (2, {"player", "machine"})


async def test_a_missing_folder_is_named(tmp_path: Path, db_path: Path) -> None:
    folder = tmp_path / "migrations"
    assert await refused(db_path, folder) == f"migrations folder {folder} does not exist"


@pytest.mark.parametrize(
    ("names", "says"),
    [
        (
            ["0001_a.sql", "initial.sql"],
            "migration file initial.sql is not named NNNN_name.sql or NNNN_name.py "
            "(e.g. 0002_vetoes.sql)",
        ),
        (
            ["0001_a.sql", "0002_b.sql", "0002_also_b.sql"],
            "migration number 2 is used more than once: 0002_also_b.sql, 0002_b.sql",
        ),
        (
            ["0000_a.sql", "0001_b.sql"],
            "migrations in {folder} must be numbered 1..2 without gaps; numbering must start at 1",
        ),
        (
            ["0001_a.sql", "0003_c.sql"],
            "migrations in {folder} must be numbered 1..2 without gaps; missing [2]",
        ),
    ],
    ids=["no number", "a number twice", "a number 0", "a gap"],
)
async def test_a_misnumbered_folder_is_refused_in_so_many_words(
    tmp_path: Path, db_path: Path, names: list[str], says: str
) -> None:
    folder = write_migrations(
        tmp_path / "migrations", {name: f"CREATE TABLE t{i} (x);" for i, name in enumerate(names)}
    )
    assert await refused(db_path, folder) == says.format(folder=folder)
    assert not exists(db_path)


async def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path, db_path: Path) -> None:
    folder = write_migrations(tmp_path / "migrations", {})
    data = "CREATE TABLE t (x);\nINSERT INTO t VALUES ('café');\n".encode("latin-1")
    (folder / "0001_cafe.sql").write_bytes(data)
    with pytest.raises(UnicodeDecodeError) as decoding:
        data.decode("utf-8")
    assert (
        await refused(db_path, folder) == f"cannot read migration 0001_cafe.sql: {decoding.value}"
    )


@pytest.fixture
def ascii_locale() -> Iterator[None]:
    """The machine's locale is not a UTF-8 one (its characters are ASCII)."""
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, before)


@pytest.mark.usefixtures("ascii_locale")
async def test_a_file_is_read_as_utf8_whatever_the_machines_locale(
    tmp_path: Path, db_path: Path
) -> None:
    folder = write_migrations(
        tmp_path / "migrations",
        {"0001_cafe.sql": "CREATE TABLE t (x TEXT);\nINSERT INTO t VALUES ('Café Pinball');\n"},
    )
    assert await migrate(db_path, folder) == 1
    assert rows(db_path, "SELECT x FROM t") == [("Café Pinball",)]


# --- applying ---------------------------------------------------------------------------


async def test_two_starts_migrating_at_once_apply_each_file_once(
    tmp_path: Path, db_path: Path
) -> None:
    """Both read schema version 0, then wait for the write lock (held here for a
    moment); the second to get it reads the version again and applies nothing
    the first applied."""
    folder = write_migrations(
        tmp_path / "migrations",
        {"0001_players.sql": PLAYERS, "0002_machines.sql": MACHINES, "0003_scores.sql": SCORES},
    )
    writer = sqlite3.connect(db_path, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("BEGIN IMMEDIATE")
    starts = [asyncio.create_task(migrate(db_path, folder)) for _ in range(2)]
    await asyncio.sleep(0.5)  # both reach the lock (each waits up to 5 s for it)
    writer.execute("ROLLBACK")
    writer.close()
    assert await asyncio.gather(*starts) == [3, 3]
    assert schema(db_path) == (3, {"player", "machine", "score"})


async def test_a_file_another_process_applied_meanwhile_is_not_applied_again(
    tmp_path: Path, db_path: Path
) -> None:
    """The start reads schema version 0 and waits for the write lock; meanwhile
    another process applies the first file and lets go. The start reads the
    version again under the lock and goes on from the second file."""
    folder = write_migrations(
        tmp_path / "migrations",
        {"0001_players.sql": PLAYERS, "0002_machines.sql": MACHINES, "0003_scores.sql": SCORES},
    )
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("PRAGMA journal_mode = WAL")
    other.execute("BEGIN IMMEDIATE")
    start = asyncio.create_task(migrate(db_path, folder))
    await asyncio.sleep(1)  # it reads the version, then waits for the lock (up to 5 s)
    other.execute(PLAYERS)
    other.execute("PRAGMA user_version = 1")
    other.execute("COMMIT")
    other.close()
    assert await start == 3
    assert schema(db_path) == (3, {"player", "machine", "score"})


async def test_a_single_foreign_key_violation_is_named(tmp_path: Path, db_path: Path) -> None:
    folder = write_migrations(
        tmp_path / "migrations",
        {
            "0001_players.sql": PLAYERS,
            "0002_machines.sql": MACHINES,
            "0003_scores.sql": SCORES,
            "0004_orphan.sql": "INSERT INTO machine (id, name) VALUES (1, 'Attack from Mars');\n"
            "INSERT INTO score (player_id, machine_id, points) VALUES (41, 1, 1000);",
        },
    )
    assert await refused(db_path, folder) == (
        "migration 0004_orphan.sql failed: 1 foreign key violation(s), e.g. score row 1 "
        "refers to a missing player row"
    )
    assert schema(db_path) == (3, {"player", "machine", "score"})
    assert rows(db_path, "SELECT count(*) FROM machine") == [(0,)]


async def test_a_migration_is_recorded_with_its_time_in_utc(db_path: Path) -> None:
    await migrate(db_path)
    ((name, applied_at),) = rows(
        db_path, "SELECT name, applied_at FROM schema_migrations ORDER BY version DESC LIMIT 1"
    )
    assert name == load_migrations()[-1].name
    assert datetime.fromisoformat(str(applied_at)).utcoffset() == timedelta(0)


# --- Python migrations ------------------------------------------------------------------

ENDS_THE_TRANSACTION = """
import sqlite3

async def upgrade(conn):
    await conn.execute("CREATE TABLE kept (x UNIQUE)")
    await conn.execute("INSERT INTO kept VALUES (1)")
    try:
        await conn.execute("INSERT OR ROLLBACK INTO kept VALUES (1)")
    except sqlite3.IntegrityError:
        pass  # and go on as if nothing happened
"""
BAD_SQL = """
async def upgrade(conn):
    await conn.execute("UPDATE nowhere SET x = 1")
"""
NO_UPGRADE = """
async def migrate(conn):
    pass
"""
DATACLASS = """
from dataclasses import dataclass

@dataclass(frozen=True)
class Half:
    player_id: int

    def text(self) -> str:
        return f"{self.player_id}/2"

async def upgrade(conn):
    await conn.execute("ALTER TABLE player ADD COLUMN half TEXT")
    for (player_id,) in await conn.execute_fetchall("SELECT id FROM player"):
        half = Half(player_id).text()
        await conn.execute("UPDATE player SET half = ? WHERE id = ?", (half, player_id))
"""


async def step(tmp_path: Path, db_path: Path, source: str) -> Path:
    folder = write_migrations(
        tmp_path / "migrations",
        {"0001_players.sql": PLAYERS + "\nINSERT INTO player (name) VALUES ('Ann');"},
    )
    await migrate(db_path, folder)
    return write_migrations(folder, {"0002_step.py": source})


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (
            ENDS_THE_TRANSACTION,
            "migration 0002_step.py ended the runner's transaction; it must not COMMIT or ROLLBACK",
        ),
        (BAD_SQL, "migration 0002_step.py failed: no such table: nowhere"),
        (NO_UPGRADE, "migration 0002_step.py must define `async def upgrade(conn)`"),
    ],
    ids=["ends the transaction", "bad SQL", "no upgrade"],
)
async def test_a_bad_python_migration_is_refused_in_so_many_words(
    tmp_path: Path, db_path: Path, source: str, says: str
) -> None:
    folder = await step(tmp_path, db_path, source)
    assert await refused(db_path, folder) == says
    assert schema(db_path)[0] == 1


async def test_a_python_migration_may_define_a_dataclass(tmp_path: Path, db_path: Path) -> None:
    folder = await step(tmp_path, db_path, DATACLASS)
    assert await migrate(db_path, folder) == 2
    assert rows(db_path, "SELECT name, half FROM player") == [("Ann", "1/2")]
