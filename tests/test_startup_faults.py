"""A bad database at start: one clear line, a non-zero exit, the file untouched."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_bot(tmp_path: Path, database: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DISCORD_TOKEN": "x" * 59,
        "LEAGUE_GUILD_ID": "111111111111111111",
        "COMMISSIONER_ROLE_ID": "222222222222222222",
        "ANNOUNCEMENT_CHANNEL_ID": "333333333333333333",
        "APPROVALS_CHANNEL_ID": "444444444444444444",
        "DATABASE_PATH": str(database),
        # Nothing may reach Discord: point it at a closed local port.
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
        "PYTHONPATH": str(ROOT),
    }
    if "MUTANT_UNDER_TEST" in os.environ:  # a mutation run: the bot runs the same mutant
        env["MUTANT_UNDER_TEST"] = os.environ["MUTANT_UNDER_TEST"]
    settings = tmp_path.parent / f"{tmp_path.name}.env"  # outside the folder looked at
    settings.write_text("")  # an empty settings file: all comes from env
    return subprocess.run(
        [sys.executable, "-m", "bot", "run", "--env-file", str(settings)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is not a database, it is a shopping list\n" * 50, "is not a SQLite database"),
        (b"SQLite format 3\x00" + b"\xff" * 4000, "league-bot: "),
    ],
    ids=["garbage", "corrupt-header"],
)
def test_a_corrupt_database_stops_the_bot_with_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    database = tmp_path / "league.sqlite3"
    database.write_bytes(content)
    before = hashlib.sha256(content).hexdigest()
    done = run_bot(tmp_path, database)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("league-bot: ") and message in lines[0]
    assert "Traceback" not in done.stderr
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.sqlite3"]


def test_an_unwritable_database_path_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    done = run_bot(tmp_path, blocker / "league.sqlite3")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("league-bot: ")
    assert blocker.read_text() == "a file where a folder should be"
