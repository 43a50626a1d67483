"""Phone-width posts and paging through the real bot and the loopback Discord: the week's posts are
embeds within Discord's limits (the stand-in refuses anything over, as Discord
does), and long lists page with ◀ ▶ buttons that work after a restart.

A 20-player league (five groups of four), week 1 played and approved, twenty
score changes in the audit trail; the commissioner finalizes through /league.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.config import Settings
from bot.services import approvals, score_changes, scores
from bot.stage import running_bot
from bot.transcript import shown
from standin import DiscordStandIn, Exchange, Limits
from standin.commands import InvalidInvocation
from standin.messages import BadMessage, check_body
from tests.e2e.harness import Server, bot_settings, locked_night, small_server

ZONE = ZoneInfo("America/New_York")
TONIGHT = datetime(2026, 1, 7, 20, 0, tzinfo=ZONE)
TOKEN = "paging-token.not-a-secret.0123456789abcdef"
PLAYERS = 20


@dataclass
class League:
    standin: DiscordStandIn
    settings: Settings
    server: Server

    async def run(self, command: str, options: dict[str, Any] | None = None) -> Exchange:
        exchange = await self.standin.invoke(
            self.server.koi, command, options or {}, channel_id=self.server.general
        )
        return await exchange.done(timeout=30, quiet=0.02)

    async def click(self, member: int, message: dict[str, Any], label: str) -> Exchange:
        button = next(c for row in message["components"] for c in row["components"]
                      if c.get("label") == label)  # fmt: skip
        exchange = await self.standin.click(member, int(message["id"]), button["custom_id"])
        return await exchange.done(timeout=30, quiet=0.02)

    def announced(self) -> list[dict[str, Any]]:
        return self.standin.channel_messages(self.server.announcements)


@pytest.fixture
async def league(tmp_path: Path) -> AsyncIterator[League]:
    standin = DiscordStandIn(token=TOKEN, limits=Limits())  # as strict as Discord
    await standin.start()
    try:
        server = small_server(standin, "Paged League", PLAYERS)
        guild, koi = server.guild, server.koi
        database = tmp_path / "league.sqlite3"
        async with locked_night(database, server, "Paged League", TONIGHT,
                                player_name=lambda n: f"Player {n:02}",
                                skill=lambda n: 10 - n // 3) as db:  # fmt: skip
            for n, member in enumerate(server.players, start=1):
                for game in range(1, 6):
                    view = await scores.submit(
                        db, guild, member, game, n * 1_000_000 + game, now=TONIGHT
                    )
                    await approvals.decide_score(
                        db, guild, view.score.id, True, by=koi, now=TONIGHT
                    )
            for n in range(20):
                await score_changes.change(db, guild, week=1, player_name="Player 01",
                                           game_number=1 + n % 5, kind="correction",
                                           reason=f"re-read {n}", new_score=10 + n, by=koi,
                                           now=TONIGHT.replace(minute=10 + n))  # fmt: skip
        settings = bot_settings(standin, server, TOKEN, database, tmp_path / "backups")
        standin.set_time(TONIGHT.replace(hour=22, minute=45))
        yield League(standin, settings, server)
    finally:
        await standin.stop()


def ranks(message: dict[str, Any]) -> list[int]:
    return [int(r) for r in re.findall(r"^(\d+)\. Player\u00a0\d\d · ", shown(message), re.M)]


def page_of(message: dict[str, Any]) -> str:
    return message["embeds"][0]["footer"]["text"].rsplit(" · ", 1)[-1]


async def test_posts_are_embeds_and_standings_page_with_buttons_across_a_restart(
    league: League,
) -> None:
    async with running_bot(league.settings, standin=league.standin) as bot:
        final = await league.run("league night finalize")
        assert final.content == "Week 1 is final."
        await bot.outbox.settled()
        results, standings = league.announced()
        for post in (results, standings):  # the stand-in took them: within every limit
            assert post["content"] == "" and post["embeds"]
            check_body(post, creating=True)  # and they still pass Discord's checks
        assert shown(results).startswith("**Week 1 results · Wednesday 07 January**")
        assert "pts league points · MP match points" in shown(results)
        # names kept whole on a phone: their spaces do not break
        assert shown(standings).startswith("**Standings · Winter**\n1. Player\u00a0")
        assert ranks(standings) == list(range(1, 19))  # a phone screen
        assert standings["attachments"]  # the standings picture, still attached
        assert page_of(standings) == "Page 1 of 2"
        back, forward = standings["components"][0]["components"]
        assert back["disabled"] and not forward.get("disabled")

        # A player's click on the public post: page 2, for them alone.
        ann = league.server.players[0]
        clicked = await league.click(ann, standings, "▶")
        assert clicked.ephemeral and page_of(clicked.reply) == "Page 2 of 2"  # type: ignore[arg-type]
        assert league.announced()[1] == standings  # the post is as everyone sees it
        private = clicked.reply
        assert private is not None and ranks(private) == [19, 20]
        # The last page: ▶ is disabled, and Discord's client will not click it.
        assert private["components"][0]["components"][1]["disabled"]
        with pytest.raises(InvalidInvocation, match="disabled"):
            await league.click(ann, private, "▶")

    # After a restart, ◀ on the private page turns it back, in place.
    async with running_bot(league.settings, standin=league.standin, sync=False):
        turned = await league.click(ann, private, "◀")
        assert turned.reply is None and turned.updated_message is not None
        assert page_of(turned.updated_message) == "Page 1 of 2"
        assert ranks(turned.updated_message) == list(range(1, 19))


async def test_the_audit_trail_pages_for_the_commissioner_only(league: League) -> None:
    async with running_bot(league.settings, standin=league.standin):
        audit = await league.run("league score audit")
        trail = audit.followups[0] if audit.followups else audit.reply
        assert audit.ephemeral and trail is not None
        assert page_of(trail) == "Page 1 of 7"  # 20 changes, three a page
        assert "“re-read 19”" in shown(trail)
        # Someone without the role who got hold of the buttons is refused, privately.
        refused = await league.click(league.server.players[1], trail, "▶")
        assert refused.ephemeral and refused.content == "Only the commissioner can do that."
        assert page_of(league.standin.messages[int(trail["id"])]) == "Page 1 of 7"
        turned = await league.click(league.server.koi, trail, "▶")
        assert page_of(turned.updated_message) == "Page 2 of 7"  # type: ignore[arg-type]
        assert "“re-read 16”" in shown(turned.updated_message)  # type: ignore[arg-type]


def test_the_stand_in_refuses_an_embed_over_discords_limits() -> None:
    """The limits the posts above are held to (Discord's Embed Limits)."""
    field = {"name": "Group 1", "value": "x" * 1000}
    with pytest.raises(BadMessage, match="Invalid Form Body"):
        check_body({"embeds": [{"title": "t", "fields": [field] * 7}]}, creating=True)  # 7,001
    with pytest.raises(BadMessage, match="Invalid Form Body"):
        check_body({"embeds": [{"title": "t", "fields": [field] * 26}]}, creating=True)
    with pytest.raises(BadMessage, match="Invalid Form Body"):
        check_body({"embeds": [{"title": "t"}] * 11}, creating=True)
    check_body({"embeds": [{"title": "t", "fields": [field] * 5}]}, creating=True)
