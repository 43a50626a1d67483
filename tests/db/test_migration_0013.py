"""Migration 0013: a league upgraded while per-score approval posts were still
about. Every waiting score ends up on a card, each per-score post still owed
is dropped, and the card is owed instead (R3.1, R5)."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

from bot.database import Database
from bot.migrate import migrate
from bot.services import premakeups, scores, setup
from cogs.scorecards import scorecards
from tests.services.conftest import GUILD, SEASON_START, at
from tests.services.test_scores import NIGHT, P, locked_league

WHY = "replaced by the approval card"


async def league_with_old_posts(path: Path) -> None:
    """Six players in two groups. P1 (group 1) and P4 (group 2) each sent a
    score; P2 sent a pre-makeup score late on 3 January (New York time). Then
    the database is put back as version 12 left a league from before the cards
    for group 2 and the pre-makeup: no card for them, and their own posts owed
    (P4's post failed, P2's waiting); group 1's card was sent, and an edit of
    P1's old post waits."""
    await migrate(path)
    db = await Database.open(path)
    try:
        await setup.create_league(db, GUILD, "Koi's", now=at(SEASON_START))
        await setup.start_season(db, GUILD, "Spring", SEASON_START, now=at(SEASON_START))
        late_on_the_3rd = at(date(2026, 1, 3), "22:30")  # 03:30 UTC on the 4th
        await locked_league(db, 6)
        await premakeups.submit(db, GUILD, P[2], "Machine A", 5_000, [P[1]], now=late_on_the_3rd)
        await scores.submit(db, GUILD, P[1], 1, 1_000_000, now=at(NIGHT, "20:00"))
        await scores.submit(db, GUILD, P[4], 1, 2_000_000, now=at(NIGHT, "20:00"))
    finally:
        await db.close()
    with sqlite3.connect(path) as conn:
        (group_1_card,) = conn.execute(
            "SELECT c.id FROM approval_cards c JOIN scores s ON s.id = 1"
            " JOIN games g ON g.id = s.game_id WHERE c.group_id = g.group_id"
        ).fetchone()
        conn.execute("DELETE FROM outbox")
        conn.execute("UPDATE pre_makeups SET card_id = NULL")
        conn.execute("DELETE FROM approval_cards WHERE id != ?", (group_1_card,))
        conn.execute("UPDATE approval_cards SET message_id = 777 WHERE id = ?", (group_1_card,))
        owed = "INSERT INTO outbox (guild_id, target, kind, ref, status, created_at)"
        owed += " VALUES (?, 'approvals', ?, ?, ?, '2026-01-08T01:00:00+00:00')"
        conn.execute(owed, (GUILD, "approval_update", "score:1", "pending"))
        conn.execute(owed, (GUILD, "approval", "score:2", "failed"))
        conn.execute(owed, (GUILD, "approval", "premakeup:1", "pending"))
        conn.execute("DELETE FROM schema_migrations WHERE version >= 13")
        conn.execute("PRAGMA user_version = 12")


async def test_every_waiting_score_is_on_a_card_after_0013(tmp_path: Path) -> None:
    path = tmp_path / "league.sqlite3"
    await league_with_old_posts(path)
    assert await migrate(path, up_to=13) == 13
    db = await Database.open(path)
    try:
        async with db.read() as conn:
            found = [tuple(r) for r in await conn.execute_fetchall(
                "SELECT id, group_id IS NOT NULL, day, message_id FROM approval_cards ORDER BY id"
            )]  # fmt: skip
            outbox = [tuple(r) for r in await conn.execute_fetchall(
                "SELECT kind, ref, status, last_error FROM outbox ORDER BY id"
            )]  # fmt: skip
        [group_1, group_2, day] = [card_id for card_id, *_ in found]
        assert [rest for _, *rest in found] == [
            [1, None, 777],  # group 1's card, sent before
            [1, None, None],  # group 2's, made now
            [0, "2026-01-03", None],  # P2's card of the day, the league's day (not UTC's)
        ]
        assert outbox == [
            ("approval_update", "score:1", "dropped", WHY),
            ("approval", "score:2", "dropped", WHY),
            ("approval", "premakeup:1", "dropped", WHY),
            ("approval", f"card:{group_2}", "pending", None),
            ("approval", f"card:{day}", "pending", None),
            ("approval_update", f"card:{group_1}", "pending", None),
        ]
        group_2_card = await scorecards.card(db, group_2)
        assert group_2_card is not None and [line.player for line in group_2_card.waiting] == ["P4"]
        day_card = await scorecards.card(db, day)
        assert day_card is not None and [line.score for line in day_card.waiting] == [5_000]
    finally:
        await db.close()


async def test_0013_changes_nothing_in_a_league_that_only_ever_had_cards(tmp_path: Path) -> None:
    path = tmp_path / "league.sqlite3"
    await migrate(path)
    db = await Database.open(path)
    try:
        await setup.create_league(db, GUILD, "Koi's", now=at(SEASON_START))
        await setup.start_season(db, GUILD, "Spring", SEASON_START, now=at(SEASON_START))
        await locked_league(db, 3)
        await scores.submit(db, GUILD, P[1], 1, 1_000_000, now=at(NIGHT, "20:00"))
    finally:
        await db.close()
    with sqlite3.connect(path) as conn:
        before = list(conn.iterdump())
        conn.execute("DELETE FROM schema_migrations WHERE version >= 13")
        conn.execute("PRAGMA user_version = 12")
    assert await migrate(path, up_to=13) == 13
    with sqlite3.connect(path) as conn:
        after = [line for line in conn.iterdump() if "schema_migrations" not in line]
    assert after == [line for line in before if "schema_migrations" not in line]
