"""Drawing the standings picture does not block the event loop: a
ticking coroutine keeps making progress while a 300-player picture renders."""

from __future__ import annotations

import asyncio

from bot.components import picture as delivered
from bot.components.picture import draw
from bot.ui.picture import render
from tests.ui.test_picture import league


async def ticks_while(work: asyncio.Future[bytes]) -> tuple[int, bytes]:
    """How many times a coroutine got to run before `work` was done."""
    count = 0
    while not work.done():
        count += 1
        await asyncio.sleep(0)
    return count, await work


async def test_the_loop_keeps_answering_while_300_players_are_drawn() -> None:
    picture = league(300, divisions=True)
    delivered.DRAWN.clear()  # drawn, not found among the pictures kept
    ticks, png = await ticks_while(asyncio.ensure_future(draw(picture)))
    assert png == render(picture)
    assert ticks > 10  # the loop went on turning


async def test_drawn_on_the_loop_itself_nothing_else_would_run() -> None:
    """The comparison that makes the test above mean something: the same work
    done on the loop lets the ticker run only once, before it starts."""
    picture = league(300, divisions=True)

    async def on_the_loop() -> bytes:
        return render(picture)

    ticks, _ = await ticks_while(asyncio.ensure_future(on_the_loop()))
    assert ticks <= 1


async def test_the_same_standings_are_drawn_once_and_changed_ones_again() -> None:
    """Every /standings of a week shares one drawing: the picture of the same data
    comes back at once (no worker thread), a changed one is drawn afresh."""
    delivered.DRAWN.clear()
    picture = league(300, divisions=True)
    first = await draw(picture)
    ticks, again = await ticks_while(asyncio.ensure_future(draw(league(300, divisions=True))))
    assert again == first and ticks <= 1  # not drawn again: no thread to wait for
    other = await draw(league(30, divisions=False))
    assert other != first and len(delivered.DRAWN) == 2
    for n in range(delivered.KEEP + 2):  # only the last few are kept
        await draw(league(3 + n, divisions=False))
    assert len(delivered.DRAWN) == delivered.KEEP and picture not in delivered.DRAWN


async def test_a_burst_of_standings_waits_for_one_drawing() -> None:
    """Twenty /standings at once, before the picture is kept: one drawing, which
    all of them share (the same bytes, not twenty equal copies drawn in turn),
    and a waiter that is cancelled leaves the others theirs."""
    delivered.DRAWN.clear()
    picture = league(300, divisions=True)
    waiters = [asyncio.ensure_future(draw(picture)) for _ in range(20)]
    await asyncio.sleep(0)
    waiters[0].cancel()
    pngs = await asyncio.gather(*waiters[1:])
    assert pngs[0] == render(picture)
    assert all(png is pngs[0] for png in pngs)
    assert waiters[0].cancelled() and not delivered.DRAWING
