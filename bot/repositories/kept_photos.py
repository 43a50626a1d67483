"""Scores' photos as the league keeps them (migrations/0012_score_photos_kept.sql):
the cleaned bytes, and the post in the approvals channel that shows them."""

from __future__ import annotations

import aiosqlite

from bot.models import Photo, ScorePhoto
from bot.repositories._rows import many, one, run, scalar

_KNOWN = "p.score_id, p.format, p.width, p.height, p.size, p.message_id"
INSERT_PHOTO = (
    "INSERT INTO score_photos (score_id, format, width, height, size, data)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
PHOTO_OF_SCORE = f"SELECT {_KNOWN} FROM score_photos p WHERE p.score_id = ?"
PHOTOS_OF_GROUP = (
    f"SELECT {_KNOWN} FROM score_photos p JOIN scores s ON s.id = p.score_id"
    " JOIN games g ON g.id = s.game_id WHERE g.group_id = ?"
)
PHOTOS_OF_SEASON = (
    f"SELECT {_KNOWN} FROM score_photos p JOIN scores s ON s.id = p.score_id"
    " JOIN games g ON g.id = s.game_id JOIN night_groups ng ON ng.id = g.group_id"
    " JOIN nights n ON n.id = ng.night_id WHERE n.season_id = ? ORDER BY p.score_id"
)
PHOTO_DATA = "SELECT data FROM score_photos WHERE score_id = ?"
SET_MESSAGE = "UPDATE score_photos SET message_id = ? WHERE score_id = ?"


def _photo(row: aiosqlite.Row) -> ScorePhoto:
    return ScorePhoto(
        score_id=row["score_id"],
        format=row["format"],
        width=row["width"],
        height=row["height"],
        size=row["size"],
        message_id=row["message_id"],
    )


async def add_photo(conn: aiosqlite.Connection, score_id: int, photo: Photo) -> None:
    params = (score_id, photo.format, photo.width, photo.height, len(photo.data), photo.data)
    await run(conn, INSERT_PHOTO, params)


async def photo_of_score(conn: aiosqlite.Connection, score_id: int) -> ScorePhoto | None:
    return await one(conn, PHOTO_OF_SCORE, (score_id,), _photo)


async def photos_of_group(conn: aiosqlite.Connection, group_id: int) -> dict[int, ScorePhoto]:
    """Every stored photo of the group's scores, by score id."""
    found = await many(conn, PHOTOS_OF_GROUP, (group_id,), _photo)
    return {p.score_id: p for p in found}


async def photos_of_season(conn: aiosqlite.Connection, season_id: int) -> list[ScorePhoto]:
    return await many(conn, PHOTOS_OF_SEASON, (season_id,), _photo)


async def photo_data(conn: aiosqlite.Connection, score_id: int) -> bytes | None:
    data = await scalar(conn, PHOTO_DATA, (score_id,))
    return bytes(data) if data is not None else None


async def set_message(conn: aiosqlite.Connection, score_id: int, message_id: int) -> None:
    await run(conn, SET_MESSAGE, (message_id, score_id))
