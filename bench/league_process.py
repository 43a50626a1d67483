"""The league bot as its own process against the stand-in, and when what it
posts first shows in a channel: shared by `bench.delivery` and `bench.card_burst`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from bench.world import World, stop
from bot.transcript import shown
from standin import DiscordStandIn


@contextlib.asynccontextmanager
async def league_bot(
    standin: DiscordStandIn, world: World, database: Path, profile: Path | None = None
) -> AsyncIterator[asyncio.subprocess.Process]:
    """`league-bot run` as its own process (under cProfile with `profile`),
    ready once it has identified again and settled."""
    before = standin.gateway.identifies
    (database.parent / "none.env").write_text("")  # an empty settings file: all from env
    runner = ["-m", "cProfile", "-o", str(profile)] if profile is not None else []
    process = await asyncio.create_subprocess_exec(
        sys.executable, *runner, "-m", "bot", "run", "--sync",
        "--env-file", str(database.parent / "none.env"),
        env={**os.environ, **world.env(standin, database)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(3000):
            registered = standin.registered_commands() or standin.registered_commands(world.guild)
            if standin.gateway.identifies > before and registered:
                break
            await asyncio.sleep(0.01)
        else:
            raise TimeoutError("the bot process never connected")
        await asyncio.sleep(0.5)  # let it finish starting (guilds, scheduler, sender)
        yield process
    finally:
        await stop(process)


class PostWatch:
    """When each message first appeared in a channel (loop time): the stand-in
    calls `changed()` at the end of every request it answers. Messages already
    there when the watch starts are not looked at. `stop()` when done."""

    def __init__(self, standin: DiscordStandIn, channel: int) -> None:
        self.standin, self.channel = standin, channel
        self.seen: dict[str, float] = {}  # content -> first seen
        self._before = len(standin.channel_order.get(channel, []))
        self._original = original = standin.changed

        def changed() -> None:
            original()
            self._look()

        standin.changed = changed  # type: ignore[method-assign]  # a hook wrapped until stop()

    def stop(self) -> None:
        self.standin.changed = self._original  # type: ignore[method-assign]  # unwrapped

    def first_shown(self, key: str) -> float | None:
        """When a message in the channel first showed `key` (None: not yet)."""
        return next((at for content, at in self.seen.items() if key in content), None)

    def _look(self) -> None:
        # A score shows on its group's card, when the card is posted or edited,
        # so every message is looked at again, not only new ones.
        now = asyncio.get_running_loop().time()
        for message_id in self.standin.channel_order.get(self.channel, [])[self._before :]:
            message = self.standin.messages.get(message_id)
            if message is not None:
                self.seen.setdefault(shown(message), now)


def score_value(member_index: int, game: int) -> int:
    return 1_000_000 * game + 1_000 * member_index + 7


def score_key(member_index: int, game: int) -> str:
    """How the score shows on its card (or its own post): 'P3 2,002,007 '."""
    return f"P{member_index + 1} {score_value(member_index, game):,} "
