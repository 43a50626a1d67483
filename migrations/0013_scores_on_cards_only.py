"""Every score waiting for approval is on a card; the per-score posts are retired.

Before the approval cards (0007) the bot posted each score, and each pre-makeup
score, on its own with Approve and Reject buttons. From now on only the cards
decide. This migration, for a league upgraded with such posts still about:

- a pending score whose group has no card gets its group's card, owed as a new
  post (the card shows every score of the group, this one waiting);
- a pending pre-makeup score on no card is put on its player's card of the day
  it was submitted (the league's local day, as the bot files them), made and
  owed as a new post if that card does not exist yet;
- a per-score post or edit still owed, or failed ('score:12', 'premakeup:3'),
  is dropped: its score is on its card, which is owed an update instead (or is
  owed as a new post, above).

The old posts already sent stay in the channel; their buttons answer that the
card replaces them (bot/components/approvals.py).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import aiosqlite

NOW = "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')"  # as the bot stamps its rows, in UTC
WHY = "replaced by the approval card"

GROUPS_WITHOUT_CARD = """
SELECT DISTINCT g.group_id, l.guild_id FROM scores s
JOIN games g ON g.id = s.game_id
JOIN night_groups ng ON ng.id = g.group_id
JOIN nights n ON n.id = ng.night_id
JOIN seasons se ON se.id = n.season_id
JOIN leagues l ON l.id = se.league_id
LEFT JOIN approval_cards c ON c.group_id = g.group_id
WHERE s.status = 'pending' AND c.id IS NULL
ORDER BY g.group_id
"""
PRE_MAKEUPS_WITHOUT_CARD = """
SELECT p.id, p.season_id, p.player_id, p.submitted_at, l.guild_id, l.time_zone
FROM pre_makeups p
JOIN seasons se ON se.id = p.season_id
JOIN leagues l ON l.id = se.league_id
WHERE p.status = 'pending' AND p.card_id IS NULL
ORDER BY p.id
"""
OLD_POSTS_OWED = """
SELECT id, guild_id, ref FROM outbox
WHERE kind IN ('approval', 'approval_update') AND status IN ('pending', 'sending', 'failed')
  AND (ref GLOB 'score:[0-9]*' OR ref GLOB 'premakeup:[0-9]*')
ORDER BY id
"""
CARD_OF_SCORE = """
SELECT c.id FROM scores s JOIN games g ON g.id = s.game_id
JOIN approval_cards c ON c.group_id = g.group_id WHERE s.id = ?
"""
CARD_OF_PRE_MAKEUP = "SELECT card_id FROM pre_makeups WHERE id = ?"
OWE = (
    "INSERT INTO outbox (guild_id, target, kind, ref, created_at)"
    f" VALUES (?, 'approvals', ?, ?, {NOW}) ON CONFLICT DO NOTHING"
)


async def upgrade(conn: aiosqlite.Connection) -> None:
    new_cards: set[int] = set()
    for group_id, guild_id in await conn.execute_fetchall(GROUPS_WITHOUT_CARD):
        cursor = await conn.execute("INSERT INTO approval_cards (group_id) VALUES (?)", (group_id,))
        card_id = cursor.lastrowid
        assert card_id is not None
        new_cards.add(card_id)
        await conn.execute(OWE, (guild_id, "approval", f"card:{card_id}"))
    for (
        pre_makeup_id,
        season_id,
        player_id,
        submitted,
        guild_id,
        zone,
    ) in await conn.execute_fetchall(PRE_MAKEUPS_WITHOUT_CARD):
        day = datetime.fromisoformat(submitted).astimezone(ZoneInfo(zone)).date().isoformat()
        found = list(await conn.execute_fetchall(
            "SELECT id FROM approval_cards WHERE season_id = ? AND player_id = ? AND day = ?",
            (season_id, player_id, day),
        ))  # fmt: skip
        if found:
            card_id = found[0][0]
        else:
            cursor = await conn.execute(
                "INSERT INTO approval_cards (season_id, player_id, day) VALUES (?, ?, ?)",
                (season_id, player_id, day),
            )
            card_id = cursor.lastrowid
            assert card_id is not None
            new_cards.add(card_id)
            await conn.execute(OWE, (guild_id, "approval", f"card:{card_id}"))
        await conn.execute(
            "UPDATE pre_makeups SET card_id = ? WHERE id = ?", (card_id, pre_makeup_id)
        )
    for item_id, guild_id, ref in await conn.execute_fetchall(OLD_POSTS_OWED):
        await conn.execute(
            f"UPDATE outbox SET status = 'dropped', last_error = ?, sent_at = {NOW} WHERE id = ?",
            (WHY, item_id),
        )
        kind, _, number = ref.partition(":")
        sql = CARD_OF_SCORE if kind == "score" else CARD_OF_PRE_MAKEUP
        rows = list(await conn.execute_fetchall(sql, (int(number),)))
        card_id = rows[0][0] if rows else None
        if card_id is not None and card_id not in new_cards:
            await conn.execute(OWE, (guild_id, "approval_update", f"card:{card_id}"))
