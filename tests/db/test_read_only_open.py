"""`open_read_only`: how `league-bot export` (and the photo export) reads a
league database a bot may be using: never created, never written, rows read
by column name; refused in one line when the file is missing, not SQLite,
damaged, not a league's, or at another schema version than this bot's."""

from __future__ import annotations

import errno
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.database import Database
from bot.database_errors import DatabaseError, DatabaseFileError, DatabaseTooNewError
from bot.database_files import SQLITE_HEADER, open_read_only
from bot.migrate import load_migrations, migrate
from bot.services import setup

LATEST = load_migrations()[-1].version


def contents(path: Path) -> bytes:
    return path.read_bytes()


@pytest.fixture
async def league(tmp_path: Path) -> Path:
    path = tmp_path / "league.sqlite3"
    await migrate(path)
    db = await Database.open(path)
    try:
        await setup.create_league(db, 1, "Koi's League", now=datetime(2026, 1, 1, tzinfo=UTC))
    finally:
        await db.close()
    return path


async def test_the_league_is_read_by_column_name_and_nothing_is_written(league: Path) -> None:
    before = contents(league)
    conn = await open_read_only(league, latest_version=LATEST)
    try:
        rows = await conn.execute_fetchall("SELECT name, guild_id FROM leagues")
        assert [(row["name"], row["guild_id"]) for row in rows] == [("Koi's League", 1)]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await conn.execute("DELETE FROM leagues")
    finally:
        await conn.close()
    assert contents(league) == before


def user_version(path: Path, version: int) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    return path


async def refusal(path: Path) -> DatabaseError:
    with pytest.raises(DatabaseError) as refused:
        conn = await open_read_only(path, latest_version=LATEST)
        await conn.close()
    return refused.value


async def test_a_missing_file_or_a_folder_is_no_database_and_nothing_is_created(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    refused = await refusal(missing)
    assert isinstance(refused, DatabaseFileError)
    assert str(refused) == f"there is no database at {missing}"
    assert not missing.exists()
    assert str(await refusal(tmp_path)) == f"there is no database at {tmp_path}"


async def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("a shopping list\n" * 10)
    assert str(await refusal(notes)) == f"{notes} is not a SQLite database"


async def test_a_damaged_file_is_refused(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(SQLITE_HEADER + b"\xab" * 5000)
    assert str(await refusal(damaged)) == f"cannot read database {damaged}: file is not a database"


async def test_a_file_that_cannot_be_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chmod means nothing to root (these tests may run as root): the file's
    # opening is refused as the system refuses it to a user without read access.
    path = user_version(tmp_path / "league.sqlite3", LATEST)
    real_open = Path.open

    def no_read_access(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", no_read_access)
    assert str(await refusal(path)) == f"cannot read database {path}: Permission denied"


@pytest.mark.parametrize(
    ("version", "says"),
    [
        (0, "{file} is not a league database (schema version 0)"),
        (
            1,
            "{file} has schema version 1, older than this bot ({latest}); start the bot once "
            "(it upgrades the database), then export",
        ),
        (
            LATEST - 1,
            "{file} has schema version {older}, older than this bot ({latest}); start the bot "
            "once (it upgrades the database), then export",
        ),
        (
            LATEST + 1,
            "{file} has schema version {newer}, newer than this bot ({latest}); "
            "upgrade the bot first",
        ),
    ],
    ids=["0", "1", "older", "newer"],
)
async def test_another_schema_version_is_refused_in_its_own_words(
    tmp_path: Path, version: int, says: str
) -> None:
    path = user_version(tmp_path / "league.sqlite3", version)
    refused = await refusal(path)
    assert str(refused) == says.format(file=path, latest=LATEST, older=LATEST - 1, newer=LATEST + 1)
    assert isinstance(refused, DatabaseTooNewError) == (version > LATEST)
    with sqlite3.connect(path) as conn:  # left as it was
        assert conn.execute("PRAGMA user_version").fetchone() == (version,)
    conn.close()
