"""The audit trail of score changes with the week, game and player they touched (R12.4)."""

from __future__ import annotations

import aiosqlite

from bot.models import AuditEntry
from bot.repositories._rows import many
from bot.repositories.scores import score_change

# Filters are optional: NULL matches every week or player. Newest first.
CHANGES = (
    "SELECT c.*, t.week AS week, g.number AS game_number, p.name AS player_name"
    " FROM score_changes c JOIN games g ON g.id = c.game_id"
    " JOIN night_groups n ON n.id = g.group_id JOIN nights t ON t.id = n.night_id"
    " JOIN players p ON p.id = c.player_id"
    " WHERE t.season_id = ?1 AND (?2 IS NULL OR t.week = ?2) AND (?3 IS NULL OR c.player_id = ?3)"
    " ORDER BY c.id DESC"
)



def _entry(row: aiosqlite.Row) -> AuditEntry:
    return AuditEntry(score_change(row), row["week"], row["game_number"], row["player_name"])


async def changes(
    conn: aiosqlite.Connection, season_id: int, week: int | None, player_id: int | None
) -> list[AuditEntry]:
    """The season's score changes, newest first, of one week and/or player if given."""
    return await many(conn, CHANGES, (season_id, week, player_id), _entry)
