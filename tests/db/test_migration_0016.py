"""Migration 0016: a playoff bracket's matches and games (R13.3) hold what the
rules allow: each match once per round and slot, no machine twice in a match,
both scores or neither, and never an exact tie (it is replayed)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.migrate import migrate
from tests.db.playoff_rows import PLAYOFF_NIGHT


async def test_a_bracket_holds_only_what_the_rules_allow(tmp_path: Path) -> None:
    database = tmp_path / "league.sqlite3"
    assert await migrate(database) >= 16
    with sqlite3.connect(database) as conn:
        conn.executescript(
            PLAYOFF_NIGHT
            + "INSERT INTO players (id, league_id, name, joined_at) VALUES (1, 1, 'A', 'x');"
            "INSERT INTO players (id, league_id, name, joined_at) VALUES (2, 1, 'B', 'x');"
            "INSERT INTO machines (id, league_id, name, added_at) VALUES (1, 1, 'M1', 'x');"
            "INSERT INTO machines (id, league_id, name, added_at) VALUES (2, 1, 'M2', 'x');"
        )
        match = (
            "INSERT INTO playoff_matches (id, night_id, pool, round, slot, high_id, low_id)"
            " VALUES (?, 9, '', ?, 1, ?, ?)"
        )
        conn.execute(match, (1, "final", 1, 2))
        for bad in ((2, "final", 2, 1), (3, "quarterfinal", 1, 2), (4, "third", 1, 1)):
            with pytest.raises(sqlite3.IntegrityError):  # twice, no such round, one player
                conn.execute(match, bad)
        game = (
            "INSERT INTO playoff_games (match_id, game, machine_id, picked_by) VALUES (1, ?, ?, 1)"
        )
        conn.execute(game, (1, 1))
        with pytest.raises(sqlite3.IntegrityError):  # no machine twice in a match
            conn.execute(game, (2, 1))
        play = (
            "UPDATE playoff_games SET high_score = ?, low_score = ?, played_at = ? WHERE game = 1"
        )
        for bad in ((5, 5, "t"), (5, None, "t"), (5, 4, None), (-1, 4, "t"), (1.5, 4, "t")):
            with pytest.raises(sqlite3.IntegrityError):  # a tie, one score, no time, not a score
                conn.execute(play, bad)
        conn.execute(play, (5, 4, "t"))
