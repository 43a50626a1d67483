"""End to end: a whole night of scorecards, score forms and rejections
reaching their players, through the real bot and the loopback Discord.

The scripted night of `bot.demo` sets the league up; from the lock on, this
test plays the scores its own way: a form refused whole, a scorekeeper's form
for a game, a burst of four /score commands on one card, everyone's remaining
games by form, then two rejections (one player's DMs open, one's closed), the
scores sent again, the cards approved and the night finalized.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

from bot import demo, demo_script, stage
from bot.demo_night import LeagueNight
from bot.demo_script import ABSENT, PLAYERS, SCORES
from bot.transcript import Transcript
from standin import DiscordStandIn
from tests.e2e.test_league_night import expected_outcome

TYPO_REASON = "That looks like a typo: one zero short?"
FAY_REASON = "The photo shows someone else's game"


def stored_scores(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT count(*) FROM scores").fetchone()[0]


def card_of(night: LeagueNight, group: int) -> dict[str, Any]:
    [card] = [
        m
        for m in night.standin.channel_messages(night.world.approvals)
        if (m.get("embeds") or [{}])[0].get("title") == f"Week 1 · Group {group}"
    ]
    return card


def game_lines(card: dict[str, Any], number: int) -> list[str]:
    [value] = [
        f["value"] for f in card["embeds"][0]["fields"] if f["name"].startswith(f"Game {number} ")
    ]
    return value.split("\n")


def footer(card: dict[str, Any]) -> str:
    return card["embeds"][0]["footer"]["text"]


def edits_of(standin: DiscordStandIn, channel: int, message: dict[str, Any]) -> int:
    """The edits Discord accepted for one message (a 502 answered is not one)."""
    path = f"/api/v10/channels/{channel}/messages/{message['id']}"
    return sum(1 for r in standin.requests if r.method == "PATCH" and r.path == path
               and 200 <= r.status < 300)  # fmt: skip


async def test_r2_4_r5_r7_a_night_of_scorecards_forms_and_rejections_reaching_players(
    tmp_path: Path,
) -> None:
    standin = DiscordStandIn(token=demo_script.TOKEN)
    await standin.start()
    try:
        world = demo.build_world(standin)
        night = LeagueNight(standin, world, Transcript(world.names(), {}))
        database = tmp_path / "league.sqlite3"
        settings = demo.settings_for(standin, world, database)
        koi = world.commissioner
        ann, bob, cat, dan, fay = (night.member(n) for n in ("Ann", "Bob", "Cat", "Dan", "Fay"))
        standin.close_dms(fay)
        async with stage.running_bot(settings) as bot:
            night.bot = bot
            await night.set_up()
            await night.afternoon()
            await night.dues()
            games = night.games_of("Ann")

            def label(number: int) -> str:
                return f"Game {number} · {games[number - 1]}"

            # One bad field refuses the whole form: nothing stored, no card posted.
            posts = len(standin.channel_messages(world.approvals))
            refused = await night.form(ann, {label(1): "61M", label(2): "12x", label(3): "410M"})
            assert refused.ephemeral and refused.content.startswith(f"{label(2)}: ")
            assert "12x" in refused.content and refused.content.endswith("Nothing was stored.")
            blank = await night.form(ann, {})
            assert blank.ephemeral and blank.content == "Every field was blank: nothing was stored."
            assert stored_scores(database) == 0
            assert len(standin.channel_messages(world.approvals)) == posts
            mine = await night.run(ann, "me")
            assert "Tonight's scores" not in mine.content

            # A scorekeeper fills game 1 for the group: one field per member.
            kept = await night.form(ann, {"Ann": "61,250,000", "Bob": "40M", "Cat": "48M"}, game=1)
            assert kept.ephemeral and kept.content.startswith(
                "Submitted 3 scores for week 1 · Group 1, waiting for the commissioner:"
            )
            card = card_of(night, 1)  # posted with its first scores
            assert game_lines(card, 1) == [
                "Ann 61,250,000 ⏳",
                f"Bob 40,000,000 ⏳ (by <@{ann}>)",
                f"Cat 48,000,000 ⏳ (by <@{ann}>)",
            ]
            assert footer(card) == "3 waiting for approval"

            # A burst of four /score commands on the card makes at most two edits: the
            # one under way when the burst starts and ONE for the rest (coalesced).
            # Discord answers an edit in ~100 ms, the stand-in in ~1 ms: a 502 on the
            # first edit (discord.py waits a second and retries) keeps it under way,
            # as Discord's latency would, while the other three arrive.
            edits = edits_of(standin, world.approvals, card)
            path = f"/channels/{world.approvals}/messages/{card['id']}"
            standin.fail_next(f"PATCH {path}", status=502)
            burst = [(ann, 2, "25M"), (bob, 2, "4.0M"), (cat, 2, "9M"), (ann, 3, "410M")]
            sent = [await standin.invoke(ann, "score", {"game": 2, "score": "25M"},
                                         channel_id=world.general)]  # fmt: skip
            met = [r for r in standin.requests if r.path == f"/api/v10{path}"]
            async with asyncio.timeout(10):  # until the first edit has met the 502
                while not any(r.status == 502 for r in met):  # the stand-in signals no event for it
                    await asyncio.sleep(0.01)
                    met = [r for r in standin.requests if r.path == f"/api/v10{path}"]
            sent += [
                await standin.invoke(who, "score", {"game": game, "score": typed},
                                     channel_id=world.general)
                for who, game, typed in burst[1:]
            ]  # fmt: skip
            answered = await asyncio.gather(*(e.done(timeout=10, quiet=0.05) for e in sent))
            assert all(a.ephemeral and a.content.startswith("Submitted:") for a in answered)
            await night.delivered()
            assert edits_of(standin, world.approvals, card) - edits == 2
            card = card_of(night, 1)  # the card shows all four after its last edit
            assert game_lines(card, 2) == [
                "Ann 25,000,000 ⏳",
                "Bob 4,000,000 ⏳",
                "Cat 9,000,000 ⏳",
            ]
            assert game_lines(card, 3)[0] == "Ann 410,000,000 ⏳"
            assert footer(card) == "7 waiting for approval"

            # Everyone's remaining games by the form: it offers only the games still open.
            done = await night.own_form("Ann")
            assert re.findall(r"- (Game \d · [^·]+) ·", done.content) == [label(4), label(5)]
            for name in ("Bob", "Cat"):
                await night.own_form(name)
            assert footer(card_of(night, 1)) == "15 waiting for approval"
            first = night.games_of("Dan")[0]
            entries = {n: SCORES[n][first] for n in ("Dan", "Eve", "Fay")}
            kept = await night.form(dan, {**entries, ABSENT: "1M"}, game=1)
            assert ABSENT not in kept.content  # absent Gus has no field (R2.4): pre-makeups play
            assert kept.content.startswith("Submitted 3 scores for week 1 · Group 2")
            for name in ("Dan", "Eve", "Fay"):
                await night.own_form(name)
            assert footer(card_of(night, 2)) == "15 waiting for approval"
            titles = [(m.get("embeds") or [{}])[0].get("title", "")
                      for m in standin.channel_messages(world.approvals)]  # fmt: skip
            cards = [t for t in titles if t.startswith("Week 1 · Group")]
            assert len(cards) == 2  # one card per group, edited, never posted again

            # Bob's typo is rejected from his card: he gets a DM with the reason and
            # what to do; the card shows it rejected, with the reason.
            typo = f"Bob 4,000,000 · {label(2)}"
            await night.reject(koi, card_of(night, 1), typo, TYPO_REASON)
            [dm] = standin.dms(bob)
            assert dm["content"] == (
                f"The commissioner rejected your score of 4,000,000 on game 2 ({games[1]}), "
                f"week 1. Send it again with /score.\nReason: {TYPO_REASON}"
            )
            assert f"Bob 4,000,000 ✗ — {TYPO_REASON}" in game_lines(card_of(night, 1), 2)
            # Fay's DMs are closed: a short mention in the announcements instead, with
            # what to do but not the reason, which her /me shows her alone.
            fay_game = night.games_of("Fay")[2]
            fay_score = f"{demo_script.raw(SCORES['Fay'][fay_game]):,}"
            announced = len(standin.channel_messages(world.announcements))
            await night.reject(koi, card_of(night, 2), f"Fay {fay_score} · Game 3 · {fay_game}",
                               FAY_REASON)  # fmt: skip
            assert standin.dms(fay) == []
            [mention] = standin.channel_messages(world.announcements)[announced:]
            assert mention["content"] == (
                f"<@{fay}> The commissioner rejected your score of {fay_score} on game 3 "
                f"({fay_game}), week 1. Send it again with /score."
            )
            hers = await night.run(fay, "me")
            assert f"- Game 3 · {fay_game}: {fay_score} · rejected: {FAY_REASON}" in hers.content
            theirs = await night.run(dan, "me", {"player": fay})
            assert "rejected" in theirs.content and FAY_REASON not in theirs.content

            # Both send it again; the cards are approved; the night is finalized.
            again = await night.run(bob, "score", {"game": 2, "score": SCORES["Bob"][games[1]]})
            assert again.content.startswith("Submitted:")
            await night.run(fay, "score", {"game": 3, "score": SCORES["Fay"][fay_game]})
            for card in night.approvals():
                await night.click(koi, card, "Approve all complete")
            assert night.approvals() == []
            assert all(footer(card_of(night, g)) == "All decided." for g in (1, 2))
            await night.finish()
            # Each player's /me: the league points the rules module computes (R5-R7).
            outcome = expected_outcome(night)
            points = {n: p for g in outcome.groups for n, p in g.league_points.items()}
            for name in PLAYERS:
                me = await night.run(night.member(name), "me")
                assert f"**{name}** · " in me.content
                assert f"{points[name]} league points over 1 night(s)" in me.content, me.content
            public = [m["content"] for m in standin.channel_messages(world.announcements)]
    finally:
        await standin.stop()
    # No reason was ever posted publicly.
    assert not any(TYPO_REASON in text or FAY_REASON in text for text in public)
