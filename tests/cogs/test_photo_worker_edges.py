"""Photos are cleaned on a thread of their own (cogs/scores/scores_cog.py `PHOTO_WORKER`)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from cogs.scores.scores_cog import cleaned
from tests.cogs.test_score_photo_cog import attachment


async def test_a_photo_is_cleaned_while_every_shared_worker_thread_is_busy() -> None:
    """The bot's other work off the event loop (drawing the standings picture)
    runs in the shared threads; a photo does not wait for them, nor they for a
    burst of photos."""
    loop = asyncio.get_running_loop()
    shared = ThreadPoolExecutor(max_workers=1)
    busy = threading.Event()
    loop.set_default_executor(shared)
    held = loop.run_in_executor(None, busy.wait)  # the one shared thread, taken
    try:
        async with asyncio.timeout(30):  # were it queued behind the held thread
            photo = await cleaned(attachment())
        assert (photo.format, photo.width, photo.height) == ("jpeg", 1200, 1600)
        assert not held.done()
    finally:
        busy.set()
        await held
