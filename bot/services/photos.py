"""Scores' photos: the league's own cleaned copy (bot/photos.py made it), kept
with the score in its transaction and posted to the approvals channel by the
outbox, once. The card links to that post, whose link never expires; the
exports carry the copies under safe file names."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import AsyncIterator
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.database_files import PathLike, open_read_only
from bot.models import Photo
from bot.outbox_kinds import Kind, photo_ref
from bot.repositories import kept_photos
from bot.services.outbox import APPROVALS, owe
from bot.services.outcomes.exports import SeasonExport
from bot.services.outcomes.scores import PhotoPost, ScoreView


def file_name(week: int, group: str, game: int, player: str, extension: str, copy: int = 1) -> str:
    """A file name every system accepts: 'week-3-group-2-game-4-alice.jpg'
    (accents dropped, anything else but letters and digits a dash). A second photo
    of the same player's game (a rejected score's, then the one sent again) is
    `copy` 2: '…-alice-2.jpg'."""
    plain = unicodedata.normalize("NFKD", player).encode("ascii", "ignore").decode()
    who = re.sub(r"[^0-9a-z]+", "-", plain.casefold()).strip("-")[:40].strip("-") or "player"
    where = re.sub(r"[^0-9a-z]+", "-", group.casefold()).strip("-")
    again = f"-{copy}" if copy > 1 else ""
    return f"week-{week}-{where}-game-{game}-{who}{again}.{extension}"


async def keep(
    conn: aiosqlite.Connection, guild_id: int, score_id: int, photo: Photo, *, now: datetime
) -> None:
    """In the score's transaction: its photo is kept and its post is owed (before
    the card's, so that a card worded after it links to it)."""
    await kept_photos.add_photo(conn, score_id, photo)
    await owe(conn, guild_id, APPROVALS, Kind.PHOTO, photo_ref(score_id), now=now)


async def photo_post(db: Database, score_id: int, view: ScoreView) -> PhotoPost | None:
    """The photo's post as it is sent (None: the score has no photo)."""
    async with db.read() as conn:
        stored = await kept_photos.photo_of_score(conn, score_id)
        data = await kept_photos.photo_data(conn, score_id)
    if stored is None or data is None:
        return None
    extension = "jpg" if stored.format == "jpeg" else "png"
    name = file_name(view.night.week, view.group_label, view.game.number, view.player.name,
                     extension)  # fmt: skip
    return PhotoPost(view, name, data)


# --- exports ---------------------------------------------------------------------------


async def photo_files(db: Database, export: SeasonExport) -> list[tuple[str, bytes]]:
    """The export's photos, (name, bytes), read in one go (what a zip for Discord holds)."""
    found = []
    async with db.read() as conn:
        for photo in export.photos:
            if (data := await kept_photos.photo_data(conn, photo.score_id)) is not None:
                found.append((photo.name, data))
    return found


async def photos_of_file(
    path: PathLike, *, latest_version: int, export: SeasonExport
) -> AsyncIterator[tuple[str, bytes]]:
    """The command-line export's photos, (name, bytes), one at a time: a season's
    photos can be far more than memory should hold. A photo never changes once
    kept, so a second read agrees with the first."""
    conn = await open_read_only(path, latest_version=latest_version)
    try:
        for photo in export.photos:
            data = await kept_photos.photo_data(conn, photo.score_id)
            if data is not None:
                yield photo.name, data
    finally:
        await conn.close()
