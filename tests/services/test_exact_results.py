"""R6.1 Decision and R6.3 through the whole stack: exact TNS, stored and migrated.

The tie that binary floats got wrong (W scoring exactly X + Y on every game,
R7.3 Case 2) is played as a real league night (services over a
real SQLite file), and a database written before scores were exact is
converted by migration 0002 to the same exact values.
"""

from __future__ import annotations

import sqlite3
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest

from bot.database import Database
from bot.migrate import DEFAULT_MIGRATIONS as MIGRATIONS
from bot.migrate import migrate
from bot.repositories import results
from bot.repositories._rows import fraction_of, fraction_text
from bot.services import approvals, finalize, machine_list, picks, scores, setup, standings
from cogs.money import money
from tests.moments import SETTING_AT
from tests.services.conftest import COMMISSIONER, GUILD, SEASON_START, add_players, at, discord_id

NIGHT = SEASON_START
M = 1_000_000
PARS = [30 * M, 70 * M, 3 * M, 90 * M, 7 * M]
X = [20 * M, 13 * M, 19 * M, 20 * M, 15 * M]
Y = [19 * M, 4 * M, 11 * M, 1 * M, 14 * M]
W = [a + b for a, b in zip(X, Y, strict=True)]  # exactly X + Y on every game


async def play_the_reproduction(db: Database) -> None:
    """P1 (W, rank 1), P2 (X), P3 (Y) on five machines with the reproduction's
    pars; bonus points from week 1 so that week 1 plays like its week 4."""
    await setup.change_setting(db, GUILD, "bonus_start_week", 1, now=SETTING_AT)
    await add_players(db, 3)
    for number, par in enumerate(PARS, start=1):
        await machine_list.add_machine(db, GUILD, f"M{number}", par=par, now=at(date(2026, 1, 2)))
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    for number, row in ((1, W), (2, X), (3, Y)):
        for game, score in enumerate(row, start=1):
            await scores.submit(db, GUILD, discord_id(number), game, score, now=at(NIGHT, "20:00"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(NIGHT, "22:00"))
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))


async def stored_results(db: Database) -> dict[str, tuple[int, int, Fraction]]:
    """Each player's stored (bonus, TLP, TNS) for week 1, by name."""
    async with db.read() as conn:
        rows = await results.results_of_season(conn, 1)
    return {f"P{r.player_id}": (r.bonus_base, r.tlp, r.tns) for r in rows}


async def test_r7_3_case2_exact_tie_gives_the_point_to_second_in_a_real_night(
    league: Database,
) -> None:
    # R7.3 Case 2: MP 15/10/5 and TNS(W) = TNS(X) + TNS(Y) exactly: the extra
    # point goes to X, so bonus 3/3/0 and TLP 18/13/5 (floats gave 4/2/0).
    db = league
    await play_the_reproduction(db)
    stored = await stored_results(db)
    assert {p: (bonus, tlp) for p, (bonus, tlp, _) in stored.items()} == {
        "P1": (3, 18),
        "P2": (3, 13),
        "P3": (0, 5),
    }
    assert stored["P1"][2] == stored["P2"][2] + stored["P3"][2]
    table = await standings.standings(db, GUILD)
    assert [(row.player.name, row.league_points) for row in table] == [
        ("P1", 18),
        ("P2", 13),
        ("P3", 5),
    ]
    assert table[0].tns == table[1].tns + table[2].tns


async def test_r6_3_each_game_keeps_the_par_it_was_scored_with(league: Database) -> None:
    db = league
    await play_the_reproduction(db)
    await machine_list.set_par(db, GUILD, "M3", 4 * M)  # a later par change (R6.3)
    before = await stored_results(db)
    async with db.read() as conn:
        pars = [row[0] for row in await conn.execute_fetchall(
            "SELECT DISTINCT r.par FROM game_results r JOIN games g ON g.id = r.game_id"
            " ORDER BY g.number"
        )]  # fmt: skip
    assert pars == PARS
    assert await stored_results(db) == before
    # Each night's exact TNS is the sum of its games' exact normalized scores.
    async with db.read() as conn:
        games = await results.game_results_of_night(conn, 1)
    for player, (_, _, tns) in before.items():
        assert sum(g.normalized for g in games if f"P{g.player_id}" == player) == tns


def as_written_before_exact_scores(path: Path) -> None:
    """Turn a database into what schema version 1 kept: no par per game, no exact
    TNS, and nothing a later migration added (found by comparing with 0001's
    schema, so a new migration needs no change here)."""
    first = sqlite3.connect(":memory:")
    first.executescript((MIGRATIONS / "0001_initial.sql").read_text())
    kept = {name: _columns(first, name) for name in _tables(first)}
    indexes = set(_indexes(first))
    first.close()
    with sqlite3.connect(path) as conn:
        for index in set(_indexes(conn)) - indexes:  # a later one may name a later column
            conn.execute(f"DROP INDEX {index}")
        for table in _tables(conn):
            if table not in kept:
                conn.execute(f"DROP TABLE {table}")
                continue
            for column in _columns(conn, table) - kept[table]:
                conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        conn.execute("PRAGMA user_version = 1")
    conn.close()


def _tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    return [row[0] for row in rows]


def _indexes(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
    return [row[0] for row in rows]


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


async def test_r6_1_migration_0002_converts_a_database_to_exact_values(
    league: Database, tmp_path: Path
) -> None:
    db = league
    await play_the_reproduction(db)
    exact = await stored_results(db)
    await db.close()
    path = tmp_path / "league.sqlite3"
    as_written_before_exact_scores(path)

    assert await migrate(path) >= 2
    again = await Database.open(path)
    try:
        assert await stored_results(again) == exact
        async with again.read() as conn:
            pars = await conn.execute_fetchall("SELECT DISTINCT par FROM game_results ORDER BY par")
        assert sorted(row[0] for row in pars) == sorted(PARS)
        # The converted database plays on: standings read the exact TNS.
        table = await standings.standings(again, GUILD)
        assert table[0].tns == table[1].tns + table[2].tns
    finally:
        await again.close()


def test_r6_1_stored_text_round_trips_exactly() -> None:
    for value in (Fraction(0), Fraction(10**19, 7), Fraction(10**19, 3) * 5, Fraction(5)):
        assert fraction_of(fraction_text(value)) == value
    for corrupt in ("1.5", "1/0", ""):
        with pytest.raises(ValueError, match="not a stored exact"):
            fraction_of(corrupt)


async def test_r6_3_recomputing_a_night_keeps_the_pars_it_was_finalized_with(
    league: Database,
) -> None:
    # R6.3: the par of M3 changes after week 1 is final; dues recorded for week 1
    # then recompute its payout (R10.2), but every game keeps the par it was
    # scored with, so no TNS, bonus or tie-break moves.
    db = league
    await play_the_reproduction(db)
    before = await stored_results(db)
    await machine_list.set_par(db, GUILD, "M3", 4 * M)
    await money.record_dues(db, GUILD, "P1", 1, by=COMMISSIONER, now=at(NIGHT, "23:30"))
    assert await stored_results(db) == before
    async with db.read() as conn:
        pars = sorted(set((await results.pars_of_night(conn, 1)).values()))
    assert pars == sorted(PARS)
