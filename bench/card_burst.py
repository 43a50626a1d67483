"""A busy moment at the approvals channel: BURST `/score` in BURST_SECONDS over
BURST_GROUPS groups (seeded random players and games; the groups join in turn,
each one's scores at random times from its turn on), with Discord's rate
limits on. For each group's card: the time from its first score's
interaction to that score showing on the card, and the slowest of its scores
from interaction to showing on the card. Run by `bench.delivery`, which prints
the table; a fresh bot process on a fresh copy of the seeded league."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path

from bench.league_process import PostWatch, league_bot, score_key, score_value
from bench.world import World
from bot.database import Database
from bot.repositories import leagues, nights, people
from bot.services.context import season_of
from standin import DiscordStandIn, Exchange

BURST = 35  # /score submissions
BURST_SECONDS = 1.0  # over which they arrive
BURST_GROUPS = 3  # the top groups of the night
SETTLE = 60.0  # bounded wait for the last score to show


@dataclass
class Card:
    group: int  # its position in the night
    scores: int
    first: float | None  # seconds: its first score's interaction -> shown on the card
    every: float | None  # seconds: the slowest of its scores (None: one never showed)


@dataclass
class Burst:
    cards: list[Card]
    refused_429: int


async def groups_of(database: Path, world: World) -> list[tuple[int, list[int], int]]:
    """The night's top BURST_GROUPS groups: position, members' indexes in
    `world.players`, games per player."""
    db = await Database.open(database)
    try:
        async with db.read() as conn:
            ctx = await season_of(conn, world.guild)
            night = (await leagues.nights(conn, ctx.season.id))[0]
            found = (await nights.groups(conn, night.id))[:BURST_GROUPS]
            discord_of = {
                p.id: p.discord_id
                for p in await people.players(conn, ctx.league.id)
                if p.discord_id is not None  # every seeded player has one
            }
            games = {g.id: len(await nights.games(conn, g.id)) for g in found}
    finally:
        await db.close()
    return [(g.position, [world.players.index(discord_of[m]) for m in g.members], games[g.id])
            for g in found]  # fmt: skip


async def burst(standin: DiscordStandIn, world: World, database: Path, seed: int = 35) -> Burst:
    loop = asyncio.get_running_loop()
    groups = await groups_of(database, world)
    rng = random.Random(seed)
    every = [(n, index, game) for n, (_, members, games) in enumerate(groups)
             for index in members for game in range(1, games + 1)]  # fmt: skip
    # The groups join in turn: group n's scores come at random times from n/3 s on.
    step = BURST_SECONDS / len(groups)
    plan = sorted((rng.uniform(n * step, BURST_SECONDS), (n, index, game))
                  for n, index, game in rng.sample(every, BURST))  # fmt: skip
    watch = PostWatch(standin, world.approvals)
    async with league_bot(standin, world, database):
        limited_before = len(standin.rate_limited)
        started = loop.time()
        sent: list[tuple[int, Exchange, str]] = []
        for at, (n, index, game) in plan:
            await asyncio.sleep(max(0.0, started + at - loop.time()))
            options = {"game": game, "score": str(score_value(index, game))}
            exchange = await standin.invoke(
                world.players[index], "score", options, channel_id=world.general
            )
            sent.append((n, exchange, score_key(index, game)))
        deadline = loop.time() + SETTLE
        while loop.time() < deadline:
            if all(watch.first_shown(key) is not None for _, _, key in sent):
                break
            await asyncio.sleep(0.05)
        refused = len(standin.rate_limited) - limited_before
    watch.stop()
    cards = []
    for n, (position, _, _) in enumerate(groups):
        mine = [(e, watch.first_shown(key)) for m, e, key in sent if m == n]
        waits = [at - e.created_at if at is not None else None for e, at in mine]
        slowest = None if None in waits else max(w for w in waits if w is not None)
        cards.append(Card(position, len(mine), waits[0] if waits else None, slowest))
    return Burst(cards, refused)


def table(found: Burst) -> list[str]:
    """The rows bench.delivery prints ("never": not shown within SETTLE)."""

    def figure(seconds: float | None) -> str:
        return f"{seconds * 1000:>10.2f}" if seconds is not None else f"{'never':>10}"

    title = f"{BURST} /score in {BURST_SECONDS:.0f} s over {BURST_GROUPS} groups"
    lines = [f"{title:<36} {'first ms':>10} {'every ms':>10} {'scores':>7}"]
    for card in found.cards:
        name = f"group {card.group} card"
        lines.append(f"{name:<36} {figure(card.first)} {figure(card.every)} {card.scores:>7}")
    lines.append(f"{'429s answered to the bot':<36} {'':>10} {'':>10} {found.refused_429:>7}")
    return lines
