"""Every scorecard the rules allow fits one Discord message (cogs/scorecards/scorecards_text.py): 4
players, 10 games (the most a season's `games_per_night` allows), 64-character
names and machines, the highest score, a photo on every score, someone else
submitting each, rejections with 300-character reasons. Each card is checked by
the stand-in's own validator (standin/messages.py), which answers as Discord
does, and must still show every score with its state and no broken link.
"""

from __future__ import annotations

import re

import pytest

from bot.scoring import MAX_SCORE
from bot.ui.fit import cut_line
from cogs.scorecards.scorecards_outcomes import (
    APPROVED,
    MISSING,
    REJECTED,
    WAITING,
    CardGame,
    CardLine,
    CardPhoto,
    CardView,
)
from cogs.scorecards.scorecards_text import card_embeds, jump_link
from standin.messages import check_body

GUILD, CHANNEL = 1_234_567_890_123_456_789, 1_234_567_890_123_456_780
MEMBER = 1_299_999_999_999_999_999  # a group mate who sent the scores
REASON = ("The photo shows another machine's display, and the score is one digit longer "
          "than the one in the photo; please take the photo again so the whole display "
          "and the machine's name are in it, then send the score again with /score and "
          "the new photo. Thanks, and sorry for the trouble: every score is checked "
          "against its photo tonight.")[:300]  # fmt: skip
OLD_LINK = ("https://cdn.discordapp.com/attachments/1234567890123456789/1234567890123456789/"
            "IMG_20260311_201500.jpg?ex=67a1b2c3&is=67a06143&hm=" + "0123456789abcdef" * 4
            + "&")  # fmt: skip
LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\s]*)\)")
MARKS = {APPROVED: "✓", WAITING: "⏳", REJECTED: "✗", MISSING: "–"}


def long_name(n: int) -> str:
    return f"{n} Maximiliana Wolfeschlegelsteinhausenbergerdorff Ramírez-Ortega"[:64].ljust(64, "x")


def machine(n: int) -> str:
    return f"{n} The Wizard of Oz Limited Edition with the Emerald City Castle Topper"[:64]


def card(
    players: int,
    games: int,
    state: str,
    *,
    photo: str = "posted",
    by: bool = True,
    name=long_name,
    score: int = MAX_SCORE,
) -> CardView:  # type: ignore[no-untyped-def]
    """A group's card: `players` × `games`, every line in `state` ("mixed": by turns)."""
    states = [WAITING, APPROVED, REJECTED, MISSING]
    found = []
    for g in range(1, games + 1):
        lines = []
        for p in range(1, players + 1):
            now = states[(g + p) % 4] if state == "mixed" else state
            number = g * 10 + p
            shown = {"posted": CardPhoto(message_id=1_300_000_000_000_000_000 + number),
                     "coming": CardPhoto(), "old": CardPhoto(old_link=OLD_LINK),
                     "none": None}[photo]  # fmt: skip
            if now == MISSING:
                lines.append(CardLine(name(p), None, MISSING))
                continue
            lines.append(CardLine(name(p), score - number, now,
                                  REASON if now == REJECTED else None, f"s{number}",
                                  MEMBER if by else None, photo=shown))  # fmt: skip
        found.append(CardGame(f"Game {g} · {machine(g)}", lines, str(g)))
    return CardView(7, "Week 10 · Division B · Group 12", found, 99)


def shown(embeds: list) -> str:  # type: ignore[type-arg]
    parts = []
    for embed in embeds:
        parts += [embed.title or "", embed.description or ""]
        for field in embed.fields:
            parts += [field.name, field.value]
        parts.append(embed.footer.text or "")
    return "\n".join(p for p in parts if p)


