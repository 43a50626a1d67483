"""The audit trail of score changes with the week, game and player they touched (R12.4)."""

from __future__ import annotations

import json

import aiosqlite

from bot.models import AuditEntry
from bot.repositories._rows import many
from bot.repositories.scores import score_change

# Filters are optional: NULL matches every week or player; ?3 is a JSON list of
# player ids (a name may belong to a current and a removed player). Newest first.
CHANGES = (
    "SELECT c.*, t.week AS week, g.number AS game_number, p.name AS player_name,"
    " p.removed_at IS NOT NULL AS player_removed"
    " FROM score_changes c JOIN games g ON g.id = c.game_id"
    " JOIN night_groups n ON n.id = g.group_id JOIN nights t ON t.id = n.night_id"
    " JOIN players p ON p.id = c.player_id"
    " WHERE t.season_id = ?1 AND (?2 IS NULL OR t.week = ?2)"
    " AND (?3 IS NULL OR c.player_id IN (SELECT value FROM json_each(?3)))"
    " ORDER BY c.id DESC"
)


def _entry(row: aiosqlite.Row) -> AuditEntry:
    name = row["player_name"] + (" (removed)" if row["player_removed"] else "")
    return AuditEntry(score_change(row), row["week"], row["game_number"], name)


async def changes(
    conn: aiosqlite.Connection, season_id: int, week: int | None, player_ids: list[int] | None
) -> list[AuditEntry]:
    """The season's score changes, newest first, of one week and/or of these
    players if given."""
    players = json.dumps(player_ids) if player_ids is not None else None
    return await many(conn, CHANGES, (season_id, week, players), _entry)
