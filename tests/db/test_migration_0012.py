"""Migration 0012: a league whose scores kept only Discord's photo links (0005)
gets the table of kept copies; its older scores still show their link, marked as
possibly expired, and its new ones keep a copy."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.database import Database
from bot.migrate import migrate
from bot.models import Photo
from bot.services import scores, setup
from cogs.scorecards import scorecards
from cogs.scorecards.scorecards_outcomes import CardPhoto
from cogs.scorecards.scorecards_text import card_embeds
from tests.services.conftest import GUILD, SEASON_START, at
from tests.services.test_scores import NIGHT, P, locked_league

OLD = "https://cdn.discordapp.com/attachments/1/2/display.jpg?ex=67a1b2c3&is=67a06143&hm=ab&"


async def test_a_score_with_only_its_old_link_keeps_showing_it_after_0012(tmp_path: Path) -> None:
    path = tmp_path / "league.sqlite3"
    await migrate(path)
    db = await Database.open(path)
    try:
        await setup.create_league(db, GUILD, "Koi's", now=at(SEASON_START))
        await setup.start_season(db, GUILD, "Spring", SEASON_START, now=at(SEASON_START))
        await locked_league(db, 3)
        view = await scores.submit(db, GUILD, P[1], 1, 1_000_000, now=at(NIGHT, "20:00"))
    finally:
        await db.close()
    with sqlite3.connect(path) as conn:  # the database as version 11 left it
        conn.execute("UPDATE scores SET photo_url = ? WHERE id = ?", (OLD, view.score.id))
        conn.execute("DROP TABLE score_photos")
        conn.execute("DELETE FROM schema_migrations WHERE version >= 12")
        conn.execute("PRAGMA user_version = 11")
    assert (
        await migrate(path, up_to=13) == 13
    )  # 0012, then 0013 (the score is on its card: no change)
    db = await Database.open(path)
    try:
        [card_id] = [row[0] for row in await _rows(db, "SELECT id FROM approval_cards")]
        card = await scorecards.card(db, card_id)
        assert card is not None and card.games[0].lines[0].photo == CardPhoto(old_link=OLD)
        [embed] = card_embeds(card, GUILD, 1)
        assert f"[📷 old link]({OLD})" in embed.fields[0].value
        assert embed.description is not None
        assert embed.description.endswith("📷 photo (an old link may have expired)")
        new = await scores.submit(db, GUILD, P[2], 1, 2_000_000,
                                  photo=Photo(b"\xff\xd8kept\xff\xd9", "jpeg", 1, 1),
                                  now=at(NIGHT, "20:05"))  # fmt: skip
        assert await _rows(db, "SELECT score_id FROM score_photos") == [(new.score.id,)]
    finally:
        await db.close()


async def _rows(db: Database, sql: str) -> list[tuple[object, ...]]:
    async with db.read() as conn:
        return [tuple(row) for row in await conn.execute_fetchall(sql)]
