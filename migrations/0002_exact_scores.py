"""R6.1 Decision and R6.3: make stored normalized scores and TNS exact.

Until now a game result kept its normalized score as a binary float, and a
night's TNS as a float sum. This migration stores what makes them exact:

- `game_results.par`: the par the night was scored with (R6.3: later par
  changes do not rewrite it). Recovered for existing rows from the score and
  the stored normalized value (raw × 1,000,000 / par, rounded to the whole
  par it was computed from); NULL where the normalized score is 0, which
  needs no par.
- `night_results.tns_exact`: the night's TNS as an exact fraction
  ("numerator/denominator"), recomputed for existing rows from its games.

The float columns stay, as values to show and to read with `sqlite3`; the bot
never compares them.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import aiosqlite

SCORED = ("live", "pre_makeup")  # sources whose score counts (R3.4, R3.6: the rest are 0)


async def upgrade(conn: aiosqlite.Connection) -> None:
    await conn.execute(
        "ALTER TABLE game_results ADD COLUMN par INTEGER CHECK (par IS NULL OR par > 0)"
    )
    await conn.execute("ALTER TABLE night_results ADD COLUMN tns_exact TEXT")
    await conn.execute(
        "UPDATE game_results SET par = CAST(round(score * 1000000.0 / normalized) AS INTEGER)"
        " WHERE normalized > 0 AND score > 0"
    )
    rows = await conn.execute_fetchall(
        "SELECT n.night_id, r.player_id, r.score, r.source, r.par FROM game_results r"
        " JOIN games g ON g.id = r.game_id JOIN night_groups n ON n.id = g.group_id"
    )
    tns: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for night_id, player_id, score, source, par in rows:
        if source in SCORED and par:
            tns[(night_id, player_id)] += Fraction(score * 1_000_000, par)
    results = await conn.execute_fetchall("SELECT night_id, player_id FROM night_results")
    await conn.executemany(
        "UPDATE night_results SET tns_exact = ? WHERE night_id = ? AND player_id = ?",
        [(str(tns[(night_id, player_id)]), night_id, player_id) for night_id, player_id in results],
    )
