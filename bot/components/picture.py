"""The standings picture as a file to attach, for `/standings` and
the weekly standings post: read through the service, drawn off the event loop."""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict

import discord

from bot.database import Database
from bot.services import standings
from bot.ui.picture import Picture, picture_of, render

FILENAME = "standings.png"


async def standings_png(
    db: Database, guild_id: int, title: str, division: str | None = None,
    season: str | None = None,
) -> bytes:  # fmt: skip
    """The PNG (of the running season, or of `season` by name); the drawing runs
    in a worker thread, so the bot keeps answering."""
    found = await standings.points_by_week(db, guild_id, division, season)
    return await draw(picture_of(title, found.rows, found.weeks, found.points))


DRAWN: OrderedDict[Picture, bytes] = OrderedDict()  # the last few pictures, by their data
KEEP = 8  # a league's divisions and a title or two; a 300-player PNG is about 200 kB
DRAWING: dict[Picture, asyncio.Task[bytes]] = {}  # pictures being drawn now


async def draw(picture: Picture) -> bytes:
    """`render` in a worker thread: a 300-player picture takes a few hundred ms of
    CPU, and the event loop keeps answering meanwhile. The standings change once
    a week, so a picture drawn from the same data is kept and not drawn again
    (every /standings of the week shares one drawing), and one asked for while
    it is being drawn waits for that drawing: a burst of /standings draws once,
    not once per command."""
    if (png := DRAWN.get(picture)) is not None:
        DRAWN.move_to_end(picture)
        return png
    drawing = DRAWING.get(picture)
    if drawing is None:
        drawing = DRAWING[picture] = asyncio.create_task(_drawn(picture))
        drawing.add_done_callback(lambda _: DRAWING.pop(picture, None))
    # shielded: one waiter cancelled (its interaction gone) does not stop the others'
    return await asyncio.shield(drawing)


async def _drawn(picture: Picture) -> bytes:
    png = await asyncio.to_thread(render, picture)
    DRAWN[picture] = png
    while len(DRAWN) > KEEP:
        DRAWN.popitem(last=False)
    return png


async def standings_file(
    db: Database, guild_id: int, title: str, division: str | None = None
) -> discord.File:
    return discord.File(io.BytesIO(await standings_png(db, guild_id, title, division)), FILENAME)
