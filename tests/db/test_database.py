"""The connection and migration layer, on real SQLite files in tmp_path."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.database import Database
from bot.database_errors import DatabaseError, DatabaseTooNewError, MigrationError
from bot.migrate import DEFAULT_MIGRATIONS, migrate

PLAYERS = "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
MACHINES = "CREATE TABLE machine (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
SCORES = """
CREATE TABLE score (
    id INTEGER PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES player (id),
    machine_id INTEGER NOT NULL REFERENCES machine (id),
    points INTEGER NOT NULL
);
"""
ROWS = "CREATE TABLE row (n INTEGER PRIMARY KEY);"


def write_migrations(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(exist_ok=True)
    for name, sql in files.items():
        (folder / name).write_text(sql, encoding="utf-8")
    return folder


def schema(path: Path) -> tuple[int, set[str]]:
    """user_version and the names of the tables, read with plain sqlite3."""
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    return version, names


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "league.db"


@pytest.fixture
def three(tmp_path: Path) -> Path:
    return write_migrations(
        tmp_path / "migrations",
        {"0001_players.sql": PLAYERS, "0002_machines.sql": MACHINES, "0003_scores.sql": SCORES},
    )


@pytest.fixture
async def db(tmp_path: Path, db_path: Path):
    folder = write_migrations(tmp_path / "migrations", {"0001_rows.sql": ROWS})
    await migrate(db_path, folder)
    database = await Database.open(db_path)
    yield database
    await database.close()


async def count_rows(db: Database) -> int:
    async with db.read() as conn, conn.execute("SELECT count(*) FROM row") as cursor:
        return (await cursor.fetchone())[0]


# --- migrations -------------------------------------------------------------------------------


def test_default_migrations_is_the_projects_folder():
    assert Path(__file__).resolve().parents[2] / "migrations" == DEFAULT_MIGRATIONS


async def test_three_migrations_set_version_three_and_create_the_tables(db_path, three, caplog):
    caplog.set_level(logging.INFO, logger="bot.migrate")

    assert await migrate(db_path, three) == 3

    assert schema(db_path) == (3, {"player", "machine", "score"})
    applied = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert [m.split()[2] for m in applied] == [
        "0001_players.sql",
        "0002_machines.sql",
        "0003_scores.sql",
    ]


async def test_migrating_twice_applies_nothing_the_second_time(db_path, three, caplog):
    await migrate(db_path, three)
    caplog.clear()
    caplog.set_level(logging.INFO, logger="bot.migrate")

    assert await migrate(db_path, three) == 3

    assert not [r for r in caplog.records if "applied" in r.getMessage()]
    assert schema(db_path) == (3, {"player", "machine", "score"})


async def test_new_files_are_applied_on_top(db_path, three):
    (three / "0003_scores.sql").rename(three / "later")
    assert await migrate(db_path, three) == 2
    (three / "later").rename(three / "0003_scores.sql")

    assert await migrate(db_path, three) == 3
    assert schema(db_path) == (3, {"player", "machine", "score"})


async def test_a_migration_failing_halfway_changes_nothing(tmp_path, db_path):
    folder = write_migrations(
        tmp_path / "migrations",
        {
            "0001_players.sql": PLAYERS,
            "0002_broken.sql": "CREATE TABLE half (x INTEGER);\n\nCREATE TABLEX oops (y);\n",
        },
    )

    with pytest.raises(MigrationError, match=r"0002_broken\.sql.*line 3.*syntax error"):
        await migrate(db_path, folder)

    assert schema(db_path) == (1, {"player"})  # 0001 landed, nothing of 0002 did


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["0001_a.sql", "0003_c.sql"], r"without gaps; missing \[2\]"),
        (["0002_b.sql", "0003_c.sql"], r"without gaps; missing \[1\]"),
        (["0001_a.sql", "0002_b.sql", "0002_also_b.sql"], r"number 2 is used more than once"),
        (["0001_a.sql", "02_b.sql", "2_c.sql"], r"number 2 is used more than once"),
        (["0001_a.sql", "initial.sql"], r"initial\.sql is not named NNNN_name\.sql"),
    ],
)
async def test_bad_numbering_is_refused_before_anything_is_applied(
    tmp_path, db_path, names, message
):
    folder = write_migrations(
        tmp_path / "migrations", {name: f"CREATE TABLE t{i} (x);" for i, name in enumerate(names)}
    )

    with pytest.raises(MigrationError, match=message):
        await migrate(db_path, folder)

    assert not db_path.exists()


async def test_a_database_newer_than_the_bot_is_refused(db_path, three):
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 7")
    conn.close()

    with pytest.raises(
        DatabaseTooNewError,
        match=r"^database schema version 7 is newer than this bot \(3\); upgrade the bot$",
    ):
        await migrate(db_path, three)

    assert schema(db_path) == (7, set())


async def test_statements_are_split_the_way_sqlite_reads_them(tmp_path, db_path):
    folder = write_migrations(
        tmp_path / "migrations",
        {
            "0001_tricky.sql": """
