"""Approval cards for an 8-group, 32-player night: how many
messages the approvals channel gets per group, and how many clicks approve a
whole clean night per group (targets: at most 2 each). Every score goes
through the real `/score` service and the real outbox; run with `python -m
bench` or `python -m bench.cards`."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.league_scale import GUILD, START, at, build
from bot.database import Database
from bot.migrate import migrate
from bot.outbox_kinds import CARD, Kind, ref_id
from bot.repositories import cards, leagues, nights
from bot.services import approvals, picks, scores
from bot.services.context import season_of
from cogs.scorecards import scorecards_decisions

PLAYERS = 32


async def night(path: Path) -> tuple[int, Counter[int], dict[int, int]]:
    await migrate(path)
    db = await Database.open(path)
    try:
        await build(db, PLAYERS)
        await picks.lock_picks(db, GUILD, now=at(START, "19:15"))
        async with db.read() as conn:
            ctx = await season_of(conn, GUILD)
            tonight = (await leagues.nights(conn, ctx.season.id))[0]
            groups = await nights.groups(conn, tonight.id)
            games = {g.id: await nights.games(conn, g.id) for g in groups}
        when = at(START, "20:00")
        for group in groups:
            for game in games[group.id]:
                for member in group.members:
                    await scores.submit(db, GUILD, 10_000 + member - 1, game.number,
                                        1_000_000 + member, now=when)  # fmt: skip
        # Messages owed to the approvals channel, by card (a post is one, every
        # later score an edit of it, coalesced while one waits).
        posts: Counter[int] = Counter()
        async with db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT kind, ref FROM outbox WHERE target = 'approvals'"
            )
            card_of = {g.id: await cards.card_of_group(conn, g.id) for g in groups}
        for kind, ref in rows:
            if kind == Kind.APPROVAL and (card_id := ref_id(ref, CARD)) is not None:
                posts[card_id] += 1
        clicks: dict[int, int] = {}
        for group in groups:
            card = card_of[group.id]
            assert card is not None
            clicks[group.id] = 0
            while clicks[group.id] < 10 and any(
                v.game.group_id == group.id for v in await approvals.pending(db, GUILD)
            ):
                await scorecards_decisions.approve_complete(db, GUILD, card.id, by=1, now=when)
                clicks[group.id] += 1
        return len(groups), posts, clicks
    finally:
        await db.close()


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        groups, posts, clicks = asyncio.run(night(Path(folder) / "league.sqlite3"))
    worst_posts = max(posts.values()) if posts else 0
    worst_clicks = max(clicks.values()) if clicks else 0
    print(f"Approval cards: a {PLAYERS}-player night ({groups} groups, as the league groups them)")
    print(f"  approval messages per group: at most {worst_posts} (target <= 2)")
    print(f"  clicks to approve a clean night, per group: at most {worst_clicks} (target <= 2)")
    return 0 if worst_posts <= 2 and worst_clicks <= 2 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
