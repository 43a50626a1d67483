"""Migration 0017: a bracket match's card (R13.3) is one per place in a
division's bracket, and one edit of it waits at a time (later ones are the
same edit: it is worded when sent)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.migrate import migrate
from tests.db.playoff_rows import PLAYOFF_NIGHT


async def test_one_card_per_place_in_the_bracket_and_one_waiting_edit(tmp_path: Path) -> None:
    database = tmp_path / "league.sqlite3"
    assert await migrate(database) >= 17
    with sqlite3.connect(database) as conn:
        conn.executescript(PLAYOFF_NIGHT)
        card = "INSERT INTO match_cards (night_id, pool, round, slot) VALUES (9, ?, ?, ?)"
        conn.execute(card, ("A", "semifinal", 1))
        conn.execute(card, ("A", "semifinal", 2))
        conn.execute(card, ("B", "semifinal", 1))
        for bad in (("A", "semifinal", 1), ("C", "final", 1), ("A", "quarterfinal", 1),
                    ("A", "final", 3)):  # fmt: skip
            with pytest.raises(sqlite3.IntegrityError):  # twice, no such division/round/slot
                conn.execute(card, bad)
        edit = (
            "INSERT INTO outbox (guild_id, target, kind, ref, created_at, status)"
            " VALUES (5, 'announcements', 'match_card_update', ?, 'now', ?)"
        )
        conn.execute(edit, ("matchcard:1", "pending"))
        with pytest.raises(sqlite3.IntegrityError):  # a second waiting edit of card 1
            conn.execute(edit, ("matchcard:1", "pending"))
        conn.execute(edit, ("matchcard:2", "pending"))  # another card's
        conn.execute(edit, ("matchcard:1", "sent"))  # one already sent is history
