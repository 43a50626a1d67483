"""The biggest scorecards the rules allow, through the real bot and the loopback
Discord with Discord's limits on (6,000 characters a message over all its
embeds: 400 50035 past it): 4 players × 10 games (the most `games_per_night`
allows), 64-character names and machines, the highest score, a photo with every
score, each sent by a group mate, rejections with 300-character reasons. Each
card is posted and edited, shows every score, and every one of its waiting
scores can be rejected from it (a menu lists at most 25)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot import photos
from bot.scoring import MAX_SCORE
from bot.services import scores
from cogs.scorecards import scorecards_decisions
from standin import DiscordStandIn, Limits
from tests.e2e.harness import TOKEN, Server, bot_settings, locked_night, running_bot, small_server
from tests.test_photos import phone_jpeg

TONIGHT = datetime(2026, 1, 7, 20, 0, tzinfo=ZoneInfo("America/New_York"))
REASON = (
    "The photo shows another machine's display and the score is a digit longer than "
    "the one in it; take the photo again with the whole display and the machine's "
    "name in it, then send the score again with /score and the new photo. Thanks, "
    "and sorry for the trouble: every score is checked against its photo"
)
assert len(REASON) == 300  # the longest reason the commissioner can give


def player_name(n: int) -> str:
    return f"{n} Maximiliana Wolfeschlegelsteinhausenbergerdorff-Ramírez Ortega"[:64]


def machine_name(n: int) -> str:
    return f"{n} The Wizard of Oz Limited Edition with the Emerald City Topper!"[:64]


@dataclass
class Night:
    standin: DiscordStandIn
    server: Server
    database: Path
    card_id: int
    score_ids: list[int]  # the group of four's scores, game by game


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandIn]:
    async with DiscordStandIn(token=TOKEN, limits=Limits()) as running:  # Discord's limits
        yield running


async def biggest_card(standin: DiscordStandIn, tmp_path: Path, rejected: int) -> Night:
    """Seven players (groups of 3 and 4), ten games tonight; in the group of four
    every score is in, with a photo, each sent by a group mate; the first
    `rejected` are rejected with the longest reason. The photos' posts are taken
    as sent (forty posts would wait out Discord's 5 per 5 s), so the bot's only
    post at its start is the card."""
    server = small_server(standin, "Extreme League", 7)
    database = tmp_path / "league.sqlite3"
    photo = photos.clean(phone_jpeg((640, 480)))
    async with locked_night(database, server, "Extreme League", TONIGHT, player_name=player_name,
                            skill=lambda n: 8 - n,  # P1 to P3 top, P4 to P7 the group of four
                            machines=10, machine_name=machine_name,
                            settings={"games_per_night": "10"}) as db:  # fmt: skip
        four = server.players[3:]  # the bottom group (R8.1: 7 = 3 + 4)
        ids = []
        for game in range(1, 11):
            for n, member in enumerate(four):
                mate = four[(n + 1) % 4]
                view = await scores.submit(db, server.guild, mate, game, MAX_SCORE - game * 10 - n,
                                           player=member, photo=photo, now=TONIGHT)  # fmt: skip
                assert view.group_label == "Group 2"
                ids.append(view.score.id)
        async with db.read() as conn:  # the one card: the group of three sent nothing
            [(card_id,)] = await conn.execute_fetchall("SELECT id FROM approval_cards")
        for score_id in ids[:rejected]:
            await scorecards_decisions.reject(db, server.guild, card_id, f"s{score_id}", REASON,
                                        by=server.koi, now=TONIGHT)  # fmt: skip
    with sqlite3.connect(database) as conn:  # the photos' posts and the DMs, as if sent
        conn.execute("UPDATE score_photos SET message_id = 1300000000000000000 + score_id")
        conn.execute("UPDATE outbox SET status = 'sent' WHERE kind <> 'approval'")
    return Night(standin, server, database, card_id, ids)


def the_card(standin: DiscordStandIn, server: Server) -> dict[str, Any]:
    [card] = [m for m in standin.channel_messages(server.approvals)
              if (m.get("embeds") or [{}])[0].get("title") == "Week 1 · Group 2"]  # fmt: skip
    return card


def card_text(card: dict[str, Any]) -> str:
    return "\n".join(f["value"] for e in card["embeds"] for f in e.get("fields", []))


def menu(message: dict[str, Any], placeholder: str) -> dict[str, Any]:
    return next(c for row in message["components"] for c in row["components"]
                if c.get("placeholder") == placeholder)  # fmt: skip


@pytest.mark.parametrize("rejected", [0, 20, 40], ids=["all-waiting", "half-rejected",
                                                       "all-rejected"])  # fmt: skip
async def test_the_biggest_card_is_posted_edited_and_shows_every_score(
    standin: DiscordStandIn, tmp_path: Path, rejected: int
) -> None:
    night = await biggest_card(standin, tmp_path, rejected)
    settings = bot_settings(standin, night.server, TOKEN, night.database, tmp_path / "backups")
    async with running_bot(settings, standin=standin) as bot:
        await bot.outbox.settled()
        card = the_card(standin, night.server)
        shown = card_text(card)
        for game in range(1, 11):
            for n in range(4):
                state = "✗" if (game - 1) * 4 + n < rejected else "⏳"
                assert f" {MAX_SCORE - game * 10 - n:,} {state}" in shown
        assert sum(len(e.get("fields", [])) for e in card["embeds"]) >= 10
        footer = card["embeds"][-1]["footer"]["text"]
        assert footer == (f"{40 - rejected} waiting for approval" if rejected < 40
                          else "All decided.")  # fmt: skip
        waiting_links = shown.count(f"https://discord.com/channels/{night.server.guild}/")
        assert waiting_links >= 40 - rejected  # every waiting score's photo is linked
        if rejected < 40:  # an edit of the card, as big, is accepted too
            await scorecards_decisions.approve_game(bot.db, night.server.guild, night.card_id, "10",
                                              by=night.server.koi, now=TONIGHT)  # fmt: skip
            bot.outbox.wake()
            await bot.outbox.settled()
            assert "✓" in card_text(the_card(standin, night.server))
    assert standin.rejected == []  # Discord refused nothing


async def test_every_one_of_forty_waiting_scores_can_be_rejected_from_the_card(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    night = await biggest_card(standin, tmp_path, 0)
    settings = bot_settings(standin, night.server, TOKEN, night.database, tmp_path / "backups")
    koi, approvals = night.server.koi, night.server.approvals
    async with running_bot(settings, standin=standin) as bot:
        await bot.outbox.settled()
        card = the_card(standin, night.server)
        games = menu(card, "Reject a score…")
        # more wait than a menu holds: the games first
        assert [o["label"] for o in games["options"]] == [
            f"Game {g} · {machine_name(g - 1)} · 4 waiting"[:100] for g in range(1, 11)
        ]
        last = night.score_ids[-1]  # game 10, the fourth player
        picked = await standin.click(koi, card["id"], games["custom_id"],
                                     values=[games["options"][-1]["value"]])  # fmt: skip
        await picked.done(timeout=10, quiet=0.05)
        assert picked.ephemeral and picked.texts[-1].startswith("Which score on Game 10 · ")
        private = picked.messages[-1]
        scores_menu = menu(private, "Reject a score…")
        assert len(scores_menu["options"]) == 4
        assert scores_menu["options"][-1]["value"] == f"s{last}"
        opened = await standin.click(koi, private["id"], scores_menu["custom_id"],
                                     values=[f"s{last}"])  # fmt: skip
        await opened.done(timeout=10, quiet=0.05)
        assert opened.modal is not None
        reason_id = opened.modal["components"][0]["components"][0]["custom_id"]
        done = await standin.submit_modal(
            koi, opened.modal["custom_id"], {reason_id: "Blurry photo"}, channel_id=approvals
        )
        await done.done(timeout=10, quiet=0.05)
        assert done.content.startswith(f"Rejected {player_name(7)}'s ")
        await bot.outbox.settled()
        shown = card_text(the_card(standin, night.server))
        assert f" {MAX_SCORE - 100 - 3:,} ✗" in shown
        assert the_card(standin, night.server)["embeds"][-1]["footer"]["text"] == (
            "39 waiting for approval"
        )
    assert standin.rejected == []
