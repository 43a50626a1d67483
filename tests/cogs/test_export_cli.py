"""`league-bot export --database FILE --out DIR`: the same files as
/league admin export, with no Discord and no token, run as a real process
while the bot's own connection holds the database open."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

from bot.services import setup
from cogs.closing import closing
from cogs.exports import exports
from cogs.exports.exports import FILES
from cogs.exports.exports_text import csv_bytes
from tests.cogs.fakes import GUILD, FakeBot
from tests.cogs.test_exports_cog import LATER, played

ROOT = Path(__file__).resolve().parents[2]


async def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    return await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot", "export", *args], capture_output=True,
        text=True, cwd=ROOT, check=False, timeout=120, env=env,
    )  # fmt: skip


def database(bot: FakeBot) -> str:
    return str(bot.db.path)


async def test_the_command_line_writes_the_csv_files_and_the_zip(
    league: FakeBot, tmp_path: Path
) -> None:
    bot = await played(league)
    out = tmp_path / "out"
    done = await cli("--database", database(bot), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout == f"Wrote 11 CSV files of Spring and their zip league-spring.zip to {out}.\n"
    )
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{name}.csv" for name in FILES] + ["league-spring.zip"]
    )
    expected = await exports.export_season(bot.db, GUILD)
    for table in expected.tables:  # the same bytes as the bot would attach
        assert (out / f"{table.name}.csv").read_bytes() == csv_bytes(table), table.name
    with zipfile.ZipFile(out / "league-spring.zip") as archive:
        scores = archive.read("scores.csv").decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(scores, newline="")))
    assert {r["player"] for r in rows} == {f"P{n}" for n in range(1, 7)}


async def test_a_past_season_by_name(league: FakeBot, tmp_path: Path) -> None:
    bot = await played(league)
    await closing.close(bot.db, GUILD, confirm=True, now=LATER)
    await setup.start_season(bot.db, GUILD, "Summer", LATER.date().replace(month=6, day=3),
                             now=LATER)  # fmt: skip
    out = tmp_path / "spring"
    done = await cli("--database", database(bot), "--out", str(out), "--season", "SPRING")
    assert done.returncode == 0, done.stderr
    results = (out / "results.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(results) == 1 + 12  # the header, six players on each of two nights


async def refused(*args: str) -> str:
    done = await cli(*args)
    assert done.returncode == 1 and done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr  # one line
    return done.stderr.strip()


async def test_the_command_line_refuses_in_one_line(league: FakeBot, tmp_path: Path) -> None:
    bot = league
    out = str(tmp_path / "out")
    missing = tmp_path / "nowhere.sqlite3"
    assert await refused("--database", str(missing), "--out", out) == (
        f"league-bot: there is no database at {missing}"
    )
    assert not missing.exists()  # not created
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    assert await refused("--database", str(text), "--out", out) == (
        f"league-bot: {text} is not a SQLite database"
    )
    empty = tmp_path / "empty.sqlite3"
    sqlite3.connect(empty).execute("CREATE TABLE t (x)").connection.close()
    assert await refused("--database", str(empty), "--out", out) == (
        f"league-bot: {empty} is not a league database (schema version 0)"
    )
    assert await refused("--database", database(bot), "--out", out, "--season", "Winter") == (
        "league-bot: There is no season called 'Winter'. Seasons: Spring."
    )
    assert not (tmp_path / "out").exists()  # nothing written


async def test_an_older_database_is_refused_not_upgraded(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite3"
    sqlite3.connect(old).execute("PRAGMA user_version = 1").connection.close()
    assert await refused("--database", str(old), "--out", str(tmp_path / "out")) == (
        f"league-bot: {old} has schema version 1, older than this bot "
        f"({await latest()}); start the bot once (it upgrades the database), then export"
    )
    (version,) = sqlite3.connect(old).execute("PRAGMA user_version").fetchone()
    assert version == 1


async def latest() -> int:
    from bot.migrate import load_migrations

    return load_migrations()[-1].version


async def test_a_league_without_a_running_season_names_its_seasons(
    league: FakeBot, tmp_path: Path
) -> None:
    bot = league
    out = str(tmp_path / "o")
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE seasons SET status = 'closed'")
    assert await refused("--database", database(bot), "--out", out) == (
        "league-bot: There is no season running; name one with --season: Spring."
    )
    await setup.start_season(bot.db, GUILD, "Summer", LATER.date(), now=LATER)
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE seasons SET status = 'closed'")
    assert await refused("--database", database(bot), "--out", out) == (
        "league-bot: There is no season running; name one with --season: Spring, Summer."
    )


async def test_a_file_with_several_leagues_needs_the_server_named(
    league: FakeBot, tmp_path: Path
) -> None:
    bot = league
    await setup.create_league(bot.db, 42, "Other League", now=LATER)
    assert await refused("--database", database(bot), "--out", str(tmp_path / "o")) == (
        f"league-bot: {database(bot)} holds several leagues; pick one with --guild: {GUILD}, 42."
    )
    assert (
        await refused("--database", database(bot), "--out", str(tmp_path / "o"), "--guild", "7")
        == f"league-bot: {database(bot)} holds no league of the Discord server 7."
    )
    done = await cli("--database", database(bot), "--out", str(tmp_path / "o"),
                     "--guild", str(GUILD))  # fmt: skip
    assert done.returncode == 0, done.stderr


async def test_a_file_with_no_league_says_so(bot: FakeBot, tmp_path: Path) -> None:
    """The bot's database before `/league season setup`: nothing to export."""
    assert await refused("--database", database(bot), "--out", str(tmp_path / "o")) == (
        f"league-bot: {database(bot)} holds no league yet."
    )


async def test_a_league_with_no_season_yet_says_so(bot: FakeBot, tmp_path: Path) -> None:
    await setup.create_league(bot.db, GUILD, "League", now=LATER)
    assert await refused("--database", database(bot), "--out", str(tmp_path / "o")) == (
        "league-bot: There is no season running; name one with --season: none yet."
    )
