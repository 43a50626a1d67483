"""A file the bot has sent (the standings picture) is freed at once, not at the
next full garbage collection: a burst of /standings otherwise kept one copy of
the picture per answer (2,000 answers: about 230 MB)."""

from __future__ import annotations

import gc
import io
import weakref
from collections.abc import Iterator

import aiohttp
import discord
import pytest
from discord.http import handle_message_parameters

from bot.ui.replies import release

PICTURE = bytes(range(256)) * 400  # 100 kB, as a standings picture


@pytest.fixture
def no_collections() -> Iterator[None]:
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def sent() -> discord.File:
    """A file through what discord.py's followup.send does with it: the message's
    parameters (closed after the send) and aiohttp's form, which copies it."""
    file = discord.File(io.BytesIO(PICTURE), "standings.png")
    with handle_message_parameters(content="Standings", file=file) as params:
        form = aiohttp.FormData(quote_fields=False)
        for part in params.multipart or []:
            form.add_field(**part)
        form()  # the request body, as aiohttp makes it
    return file


def test_a_sent_file_gives_its_bytes_back_without_a_collection(no_collections: None) -> None:
    # Why: dropped after sending, the file's buffer outlives it, in a cycle.
    buffer = weakref.ref(sent().fp)
    assert buffer() is not None
    gc.collect()
    assert buffer() is None
    # Released, its bytes are given back at once.
    file = sent()
    release(file)
    assert file.fp.closed
    with pytest.raises(ValueError):
        file.fp.getbuffer()
    release(file)  # twice is harmless