CASES = {
    "4x10 waiting, photos, sent by a mate": card(4, 10, WAITING),
    "4x10 rejected with reasons and photos": card(4, 10, REJECTED),
    "4x10 approved with photos": card(4, 10, APPROVED),
    "4x10 mixed": card(4, 10, "mixed"),
    "4x10 photos coming": card(4, 10, WAITING, photo="coming"),
    "4x10 old Discord links": card(4, 10, REJECTED, photo="old"),
    "4x10 emoji names": card(4, 10, WAITING, name=lambda p: "📷🎱" * 32),
    "4x6 waiting (6,457 before)": card(4, 6, WAITING),
    "3x5 a usual night": card(3, 5, "mixed", name=lambda p: f"Player {p}", score=61_250_000),
    "2x1": card(2, 1, REJECTED, name=lambda p: f"P{p}", score=1000),
}


@pytest.mark.parametrize("view", CASES.values(), ids=CASES.keys())
def test_every_card_the_rules_allow_fits_one_message_and_shows_every_score(
    view: CardView,
) -> None:
    embeds = card_embeds(view, GUILD, CHANNEL)
    check_body({"embeds": [e.to_dict() for e in embeds]}, creating=True)  # as Discord answers
    text = shown(embeds)
    for game in view.games:
        head = game.label.split(" · ")[0]
        assert any(f.name.startswith(head + " · ") for e in embeds for f in e.fields)
        for line in game.lines:
            score = f"{line.score:,}" if line.score is not None else ""
            mark = MARKS[line.state]
            assert re.search(rf"{re.escape(line.player[:6])}[^\n]* {re.escape(score)} ?{mark}",
                             text), (line.player, score)  # fmt: skip
    # no link is ever cut: every one is whole, and goes where it should
    for label, target in LINK.findall(text):
        assert label in ("📷", "📷 old link")
        assert target == OLD_LINK or re.fullmatch(
            rf"https://discord\.com/channels/{GUILD}/{CHANNEL}/13\d{{17}}", target
        )
    assert text.count("](") == len(LINK.findall(text)) and "](http" not in LINK.sub("", text)
    assert f"{len(view.waiting)} waiting for approval" in text or "All decided." in text


@pytest.mark.parametrize("players,games", [(4, 10), (4, 6), (3, 5)])
def test_a_waiting_scores_photo_is_always_linked_to_its_own_post(players: int, games: int) -> None:
    """What the commissioner checks before approving: each waiting score's photo."""
    view = card(players, games, WAITING)
    text = shown(card_embeds(view, GUILD, CHANNEL))
    for game in view.games:
        for line in game.lines:
            assert line.photo is not None and line.photo.message_id is not None
            assert f"[📷]({jump_link(GUILD, CHANNEL, line.photo.message_id)})" in text


def test_a_usual_card_is_shown_in_full() -> None:
    view = card(3, 5, REJECTED, name=lambda p: f"Player {p}", score=61_250_000)
    text = shown(card_embeds(view, GUILD, CHANNEL))
    first = view.games[0].lines[0]
    assert first.photo is not None and first.photo.message_id is not None
    link = jump_link(GUILD, CHANNEL, first.photo.message_id)
    reason = cut_line(REASON, 80)  # at a word
    assert reason.endswith("digit longer…")
    line = f"Player 1 {first.score:,} ✗ (by <@{MEMBER}>) [📷]({link}) — {reason}"
    assert line in text.split("\n")


def test_a_photo_still_being_posted_says_so_and_an_old_link_says_it_may_be_gone() -> None:
    coming = shown(card_embeds(card(2, 1, WAITING, photo="coming"), GUILD, CHANNEL))
    assert "⏳ (by" in coming and "📷 coming" in coming
    old = shown(card_embeds(card(2, 1, WAITING, photo="old", by=False), GUILD, CHANNEL))
    assert f"[📷 old link]({OLD_LINK})" in old


def test_names_shortened_to_fit_never_read_alike() -> None:
    """Two players whose names differ only at the end stay apart on the card."""
    first = "Christopher Alexander Montgomery-Wolfeschlegelsteinhausen Johnson"[:64]
    second = first[:-4] + "Jonas"[:4]
    view = card(4, 10, WAITING, name=lambda p: first if p % 2 else second)
    text = shown(card_embeds(view, GUILD, CHANNEL))
    assert first not in text  # shortened to fit …
    rows = [line.split(" 9,")[0] for line in text.split("\n") if " 9,999," in line]
    assert len(set(rows)) == 2  # … but the two still read differently
