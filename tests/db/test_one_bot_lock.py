"""The locks on a league's database. A running bot holds `<database>.lock` (an
exclusive flock, its process id written in it) until it stops, so a second
`league-bot run` on the same database stops with one line naming the first;
the lock file goes when the bot stops, and one left by a killed bot is taken
over. While `league-bot restore` holds the database file itself, a bot does
not open it. The files the bot makes are plain data files, never executable."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.database import Database
from bot.database_errors import DatabaseError, DatabaseFileError
from bot.database_files import AlreadyRunning, OneBot


def lock_of(database: Path) -> Path:
    return database.with_name(f"{database.name}.lock")


def held_by(path: Path) -> int:
    """An exclusive flock on `path` taken the way another process would take it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def refused_again(database: Path) -> str:
    with pytest.raises(AlreadyRunning) as refused:
        OneBot.hold(database)
    return str(refused.value)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "league.sqlite3"


def running(database: Path) -> OneBot:
    held = OneBot.hold(database)
    assert held is not None
    return held


def test_the_bot_holds_a_lock_file_with_its_process_id_until_it_stops(database: Path) -> None:
    held = running(database)
    try:
        assert lock_of(database).read_text() == f"{os.getpid()}\n"
    finally:
        held.release()
    assert not lock_of(database).exists()  # nothing left behind
    running(database).release()  # the next start takes it at once


def test_a_second_bot_is_refused_in_one_line_naming_the_first(database: Path) -> None:
    held = running(database)
    try:
        assert refused_again(database) == (
            f"another league-bot (process {os.getpid()}) is already running on {database}; "
            "one bot per database: stop the other first"
        )
        assert lock_of(database).read_text() == f"{os.getpid()}\n"  # untouched by the refusal
    finally:
        held.release()


@pytest.mark.parametrize(
    "content", [b"", b"\xff\xfe not a process id\n"], ids=["not written yet", "not a process id"]
)
def test_a_lock_without_a_process_id_refuses_without_naming_one(
    database: Path, content: bytes
) -> None:
    """The other bot between taking its lock and writing its process id (an
    empty file), or something else in the file: refused all the same."""
    lock_of(database).write_bytes(content)
    fd = held_by(lock_of(database))
    try:
        assert refused_again(database) == (
            f"another league-bot is already running on {database}; one bot per database: "
            "stop the other first"
        )
    finally:
        os.close(fd)


def test_the_lock_file_of_a_killed_bot_is_taken_over(database: Path) -> None:
    """A bot killed with SIGKILL leaves its file (its flock went with it): the
    next bot takes the file and writes its own process id over the old one."""
    lock_of(database).write_text("4194304999\n")  # a longer process id than ours
    held = running(database)
    try:
        assert lock_of(database).read_text() == f"{os.getpid()}\n"
        assert refused_again(database).startswith(f"another league-bot (process {os.getpid()}) ")
    finally:
        held.release()


def test_a_lock_file_removed_just_after_it_was_opened_is_made_anew(
    database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot before this one stops, and removes its lock file, just after this
    one opened it: this one must not hold a file that is no longer at the path
    (a third bot would make a new one and run too), so it opens the new one."""
    lock = lock_of(database)
    lock.write_text("12345\n")
    real_open, released = os.open, []

    def open_then_the_other_bot_releases(path, flags, mode=0o777, *, dir_fd=None):  # type: ignore[no-untyped-def]
        fd = real_open(path, flags, mode, dir_fd=dir_fd)
        if os.fspath(path) == str(lock) and not released:
            os.unlink(lock)  # what the other bot's `release()` does
            released.append(fd)
        return fd

    monkeypatch.setattr(os, "open", open_then_the_other_bot_releases)
    held = running(database)
    monkeypatch.undo()
    try:
        assert released
        assert lock.read_text() == f"{os.getpid()}\n"
        assert refused_again(database).startswith(f"another league-bot (process {os.getpid()}) ")
    finally:
        held.release()
    assert not lock.exists()


def test_stopping_after_the_lock_file_was_deleted_by_hand_is_quiet(database: Path) -> None:
    held = running(database)
    lock_of(database).unlink()
    held.release()  # no error at the very end of a clean stop
    running(database).release()


def test_a_lock_file_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    database = tmp_path / "nowhere" / "league.sqlite3"
    with pytest.raises(DatabaseFileError) as refused:
        OneBot.hold(database)
    assert str(refused.value) == (
        f"cannot make the lock file {database}.lock: No such file or directory"
    )


# --- the database file while `league-bot restore` holds it -------------------------------


async def test_a_bot_does_not_open_a_database_being_restored(database: Path) -> None:
    sqlite3.connect(database).execute("CREATE TABLE t (x)").connection.close()
    fd = held_by(database)  # what `league-bot restore` holds while it copies
    try:
        with pytest.raises(DatabaseError) as refused:
            await Database.open(database)
        assert str(refused.value) == (
            f"database {database} is being restored; start the bot when that is done"
        )
    finally:
        os.close(fd)
    db = await Database.open(database)  # the refused start let go of the file
    await db.close()


# --- the files' modes -------------------------------------------------------------------


@pytest.fixture
def usual_umask() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def mode(path: Path) -> str:
    return stat.filemode(os.stat(path).st_mode)


@pytest.mark.usefixtures("usual_umask")
async def test_the_database_and_lock_files_the_bot_makes_are_not_executable(
    database: Path,
) -> None:
    held = running(database)
    try:
        assert mode(lock_of(database)) == "-rw-r--r--"
        db = await Database.open(database)
        await db.close()
        assert mode(database) == "-rw-r--r--"
    finally:
        held.release()