-- players; the league's regulars
CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL); /* a; b */
CREATE TABLE audit (note TEXT NOT NULL);
CREATE TRIGGER player_added AFTER INSERT ON player
BEGIN
    INSERT INTO audit (note) VALUES ('added; ' || NEW.name);
    INSERT INTO audit (note) VALUES ('END;');
END;
INSERT INTO player (name) VALUES ('Ann; the wizard'); INSERT INTO player (name) VALUES ('Bob')
-- trailing comment, no semicolon above
""",
        },
    )

    assert await migrate(db_path, folder) == 1

    with sqlite3.connect(db_path) as conn:
        players = [r[0] for r in conn.execute("SELECT name FROM player ORDER BY id")]
        notes = [r[0] for r in conn.execute("SELECT note FROM audit ORDER BY rowid")]
    conn.close()
    assert players == ["Ann; the wizard", "Bob"]
    assert notes == ["added; Ann; the wizard", "END;", "added; Bob", "END;"]


async def test_an_unfinished_trigger_is_refused(tmp_path, db_path):
    folder = write_migrations(
        tmp_path / "migrations",
        {
            "0001_players.sql": PLAYERS,
            "0002_trigger.sql": f"{ROWS}\nCREATE TRIGGER t AFTER INSERT ON row\n"
            "BEGIN\n    DELETE FROM row;\n-- END forgotten\n",
        },
    )

    with pytest.raises(MigrationError, match=r"0002_trigger\.sql line 2: statement is incomplete"):
        await migrate(db_path, folder)

    assert not db_path.exists()


@pytest.mark.parametrize(
    "statement", ["BEGIN;", "COMMIT;", "begin transaction;", "END;", "PRAGMA user_version = 9;"]
)
async def test_a_file_may_not_manage_its_own_transaction(tmp_path, db_path, statement):
    folder = write_migrations(
        tmp_path / "migrations", {"0001_players.sql": f"{PLAYERS}\n{statement}\n{MACHINES}"}
    )

    with pytest.raises(MigrationError, match=r"0001_players\.sql line 2: remove"):
        await migrate(db_path, folder)

    assert not db_path.exists()


async def test_foreign_key_violations_fail_the_migration(tmp_path, db_path, three):
    (three / "0004_orphan.sql").write_text(
        "INSERT INTO score (player_id, machine_id, points) VALUES (41, 42, 1000);"
    )

    with pytest.raises(MigrationError, match=r"0004_orphan\.sql failed: 2 foreign key"):
        await migrate(db_path, three)

    assert schema(db_path) == (3, {"player", "machine", "score"})


# --- the connection ---------------------------------------------------------------------------


async def test_connection_pragmas_are_on(db):
    async with db.read() as conn:
        pragmas = {}
        for name in ("foreign_keys", "journal_mode", "busy_timeout", "synchronous"):
            async with conn.execute(f"PRAGMA {name}") as cursor:
                pragmas[name] = (await cursor.fetchone())[0]

    assert pragmas == {
        "foreign_keys": 1,
        "journal_mode": "wal",
        "busy_timeout": 5000,
        "synchronous": 1,  # NORMAL
    }


async def test_rows_come_back_as_rows(db):
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO row (n) VALUES (7)")
    async with db.read() as conn, conn.execute("SELECT n FROM row") as cursor:
        row = await cursor.fetchone()
    assert row["n"] == 7


async def test_a_transaction_that_raises_rolls_back(db):
    with pytest.raises(ValueError, match="changed my mind"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO row (n) VALUES (1)")
            raise ValueError("changed my mind")

    assert await count_rows(db) == 0
    async with db.transaction() as conn:  # the lock and the connection are free again
        await conn.execute("INSERT INTO row (n) VALUES (1)")
    assert await count_rows(db) == 1


async def test_a_failing_statement_rolls_back_the_whole_transaction(db):
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE constraint failed"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO row (n) VALUES (1)")
            await conn.execute("INSERT INTO row (n) VALUES (1)")

    assert await count_rows(db) == 0


async def test_reads_cannot_write(db):
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        async with db.read() as conn:
            await conn.execute("INSERT INTO row (n) VALUES (1)")

    async with db.transaction() as conn:
        await conn.execute("INSERT INTO row (n) VALUES (2)")
    assert await count_rows(db) == 1


async def test_a_one_statement_read_sees_commits_and_cannot_write(db):
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO row (n) VALUES (3)")
    async with db.read(snapshot=False) as conn:
        assert [tuple(r) for r in await conn.execute_fetchall("SELECT n FROM row")] == [(3,)]
        assert not conn.in_transaction
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        async with db.read(snapshot=False) as conn:
            await conn.execute_fetchall("INSERT INTO row (n) VALUES (4)")
    assert await count_rows(db) == 1


async def test_a_one_statement_read_does_not_wait_behind_a_long_read_or_a_write(db):
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO row (n) VALUES (5)")
    release = asyncio.Event()

    async def hold(open_: Callable[[], Any], sql: str, holding: asyncio.Event) -> None:
        async with open_() as conn:
            await conn.execute(sql)
            holding.set()
            await release.wait()

    reading, writing = asyncio.Event(), asyncio.Event()
    holders = [
        asyncio.create_task(hold(db.read, "SELECT count(*) FROM row", reading)),
        asyncio.create_task(hold(db.transaction, "INSERT INTO row (n) VALUES (6)", writing)),
    ]
    await asyncio.wait_for(asyncio.gather(reading.wait(), writing.wait()), 5)

    async def quick() -> list[Any]:
        async with db.read(snapshot=False) as conn:
            return list(await conn.execute_fetchall("SELECT n FROM row"))

    try:
        # Both locks are held: the quick read answers anyway, with the committed rows only.
        rows = await asyncio.wait_for(quick(), 1)
    finally:
        release.set()
        await asyncio.gather(*holders)
    assert [r[0] for r in rows] == [5]
    assert await count_rows(db) == 2


async def test_closing_after_quick_reads_leaves_every_write_in_the_file(db_path):
    database = await Database.open(db_path)
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE t (n INTEGER)")
    for n in range(50):
        async with database.read(snapshot=False) as conn:
            await conn.execute_fetchall("SELECT count(*) FROM t")
        async with database.transaction() as conn:
            await conn.execute("INSERT INTO t (n) VALUES (?)", (n,))
    await database.close()
    # The WAL was checkpointed into the file and removed: the file alone holds it all.
    assert rows_in_the_file_alone(db_path) == 50


def rows_in_the_file_alone(db_path: Path) -> int:
    assert not Path(f"{db_path}-wal").exists()
    copy = db_path.with_name("copy.sqlite3")
    copy.write_bytes(db_path.read_bytes())
    with contextlib.closing(sqlite3.connect(copy)) as alone:
        return alone.execute("SELECT count(*) FROM t").fetchone()[0]


async def test_a_cancelled_transaction_rolls_back_and_frees_the_lock(db):
    inserted = asyncio.Event()

    async def interrupted() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO row (n) VALUES (1)")
            inserted.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(interrupted())
    await inserted.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert await count_rows(db) == 0
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO row (n) VALUES (2)")
    assert await count_rows(db) == 1


async def test_nesting_raises_instead_of_deadlocking(db):
    async with db.transaction():
        with pytest.raises(RuntimeError, match="do not nest"):
            async with db.read():
                pass


async def test_200_concurrent_transactions_each_land_once(db):
    async def insert(n: int) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO row (n) VALUES (?)", (n,))
            await asyncio.sleep(0)  # let the others try to get in

    await asyncio.gather(*(insert(n) for n in range(200)))

    async with db.read() as conn:
        rows = [r["n"] for r in await conn.execute_fetchall("SELECT n FROM row ORDER BY n")]
    assert rows == list(range(200))


async def test_two_connections_on_one_file_write_concurrently(db, db_path):
    # Read-modify-write from two connections: BEGIN IMMEDIATE takes the write lock
    # up front (waiting up to busy_timeout), so no update is lost and no
    # transaction fails with "database is locked" when it upgrades its read.
    async def add_next(database: Database, times: int) -> None:
        for _ in range(times):
            async with database.transaction() as conn:
                async with conn.execute("SELECT coalesce(max(n), -1) + 1 FROM row") as cursor:
                    (n,) = await cursor.fetchone()
                await asyncio.sleep(0)  # let the other connection try to write now
                await conn.execute("INSERT INTO row (n) VALUES (?)", (n,))

    async with await Database.open(db_path) as other:
        await asyncio.gather(*(add_next(database, 50) for database in (db, other, db, other)))

    async with db.read() as conn:
        rows = [r["n"] for r in await conn.execute_fetchall("SELECT n FROM row ORDER BY n")]
    assert rows == list(range(200))


async def test_closed_database_says_so(db):
    await db.close()
    await db.close()
    with pytest.raises(DatabaseError, match="is closed"):
        async with db.read():
            pass


# --- backups ----------------------------------------------------------------------------------


async def test_backup_while_writing_is_consistent(db, db_path, tmp_path):
    async with db.transaction() as conn:
        await conn.executemany("INSERT INTO row (n) VALUES (?)", [(n,) for n in range(500)])
    writing = asyncio.Event()

    async def keep_writing(database: Database, start: int) -> None:
        for n in range(start, start + 300):
            async with database.transaction() as conn:
                await conn.execute("INSERT INTO row (n) VALUES (?)", (n,))
            writing.set()

    async with await Database.open(db_path) as other:
        writers = [
            asyncio.create_task(keep_writing(db, 1000)),
            asyncio.create_task(keep_writing(other, 2000)),
        ]
        await asyncio.wait_for(writing.wait(), timeout=5)
        copy = await db.backup(tmp_path / "league-backup.db")
        await asyncio.gather(*writers)

    assert copy == tmp_path / "league-backup.db"
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        numbers = {r[0] for r in conn.execute("SELECT n FROM row")}
    conn.close()
    assert set(range(500)) <= numbers
    for start in (1000, 2000):  # each writer's rows up to some point: a snapshot, not a mix
        written = sorted(n for n in numbers if start <= n < start + 300)
        assert written == list(range(start, start + len(written)))
    assert len(numbers) > 500  # the write that came before the backup is in it
    assert sorted(p.name for p in tmp_path.iterdir() if "backup" in p.name) == ["league-backup.db"]


async def test_backup_replaces_an_older_copy(db, tmp_path):
    target = tmp_path / "copy.db"
    await db.backup(target)
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO row (n) VALUES (1)")

    await db.backup(target)

    with sqlite3.connect(target) as conn:
        assert conn.execute("SELECT count(*) FROM row").fetchone() == (1,)
    conn.close()


async def test_backup_onto_the_database_itself_is_refused(db, db_path):
    with pytest.raises(DatabaseError, match="onto itself"):
        await db.backup(db_path)


# --- paths ------------------------------------------------------------------------------------


async def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path, three):
    garbage = tmp_path / "notes.db"
    garbage.write_bytes(b"not a database" * 100)

    with pytest.raises(DatabaseError, match=r"notes\.db is not a SQLite database"):
        await Database.open(garbage)
    with pytest.raises(DatabaseError, match=r"notes\.db is not a SQLite database"):
        await migrate(garbage, three)

    assert garbage.read_bytes() == b"not a database" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["migrations", "notes.db"]


async def test_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(DatabaseError, match=r"nowhere is not a directory"):
        await Database.open(tmp_path / "nowhere" / "league.db")


async def test_a_directory_is_not_a_database(tmp_path):
    with pytest.raises(DatabaseError, match=r"is a directory, not a SQLite database"):
        await Database.open(tmp_path)


async def test_an_empty_file_becomes_a_database(db_path, three):
    db_path.touch()
    assert await migrate(db_path, three) == 3


async def test_an_unwritable_directory_is_refused(tmp_path, monkeypatch):
    # chmod means nothing to root (these tests may run as root), so ask os.access.
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != locked and real_access(p, mode))

    with pytest.raises(DatabaseError, match=r"directory .*locked is not writable"):
        await Database.open(locked / "league.db")
    assert list(locked.iterdir()) == []
