"""A refused channel through the real bot and the loopback Discord: the
announcements channel refuses the bot (403) when the night is finalized.

Nothing is lost: the commissioner is told in the approvals channel, the results
and standings are kept, and once the channel is fixed `/league admin resend`
posts them once, with no score and no audit entry touched."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from PIL import Image

from bot.config import Settings
from bot.services import approvals, scores
from bot.stage import running_bot
from bot.transcript import shown
from bot.ui.picture import WIDTH
from standin import DiscordStandIn, Exchange, Limits
from tests.e2e.harness import bot_settings, locked_night, small_server

ZONE = ZoneInfo("America/New_York")
TONIGHT = datetime(2026, 1, 7, 20, 0, tzinfo=ZONE)
TOKEN = "refused-token.not-a-secret.0123456789abcdef"


@dataclass
class League:
    standin: DiscordStandIn
    settings: Settings
    general: int
    announcements: int
    approvals: int
    koi: int

    async def run(self, command: str, options: dict[str, Any] | None = None) -> Exchange:
        exchange = await self.standin.invoke(
            self.koi, command, options or {}, channel_id=self.general
        )
        return await exchange.done(timeout=30, quiet=0.02)

    def posts(self, channel: int) -> list[str]:
        return [shown(m) for m in self.standin.channel_messages(channel)]

    def table(self, sql: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.settings.database_path) as conn:
            return conn.execute(sql).fetchall()


@pytest.fixture
async def league(tmp_path: Path) -> AsyncIterator[League]:
    """Four players, week 1 played and every score approved; the announcements
    channel refuses the bot."""
    standin = DiscordStandIn(token=TOKEN, limits=Limits())  # as strict as Discord
    await standin.start()
    try:
        server = small_server(standin, "Refused League", 4, announcements_open=False)
        guild, koi, players = server.guild, server.koi, server.players
        database = tmp_path / "league.sqlite3"
        async with locked_night(database, server, "Refused League", TONIGHT) as db:
            for n, member in enumerate(players, start=1):
                for game in range(1, 6):
                    view = await scores.submit(
                        db, guild, member, game, n * 1_000_000 + game, now=TONIGHT
                    )
                    await approvals.decide_score(
                        db, guild, view.score.id, True, by=koi, now=TONIGHT
                    )
        settings = bot_settings(standin, server, TOKEN, database, tmp_path / "backups")
        standin.set_time(TONIGHT.replace(hour=22, minute=45))
        yield League(standin, settings, server.general, server.announcements, server.approvals, koi)
    finally:
        await standin.stop()


async def test_results_refused_by_the_channel_are_kept_reported_and_resent_once(
    league: League,
) -> None:
    async with running_bot(league.settings, standin=league.standin) as bot:
        final = await league.run("league night finalize")
        assert final.content == "Week 1 is final."
        await bot.outbox.settled()
        assert league.posts(league.announcements) == []
        # The commissioner hears of it where the bot can still reach them, once.
        alerts = [p for p in league.posts(league.approvals) if p.startswith("Heads-up")]
        assert len(alerts) == 1, alerts
        alert = alerts[0]
        assert alert.startswith("Heads-up: Discord refused 2 posts of the bot.")
        assert "- results of week 1 to #announcements: the bot is not allowed to post there" in (
            alert
        )
        assert "/league admin resend" in alert
        again = await league.run("league night finalize")
        assert again.content == "Week 1 was already final; nothing changed."

        status = await league.run("league admin status")
        assert "Posts waiting: 0 · failed: 2" in status.content

        scores_before = league.table("SELECT * FROM scores ORDER BY id")
        league.standin.allow(league.announcements)  # the server admin fixes the channel
        resent = await league.run("league admin resend")
        assert resent.content.startswith("2 failed posts will be sent again.")
        await bot.outbox.settled()
        posted = league.posts(league.announcements)
        assert len(posted) == 2
        assert posted[0].startswith("**Week 1 results · Wednesday 07 January**")
        assert posted[1].startswith("**Standings · ")
        # Resending again posts nothing more: nothing failed is left.
        nothing = await league.run("league admin resend")
        assert nothing.content.startswith("No failed posts to send again.")
        await bot.outbox.settled()
        assert len(league.posts(league.announcements)) == 2

    # No score and no audit entry was touched to post them (R12.4).
    assert league.table("SELECT * FROM scores ORDER BY id") == scores_before
    assert league.table("SELECT count(*) FROM score_changes") == [(0,)]


async def test_resend_with_a_week_after_a_refusal_posts_the_week_once(league: League) -> None:
    """The refused results and standings are that week's: naming the week owes
    them once, not once for the failed posts and once more for the week."""
    async with running_bot(league.settings, standin=league.standin) as bot:
        await league.run("league night finalize")
        await bot.outbox.settled()
        league.standin.allow(league.announcements)
        again = await league.run("league admin resend", {"week": 1})
        assert again.content == (
            "Week 1's results and standings will be posted again. "
            "No score, result or audit entry changed."
        )
        await bot.outbox.settled()
        posted = league.posts(league.announcements)
        assert [p.split("\n", 1)[0] for p in posted] == [
            "**Week 1 results · Wednesday 07 January**",
            "**Standings · Winter**",
        ]
        status = await league.run("league admin status")
        assert "failed: 0" in status.content


async def test_a_channel_refused_again_later_is_told_of_the_new_post_only(
    league: League,
) -> None:
    """A post refused after the commissioner was told of the first refusals is
    one more alert naming only that post, never the earlier ones again."""
    async with running_bot(league.settings, standin=league.standin) as bot:
        await league.run("league night finalize")
        await bot.outbox.settled()
        await league.run("league admin resend", {"week": 1})  # still refused
        await bot.outbox.settled()
        alerts = [p for p in league.posts(league.approvals) if p.startswith("Heads-up")]
        assert len(alerts) == 2, alerts
        assert alerts[1].startswith("Heads-up: Discord refused 2 posts of the bot.")
        assert alerts[1].count("\n- ") == 2  # the week's two posts owed again, no more


async def test_resend_with_a_week_posts_its_results_and_standings_again(league: League) -> None:
    league.standin.allow(league.announcements)
    async with running_bot(league.settings, standin=league.standin) as bot:
        await league.run("league night finalize")
        await bot.outbox.settled()
        first = league.posts(league.announcements)
        assert len(first) == 2
        again = await league.run("league admin resend", {"week": 1})
        assert again.content == (
            "Week 1's results and standings will be posted again. "
            "No score, result or audit entry changed."
        )
        await bot.outbox.settled()
        assert league.posts(league.announcements) == first + first
    assert league.table("SELECT count(*) FROM score_changes") == [(0,)]


def standings_picture(league: League, message: dict[str, Any]) -> bytes:
    """The PNG attached to a standings post, as the stand-in received it."""
    assert [a["filename"] for a in message["attachments"]] == ["standings.png"]
    data = league.standin.attachment_bytes(message)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(data)).size[0] == WIDTH
    return data


async def test_the_weekly_standings_post_carries_the_picture_and_a_resend_attaches_it_again(
    league: League,
) -> None:
    league.standin.allow(league.announcements)
    async with running_bot(league.settings, standin=league.standin) as bot:
        await league.run("league night finalize")
        await bot.outbox.settled()
        results, standings = league.standin.channel_messages(league.announcements)
        assert results["attachments"] == []
        first = standings_picture(league, standings)
        await league.run("league admin resend", {"week": 1})
        await bot.outbox.settled()
        again = league.standin.channel_messages(league.announcements)[-1]
        assert standings_picture(league, again) == first  # the same standings, the same picture
        assert again["attachments"][0]["id"] != standings["attachments"][0]["id"]


async def test_a_refused_standings_post_is_resent_with_its_picture(league: League) -> None:
    async with running_bot(league.settings, standin=league.standin) as bot:
        await league.run("league night finalize")
        await bot.outbox.settled()
        assert league.posts(league.announcements) == []  # refused (403): kept, not lost
        league.standin.allow(league.announcements)
        await league.run("league admin resend")
        await bot.outbox.settled()
        standings = league.standin.channel_messages(league.announcements)[-1]
        standings_picture(league, standings)


async def test_standings_answer_carries_the_picture_of_the_standings_now(league: League) -> None:
    """/standings through the stand-in: the table and, attached to its last
    message, the PNG; after the night is finalized the picture is a new one."""
    async with running_bot(league.settings, standin=league.standin) as bot:
        before = await league.run("standings")
        last = (before.followups or [before.reply])[-1]
        assert last is not None and shown(before.reply or {}).startswith("**Standings · ")
        first = standings_picture(league, last)
        await league.run("league night finalize")
        await bot.outbox.settled()
        after = await league.run("standings")
        assert standings_picture(league, (after.followups or [after.reply])[-1]) != first
