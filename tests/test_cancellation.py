"""A cancelled wait stops, even when what it waits for happens at that moment.
Python 3.11's `asyncio.wait_for` drops such a cancellation (fixed in 3.12): the
kill test's script then ran on for a minute after each kill that met it, and
the outbox sender's stop() could hang the same way."""

from __future__ import annotations

import asyncio
import sys

import pytest

from standin.exchange import Signal


async def cancelled_as_it_fires(wait: asyncio.Task[None], fire: object) -> None:
    await asyncio.sleep(0)  # the waiter is now waiting
    fire()  # type: ignore[operator]
    wait.cancel()  # in the same turn of the loop as the event
    with pytest.raises(asyncio.CancelledError):
        await wait


async def test_a_signal_wait_cancelled_as_the_signal_fires_is_cancelled() -> None:
    signal = Signal()
    await cancelled_as_it_fires(asyncio.create_task(signal.wait(30)), signal.fire)


async def test_the_same_with_wait_for_is_lost_on_this_python() -> None:
    """What the test above guards against, shown with `wait_for` itself (on 3.12
    and later the cancellation gets through, and this test says so)."""
    event = asyncio.Event()

    async def wait_for_event() -> None:
        await asyncio.wait_for(event.wait(), timeout=30)

    task = asyncio.create_task(wait_for_event())
    await asyncio.sleep(0)
    event.set()
    task.cancel()
    if sys.version_info < (3, 12):
        await task  # returned normally: the cancellation was dropped
        assert not task.cancelled()
    else:
        with pytest.raises(asyncio.CancelledError):
            await task
