"""Faults through the real bot and the loopback Discord: nothing is lost.

A league of 60 players with week 1's picks locked is prepared through the
services; everything after that goes through slash commands and buttons.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot import checks
from bot.config import Settings
from bot.database import Database
from bot.services import commissioners, server_setup
from bot.stage import running_bot
from bot.transcript import shown
from standin import DiscordStandIn, Exchange, Limits
from tests.e2e.harness import bot_settings, locked_night, small_server

ZONE = ZoneInfo("America/New_York")
TONIGHT = datetime(2026, 1, 7, 20, 0, tzinfo=ZONE)
TOKEN = "faults-token.not-a-secret.0123456789abcdef"
PLAYERS = 60


@dataclass
class League:
    standin: DiscordStandIn
    settings: Settings
    guild: int
    general: int
    approvals: int
    koi: int
    players: list[int]

    async def run(
        self, member: int, command: str, options: dict[str, Any] | None = None, **kw: Any
    ) -> Exchange:
        exchange = await self.standin.invoke(
            member, command, options or {}, channel_id=self.general, **kw
        )
        return await exchange.done(timeout=30, quiet=0.02)

    def pending(self) -> list[dict[str, Any]]:
        return [m for m in self.standin.channel_messages(self.approvals) if m.get("components")]

    def scores(self) -> list[tuple[int, int, int, str]]:
        with sqlite3.connect(self.settings.database_path) as conn:
            return conn.execute(
                "SELECT p.discord_id, g.number, s.score, s.status FROM scores s"
                " JOIN players p ON p.id = s.player_id JOIN games g ON g.id = s.game_id"
                " ORDER BY p.discord_id, g.number, s.id"
            ).fetchall()

    def approval_posts(self) -> list[tuple[int, int, int]]:
        """(member, score, message id of its group's card) of every stored score."""
        with sqlite3.connect(self.settings.database_path) as conn:
            return conn.execute(
                "SELECT p.discord_id, s.score, c.message_id FROM scores s"
                " JOIN players p ON p.id = s.player_id JOIN games g ON g.id = s.game_id"
                " JOIN approval_cards c ON c.group_id = g.group_id ORDER BY s.id"
            ).fetchall()

    def owed(self) -> int:
        """Outbox items not yet delivered (waiting, backing off or being sent)."""
        with sqlite3.connect(self.settings.database_path) as conn:
            return conn.execute(
                "SELECT count(*) FROM outbox WHERE status IN ('pending', 'sending')"
            ).fetchone()[0]

    async def delivered(self, timeout: float = 40.0) -> None:  # noqa: ASYNC109
        """Wait (at most `timeout` s) until the outbox owes nothing."""
        async with asyncio.timeout(timeout):
            while self.owed():  # noqa: ASYNC110 (another process's database: nothing to await)
                await asyncio.sleep(0.1)

    def file_bytes(self) -> bytes:
        """The database as it is on disk: the file, and its WAL if one is left."""
        path, wal = self.settings.database_path, Path(f"{self.settings.database_path}-wal")
        return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")

    def dump(self) -> list[str]:
        """Every row of every table, as SQL text."""
        with sqlite3.connect(self.settings.database_path) as conn:
            return list(conn.iterdump())


@pytest.fixture
async def league(tmp_path: Path) -> AsyncIterator[League]:
    standin = DiscordStandIn(token=TOKEN, limits=Limits())  # Discord's rate limits
    await standin.start()
    try:
        server = small_server(standin, "Faults League", PLAYERS)
        guild, players = server.guild, server.players
        database = tmp_path / "league.sqlite3"
        async with locked_night(database, server, "Faults League", TONIGHT,
                                skill=lambda n: 1 + n % 10) as db:  # fmt: skip
            # the commissioner has used /league before (recorded for DMs)
            await commissioners.seen(db, guild, server.koi, True, now=TONIGHT, name="Koi")
        settings = bot_settings(standin, server, TOKEN, database, tmp_path / "backups")
        standin.set_time(TONIGHT)
        yield League(
            standin, settings, guild, server.general, server.approvals, server.koi, players
        )
    finally:
        await standin.stop()


async def test_60_scores_in_10_s_from_16_players_are_each_posted_once_within_the_limits(
    league: League, caplog: pytest.LogCaptureFixture
) -> None:
    """A burst: 60 /score spread over 10 s from 16 players, with the
    per-channel limit on. Every approval post is delivered once, none lost,
    none twice, and every score is stored once."""
    # Discord's real limit: 5 posts per channel per 5 s (the 60 posts take about a minute).
    league.standin.limits.messages_per_channel = (5, 5.0)
    who = league.players[:16]
    wanted = [(who[k % 16], k // 16 + 1, f"{k // 16 + 1}{k:02d}k") for k in range(60)]
    async with running_bot(league.settings, standin=league.standin):
        with caplog.at_level(logging.WARNING):
            exchanges = []
            for member, game, typed in wanted:
                exchanges.append(
                    await league.standin.invoke(
                        member, "score", {"game": game, "score": typed}, channel_id=league.general
                    )
                )
                await asyncio.sleep(10 / 60)  # 60 in 10 s
            for exchange in exchanges:
                await exchange.done(timeout=30, quiet=0.0)
            await league.delivered(timeout=60)
    assert all(e.ephemeral and "Submitted" in e.content for e in exchanges)
    assert not any(e.errors for e in exchanges)  # every one acknowledged within 3 s
    posted = [r for r in league.standin.requests if r.method == "POST" and r.remaining is not None]
    assert any(r.remaining == 0 for r in posted)  # the window was used up: the bot waited its turn
    expected = sorted((m, g, int(t[:-1]) * 1000, "pending") for m, g, t in wanted)
    assert league.scores() == expected  # each stored once, none lost
    # One card per group, each posted once, every score on its group's card.
    posts = league.pending()
    by_id = {int(p["id"]): shown(p) for p in posts}
    cards = {message_id for *_, message_id in league.approval_posts()}
    assert set(by_id) == cards and len(posts) == len(cards)
    assert len(league.standin.channel_messages(league.approvals)) == len(cards)  # none twice
    for member, score, message_id in league.approval_posts():
        name = f"P{league.players.index(member) + 1}"
        assert f"{name} {score:,} ⏳" in by_id[message_id], (member, score)
    assert "database is locked" not in caplog.text
    assert "unexpected error" not in caplog.text


async def test_a_restart_with_ten_pending_approvals_keeps_every_button_working(
    league: League,
) -> None:
    async with running_bot(league.settings, standin=league.standin):
        for member in league.players[:10]:
            await league.run(member, "score", {"game": 1, "score": "1.5M"})
        await league.delivered()  # 10 posts at 5 per 5 s: the second five wait their turn
    cards = league.pending()  # one card per group of those ten players
    assert {int(c["id"]) for c in cards} == {mid for *_, mid in league.approval_posts()}
    async with running_bot(league.settings, sync=False, standin=league.standin):
        for message in cards:  # the cards' menus still work after the restart
            menu = next(c for row in message["components"] for c in row["components"]
                        if c.get("placeholder") == "Approve one game…")  # fmt: skip
            click = await league.standin.click(
                league.koi, int(message["id"]), menu["custom_id"], values=["1"]
            )
            await click.done(timeout=10, quiet=0.02)
            assert click.ephemeral and click.content.startswith("Approved"), click.content
        await league.delivered()
    assert league.pending() == []
    assert [status for *_, status in league.scores()] == ["approved"] * 10
    decided = league.standin.channel_messages(league.approvals)
    assert len(decided) == len(cards)
    assert all(shown(m).endswith("All decided.") for m in decided)


async def test_the_gateway_drops_mid_night_and_nothing_is_lost(league: League) -> None:
    async with running_bot(league.settings, standin=league.standin) as bot:
        for member in league.players[:10]:
            await league.run(member, "score", {"game": 2, "score": "2M"})
        await league.standin.drop_gateway()
        # Sent while the bot is away: Discord replays it when the bot is back.
        during = await league.standin.invoke(
            league.players[10], "score", {"game": 2, "score": "2M"}, channel_id=league.general
        )
        await league.standin.wait_until_connected(timeout=20)
        await during.done(timeout=20, quiet=0.02)
        for member in league.players[11:20]:
            await league.run(member, "score", {"game": 2, "score": "2M"})
        await league.delivered()  # 20 posts at 5 per 5 s
        assert not bot.is_closed()
    assert len(league.scores()) == 20
    # every score is on its group's card, and each card was posted once
    assert sorted({mid for *_, mid in league.approval_posts()}) == sorted(
        int(p["id"]) for p in league.pending()
    )
    assert len(league.standin.channel_messages(league.approvals)) == len(league.pending())


# Each: who ("player" or the commissioner "koi"), command, options, a fragment
# of the refusal. Values outside Discord's ranges and choices are sent as a
# modified client would (unchecked): the bot refuses them itself.
CORPUS: list[tuple[str, str, dict[str, Any], str]] = [
    ("player", "score", {"game": 1, "score": "-5"}, "cannot be negative"),
    ("player", "score", {"game": 1, "score": "abc"}, "is not a score"),
    ("player", "score", {"game": 1, "score": "1e400"}, "is not a score"),
    ("player", "score", {"game": 1, "score": "12,34"}, "is not a score"),
    ("player", "score", {"game": 1, "score": "１２３"}, "Use the digits 0-9"),
    ("player", "score", {"game": 1, "score": "9" * 40}, "more than any pinball machine"),
    ("player", "score", {"game": 1, "score": ""}, "score is empty"),
    ("player", "score", {"game": 1, "score": "   "}, "score is empty"),
    ("player", "score", {"game": 1, "score": "1.2.3B"}, "is not a score"),
    ("player", "score", {"game": 1, "score": "NaN"}, "is not a score"),
    ("player", "score", {"game": 1, "score": "0x10"}, "is not a score"),
    ("player", "score", {"game": 1, "score": "1.23456789012k"}, "is not a score"),
    ("player", "score", {"game": 1, "score": "20000000000000"}, "more than any pinball"),
    ("player", "score", {"game": 0, "score": "100"}, "Game 0 is not one of your group's"),
    ("player", "score", {"game": 11, "score": "100"}, "Game 11 is not one of your group's"),
    ("player", "score", {"game": 7, "score": "100"}, "Game 7 is not one of your group's games"),
    ("player", "late", {"minutes": 0}, "in minutes, from 1 to 240"),
    ("player", "late", {"minutes": 241}, "in minutes, from 1 to 240"),
    ("player", "late", {"minutes": -5}, "in minutes, from 1 to 240"),
    ("player", "late", {"note": "x" * 300}, "note is too long: 300 characters, at most 200"),
    ("player", "absent", {"date": "2026-02-30"}, "is not a real date"),
    ("player", "absent", {"date": "tomorrow"}, "is not a date"),
    ("player", "absent", {"date": "31/31/2026"}, "is not a real date"),
    ("player", "absent", {"date": "2026-01-08"}, "no league night on Thursday 08 January"),
    ("player", "absent", {"date": "2025-12-31"}, "no league night on Wednesday 31 December"),
    ("player", "veto", {"machine": "Zork"}, "locked"),
    ("player", "veto", {"machine": "x" * 100}, "locked"),
    ("player", "premakeup", {"machine": "Zork", "score": "1M", "with": "other"}, "no machine"),
    (
        "player",
        "premakeup",
        {"machine": "Machine 1", "score": "abc", "with": "other"},
        "is not a score",
    ),
    (
        "player",
        "premakeup",
        {"machine": "Machine 1", "score": "1M", "with": "self"},
        "at least one other league player",
    ),
    ("player", "groups", {"week": 0}, "Week 0 is not a night of this season"),
    ("player", "groups", {"week": 53}, "Week 53 is not a night of this season"),
    ("player", "groups", {"week": 9}, "finalize week 8 first"),
    ("player", "standings", {"division": "C"}, "A division is A or B"),
    ("player", "standings", {"division": "A"}, "no divisions yet"),
    ("player", "league night finalize", {}, "Only the commissioner"),
    ("player", "league season setup", {"name": "Mine now"}, "Only the commissioner"),
    ("koi", "league season setup", {"name": "Again"}, "already has a league"),
    ("koi", "league season start", {"name": "Spring", "start": "2026-02-30"}, "is not a real date"),
    ("koi", "league season time", {"name": "grace_until", "value": "25:00"}, "is not a time"),
    ("koi", "league season time", {"name": "late_cutoff", "value": "3pm"}, "is not a time"),
    ("koi", "league season setting", {"name": "dues_cents", "value": "-1"}, "dues_cents must be"),
    ("koi", "league money dues", {"players": "P1", "week": 1, "amount": "six"}, "is not an amount"),
    (
        "koi",
        "league money dues",
        {"players": "P1", "week": 1, "amount": "6.001"},
        "is not an amount",
    ),
    ("koi", "league money dues", {"players": "Nobody", "week": 1}, "no player called 'Nobody'"),
    ("koi", "league money fund", {"amount": "lots"}, "is not an amount"),
    ("koi", "league machine par", {"machine": "Machine 1", "value": "abc"}, "is not a score"),
    ("koi", "league machine par", {"machine": "Zork", "value": "1M"}, "no machine called 'Zork'"),
    ("koi", "league machine add", {"name": "Zork", "par": "0"}, "par is a score from 1"),
    ("koi", "league season skip", {"date": "2026-01-08"}, "is not a league night"),
    ("koi", "league player add", {"member": "self", "skill": 11}, "skill rating is from 1"),
    ("koi", "league player grant", {"name": "P1", "nights": 0}, "Grant 1 to 10"),
    ("koi", "league night finalize", {"week": 60}, "Week 60 is not a night of this season"),
    (
        "koi",
        "league score tie",
        {"week": 1, "game": 1, "players": "Nobody, P1"},
        "no player called",
    ),
    (
        "koi",
        "league score change",
        {"kind": "correction", "week": 1, "player": "P1", "game": 1, "reason": "typo"},
        "Give the new score",
    ),
    (
        "koi",
        "league score change",
        {"kind": "rewind", "week": 1, "player": "P1", "game": 1, "reason": "typo", "score": "1"},
        "Unknown change 'rewind'",
    ),
    ("koi", "league night games", {"group": "Z9", "machines": "Machine 1"}, "Name the group as"),
    ("koi", "league night approve-all", {"group": "99"}, "no group 99"),
    ("koi", "league night mark", {"player": "Nobody", "status": "late"}, "no player called"),
]


async def test_a_corpus_of_malformed_input_is_refused_and_changes_nothing(
    league: League, caplog: pytest.LogCaptureFixture
) -> None:
    assert len(CORPUS) >= 40
    # A server admin lets everyone see /league; the bot still checks the role.
    league.standin.set_command_permission(league.guild, "league", league.guild, allowed=True)
    db = await Database.open(league.settings.database_path)  # its .env's ids, moved as at start
    await server_setup.move_from_env(db, checks.legacy_setup(league.settings))
    await db.close()
    before, before_bytes = league.dump(), league.file_bytes()
    refusals = []
    async with running_bot(league.settings, standin=league.standin):
        with caplog.at_level(logging.ERROR):
            for who, command, options, fragment in CORPUS:
                member = league.koi if who == "koi" else league.players[0]
                values = {
                    k: (league.players[1] if v == "other" else member if v == "self" else v)
                    for k, v in options.items()
                }
                exchange = await league.run(member, command, values, unchecked=True)
                refusals.append((command, options, fragment, exchange.ephemeral, exchange.content))
    for command, options, fragment, ephemeral, content in refusals:
        assert ephemeral, (command, options, content)
        assert fragment in content, (command, options, content)
        assert "Traceback" not in content
    assert "unexpected error" not in caplog.text
    assert league.dump() == before  # every row of every table
    assert league.file_bytes() == before_bytes  # and the file, byte for byte
    assert league.pending() == []


async def test_bursts_of_5xx_and_429_on_every_route_the_bot_uses_lose_nothing(
    league: League, caplog: pytest.LogCaptureFixture
) -> None:
    """Transient 5xx on posts, edits, interaction callbacks and deferred answers
    (502 and 500, which discord.py retries itself; 503, which it hands to the
    outbox's backoff), and 429s from a global limit the bot cannot plan for:
    every answer, post and edit arrives once."""
    standin = league.standin
    standin.limits.global_per_second = 4  # 429s with X-RateLimit-Global: discord.py cannot plan
    who = league.players[:10]
    async with running_bot(league.settings, standin=league.standin):
        standin.fail_next("POST /channels/*/messages", status=503, times=2)  # outbox backoff
        standin.fail_next("POST /channels/*/messages", status=502, times=2)  # discord.py retries
        standin.fail_next("POST /interactions/*/*/callback", status=500, times=1)
        standin.fail_next("POST /webhooks/*/*", status=502, times=2)  # the deferred answers
        with caplog.at_level(logging.WARNING):
            answers = [await league.run(m, "score", {"game": 3, "score": "3M"}) for m in who]
            await league.delivered(timeout=60)
            groups = sorted({re.search(r"Group (\w+)", shown(p))[1] for p in league.pending()})
            standin.fail_next("PATCH /channels/*/messages/*", status=503, times=2)
            standin.fail_next("PATCH /channels/*/messages/*", status=502, times=1)
            standin.fail_next("POST /interactions/*/*/callback", status=502, times=1)
            for group in groups:
                command = "league night approve-all"
                answers.append(await league.run(league.koi, command, {"group": group}))
            await league.delivered(timeout=60)
    assert not standin.faults.pending  # every injected failure was met
    assert standin.rate_limited  # and 429s
    assert not any(e.errors for e in answers), [e.errors for e in answers]
    assert all("Submitted" in a.content for a in answers[:10])
    assert all(a.content.startswith("Approved") for a in answers[10:])
    assert sorted(m for m, *_ in league.scores()) == sorted(who)  # each stored once
    assert {status for *_, status in league.scores()} == {"approved"}
    posts = standin.channel_messages(league.approvals)
    assert len(posts) == len(groups)  # each group's card posted once
    # approve-all's edits come from the outbox: every card shows its scores decided
    assert all(shown(p).endswith("All decided.") for p in posts)
    assert not any(p.get("components") for p in posts)
    assert sorted({mid for *_, mid in league.approval_posts()}) == sorted(
        int(p["id"]) for p in posts
    )
    assert "unexpected error" not in caplog.text


async def test_a_ban_429_is_waited_out_for_its_retry_after_not_the_shorter_backoff(
    league: League,
) -> None:
    """Cloudflare's ban in front of Discord answers 429 with Retry-After and no
    Via: discord.py gives up at once and the outbox takes it. Its own backoff
    would try again after 2 s; it waits the 3 s Discord asked for, then posts once."""
    standin = league.standin
    cards = f"/api/v10/channels/{league.approvals}/messages"
    async with running_bot(league.settings, standin=standin):
        standin.fail_next(f"POST /channels/{league.approvals}/messages", status=429, retry_after=3)
        answer = await league.run(league.players[0], "score", {"game": 3, "score": "3M"})
        await league.delivered(timeout=30)
    assert answer.content.startswith("Submitted"), answer.content
    posts = [r for r in standin.requests if r.method == "POST" and r.path == cards]
    assert [r.status for r in posts] == [429, 200]
    assert posts[1].at - posts[0].at >= 2.9  # not the backoff's 2 s
    assert len(standin.channel_messages(league.approvals)) == 1
