"""Cards don't queue behind each other: through the real bot and the loopback
Discord with Discord's rate limits on, a new card is posted while another
card's edits wait, one card's slow edit does not hold another card's, and on a
busy moment every order that matters holds in the requests Discord received:
a card's post before its edits, its edits one after the other and each showing
no less than the one before, a channel's posts (and a post's pieces) one after
the other in the order owed.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.config import Settings
from bot.database import Database
from bot.services import outbox
from bot.stage import running_bot
from bot.transcript import shown
from standin import DiscordStandIn, Limits
from standin.state import RecordedRequest
from tests.e2e.harness import Server, bot_settings, locked_night, small_server

ZONE = ZoneInfo("America/New_York")
TONIGHT = datetime(2026, 1, 7, 20, 0, tzinfo=ZONE)
TOKEN = "lanes-token.not-a-secret.0123456789abcdef"
API = "/api/v10"


class Answers:
    """When the stand-in answered each request, as how many requests had arrived
    by then: a request numbered at or after that arrived after the answer."""

    def __init__(self, standin: DiscordStandIn) -> None:
        self.standin = standin
        self.arrived_by: dict[int, int] = {}  # id(record) -> requests arrived when answered
        original = standin.changed

        def changed() -> None:
            original()
            arrived = len(standin.requests)
            for record in standin.requests:
                if record.status and id(record) not in self.arrived_by:
                    self.arrived_by[id(record)] = arrived

        standin.changed = changed  # type: ignore[method-assign]

    def after(self, later: RecordedRequest, earlier: RecordedRequest) -> bool:
        """`later` arrived only once `earlier` had been answered."""
        return self.standin.requests.index(later) >= self.arrived_by[id(earlier)]


@dataclass
class League:
    standin: DiscordStandIn
    settings: Settings
    server: Server
    groups: list[list[int]]  # members of each group, top group first

    async def score(self, member: int, game: int) -> str:
        """`member` sends their score for `game`; what their card shows for it."""
        value = self.value(member, game)
        exchange = await self.standin.invoke(member, "score", {"game": game, "score": str(value)},
                                             channel_id=self.server.general)  # fmt: skip
        await exchange.done(timeout=30, quiet=0.0)
        assert "Submitted" in exchange.content, exchange.content
        return self.shows(member, game)

    def value(self, member: int, game: int) -> int:
        return 1_000_000 * game + 1_000 * self.number(member)

    def number(self, member: int) -> int:
        return self.server.players.index(member) + 1

    def shows(self, member: int, game: int) -> str:
        return f"P{self.number(member)} {self.value(member, game):,} "

    async def card_showing(self, text: str, timeout: float = 20.0) -> dict[str, Any]:  # noqa: ASYNC109
        approvals = self.server.approvals
        return await self.standin.wait_for_message(approvals, lambda m: text in shown(m), timeout)

    def requests(self, method: str, message: dict[str, Any] | None = None) -> list[RecordedRequest]:
        """The bot's posts to the approvals channel, or its edits of one message."""
        path = f"{API}/channels/{self.server.approvals}/messages"
        if message is not None:
            path += f"/{message['id']}"
        return [r for r in self.standin.requests if r.method == method and r.path == path]

    async def sending(self, method: str, message: dict[str, Any]) -> None:
        """Until a request of `method` for `message` has arrived and is not answered yet."""
        async with asyncio.timeout(20):
            while not any(r.status == 0 for r in self.requests(method, message)):  # noqa: ASYNC110
                await asyncio.sleep(0.01)

    def owed(self) -> list[tuple[str, str, str]]:
        """Outbox items not yet delivered: (kind, ref, status)."""
        with sqlite3.connect(self.settings.database_path) as conn:
            return conn.execute("SELECT kind, ref, status FROM outbox WHERE status IN"
                                " ('pending', 'sending') ORDER BY id").fetchall()  # fmt: skip

    async def delivered(self, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        async with asyncio.timeout(timeout):
            while self.owed():  # noqa: ASYNC110 (another connection's database: nothing to await)
                await asyncio.sleep(0.1)


@pytest.fixture
async def league(tmp_path: Path) -> AsyncIterator[League]:
    standin = DiscordStandIn(token=TOKEN, limits=Limits())  # Discord's rate limits
    await standin.start()
    try:
        server = small_server(standin, "Lanes League", 9)
        database = tmp_path / "league.sqlite3"
        async with locked_night(database, server, "Lanes League", TONIGHT,
                                skill=lambda n: 1 + n % 10):  # fmt: skip
            pass
        with sqlite3.connect(database) as conn:
            rows = conn.execute(
                "SELECT g.position, p.discord_id FROM group_members m"
                " JOIN night_groups g ON g.id = m.group_id JOIN players p ON p.id = m.player_id"
                " ORDER BY g.position, m.ladder"
            ).fetchall()
        groups: dict[int, list[int]] = {}
        for position, member in rows:
            groups.setdefault(position, []).append(member)
        settings = bot_settings(standin, server, TOKEN, database, tmp_path / "backups")
        standin.set_time(TONIGHT)
        yield League(standin, settings, server, [groups[p] for p in sorted(groups)])
    finally:
        await standin.stop()


async def test_a_new_groups_card_is_posted_while_another_cards_edit_waits_its_turn(
    league: League,
) -> None:
    # One edit a minute per channel (Discord's edits, in a longer window): the
    # second edit of group 1's card has to wait. Posts keep Discord's 5 per 5 s.
    league.standin.limits.edits_per_channel = (1, 60.0)
    first, second, *_ = league.groups
    async with running_bot(league.settings, standin=league.standin):
        card_1 = await league.card_showing(await league.score(first[0], 1))
        await league.card_showing(await league.score(first[1], 1))  # the window's one edit
        waiting = await league.score(first[2], 1)  # its edit waits for the next window
        assert ("approval_update", "card:1", "pending") in league.owed()

        card_2 = await league.card_showing(await league.score(second[0], 1))

        assert card_2["id"] != card_1["id"]
        assert waiting not in shown(league.standin.message(int(card_1["id"])) or {})
        assert len(league.requests("PATCH", card_1)) == 1  # the second edit still waits
        assert [shown(r.body).split("\n")[0] for r in league.requests("POST")] == [
            "**Week 1 · Group 1**", "**Week 1 · Group 2**",
        ]  # fmt: skip
        assert league.standin.rate_limited == []  # discord.py waited for the windows


async def test_one_cards_slow_edit_does_not_hold_another_cards_edit(league: League) -> None:
    first, second, *_ = league.groups
    async with running_bot(league.settings, standin=league.standin):
        card_1 = await league.card_showing(await league.score(first[0], 1))
        card_2 = await league.card_showing(await league.score(second[0], 1))
        await league.card_showing(await league.score(first[1], 1))  # the channel's edits' limits
        # Answers to edits of group 1's card are 15 s late (a slow network): the
        # edit is made at once, the bot hears of it only later.
        league.standin.slow(
            f"PATCH /channels/{league.server.approvals}/messages/{card_1['id']}", 15.0
        )
        await league.card_showing(await league.score(first[2], 1))
        waiting = await league.score(first[0], 2)  # behind the slow edit of its own card

        await league.card_showing(await league.score(second[1], 1), timeout=10.0)

        assert waiting not in shown(league.standin.message(int(card_1["id"])) or {})
        assert len(league.requests("PATCH", card_1)) == 2
        assert len(league.requests("PATCH", card_2)) == 1


async def test_a_busy_moment_keeps_every_order_that_matters(league: League) -> None:
    """Scores in both groups while two long posts go to the announcements
    channel, every answer late: what must keep its order does, and the two
    cards' requests overlap (neither waits for the other)."""
    standin = league.standin
    standin.slow("POST /channels/*/messages", 0.5)
    standin.slow("PATCH /channels/*/messages/*", 0.5)
    long_posts = [
        "\n".join(f"Post {n}, line {line}: " + "words " * 20 for line in range(30)) for n in (1, 2)
    ]
    db = await Database.open(league.settings.database_path)
    try:
        async with db.transaction() as conn:
            for n, text in enumerate(long_posts, start=1):
                await outbox.owe(conn, league.server.guild, outbox.ANNOUNCEMENTS, "post",
                                 f"test:{n}", {"text": text}, now=TONIGHT)  # fmt: skip
    finally:
        await db.close()
    answers = Answers(standin)
    first, second, *_ = league.groups
    order = [
        (first[0], 1),
        (first[1], 1),
        (second[0], 1),
        (first[2], 1),
        (second[1], 1),
        (second[2], 1),
        (first[0], 2),
        (first[1], 2),
        (second[0], 2),
        (second[1], 2),
    ]
    async with running_bot(league.settings, standin=league.standin):
        card_1 = await league.card_showing(await league.score(*order[0]))
        await league.score(*order[1])  # its edit is owed while its post is under way
        await league.score(*order[2])  # group 2's card: a post, behind group 1's
        await league.sending("PATCH", card_1)
        await league.score(*order[3])  # owed while card 1's edit is under way
        card_2 = await league.card_showing(league.shows(*order[2]))
        await league.score(*order[4])
        await league.sending("PATCH", card_2)
        for member, game in order[5:]:  # the first owed while card 2's edit is under way
            await league.score(member, game)
        await league.delivered()

    cards = standin.channel_messages(league.server.approvals)
    assert [shown(c).split("\n")[0] for c in cards] == ["**Week 1 · Group 1**",
                                                        "**Week 1 · Group 2**"]  # fmt: skip
    posts = league.requests("POST")
    assert len(posts) == 2 and answers.after(posts[1], posts[0])  # a channel's posts in turn
    for card, group in zip(cards, (first, second), strict=True):
        [post] = [p for p in posts if shown(p.body).split("\n")[0] == shown(card).split("\n")[0]]
        edits = league.requests("PATCH", card)
        assert edits and answers.after(edits[0], post)  # no edit before its post is answered
        for earlier, later in itertools.pairwise(edits):
            assert answers.after(later, earlier)  # one edit after the other
            assert set(scores_in(shown(earlier.body))) <= set(scores_in(shown(later.body)))
        wanted = {league.shows(m, g).strip() for m, g in order if m in group}
        assert set(scores_in(shown(card))) == wanted  # every score on its card
    # The cards did not wait for each other: a request for one arrived while one
    # for the other was still unanswered.
    one = [posts[0], *league.requests("PATCH", cards[0])]
    other = [posts[1], *league.requests("PATCH", cards[1])]
    assert any(not answers.after(b, a) and not answers.after(a, b) for a in one for b in other)
    # The announcements: each post's pieces in order, the posts in the order owed,
    # each request only once the one before was answered.
    path = f"{API}/channels/{league.server.announcements}/messages"
    announced = [r for r in standin.requests if r.method == "POST" and r.path == path]
    for earlier, later in itertools.pairwise(announced):
        assert answers.after(later, earlier)
    texts = [r.body.get("content") or "" for r in announced]
    pieces = [t for t in texts if t.startswith("Post ")]
    assert "\n".join(pieces) == "\n".join(long_posts)


def scores_in(text: str) -> list[str]:
    """The scores a card shows: 'P3 1,003,000' for each line with one."""
    found = []
    for line in text.split("\n"):
        words = line.split(" ")
        if len(words) >= 2 and words[0].startswith("P") and words[1][:1].isdigit():
            found.append(f"{words[0]} {words[1]}")
    return found


async def test_a_long_posts_pieces_already_posted_are_not_asked_for_again_after_a_503(
    league: League,
) -> None:
    """A post in three pieces whose second piece meets a 503 (which discord.py
    hands to the outbox): the outbox's retry asks Discord for the second and
    third pieces only. Only the requests show it: Discord (and the stand-in)
    would answer a first piece sent again with the same nonce by the earlier
    message, so the channel alone would look right either way."""
    standin = league.standin
    channel = league.settings.announcement_channel_id
    path = f"{API}/channels/{channel}/messages"
    text = "\n".join(f"Line {n}: " + "words " * 20 for n in range(40))  # about 5,200 characters
    db = await Database.open(league.settings.database_path)
    try:
        async with db.transaction() as conn:
            await outbox.owe(conn, league.server.guild, outbox.ANNOUNCEMENTS, "post", "test:1",
                             {"text": text}, now=TONIGHT)  # fmt: skip
    finally:
        await db.close()
    standin.slow(f"POST /channels/{channel}/messages", 0.3)  # time to aim the 503
    async with running_bot(league.settings, standin=league.standin):
        async with asyncio.timeout(20):
            while not [r for r in standin.requests if r.path == path]:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        standin.fail_next(f"POST /channels/{channel}/messages", status=503)  # the second piece
        await league.delivered()
    posts = [r for r in standin.requests if r.method == "POST" and r.path == path]
    nonces = [r.body["nonce"].rsplit(".", 1)[1] for r in posts]
    assert list(zip(nonces, [r.status for r in posts], strict=True)) == [
        ("0", 200), ("1", 503), ("1", 200), ("2", 200),
    ]  # fmt: skip
    pieces = [m["content"] for m in standin.channel_messages(channel)]
    assert len(pieces) == 3 and "\n".join(pieces) == text
