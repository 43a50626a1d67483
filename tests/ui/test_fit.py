"""Text cut to Discord's 1,024 characters a field falls between lines; a line too
long on its own is cut at a word, never inside a markdown link or a mention
(bot/ui/fit.py, used by every embed field of the bot's posts and cards)."""

from __future__ import annotations

import re

import pytest

from bot.ui import embeds
from bot.ui.fit import cut_line, values
from cogs.scorecards.scorecards_outcomes import REJECTED, CardGame, CardLine, CardPhoto, CardView
from cogs.scorecards.scorecards_text import card_embeds

LINK = re.compile(r"\[[^\]\n]*\]\([^)\s]*\)")
URL = "https://discord.com/channels/1234567890123456789/1234567890123456780/1300000000000000011"


def whole_links_only(text: str) -> bool:
    """Every '[' opens a link that is whole: '[label](url)'; no '](' or 'https' left over."""
    rest = LINK.sub("", text)
    return "[" not in rest and "](" not in rest and "https://" not in rest


def test_a_results_field_over_1024_characters_is_cut_between_lines_into_continued_fields() -> None:
    lines = [f"{n}. [Player {n}'s photo]({URL}) 61,250,000" for n in range(1, 30)]
    fields = embeds.fields_of("Group 1", lines)
    assert len(fields) > 1 and all(name == "Group 1 (continued)" for name, _ in fields[1:])
    assert all(len(value) <= 1024 for _, value in fields) and fields[0][0] == "Group 1"
    assert [line for _, value in fields for line in value.split("\n")] == lines  # nothing lost


def test_a_line_longer_than_a_field_is_cut_at_a_word_before_a_link_it_would_split() -> None:
    words = "The commissioner's note on this game: " + "display " * 120
    line = f"{words}[photo]({URL}) and more after it"
    [(_, value)] = embeds.fields_of("Group 1", [line])
    assert len(value) <= 1024 and value.endswith("…") and whole_links_only(value)
    assert value[:-1].rstrip().endswith("display")  # a word, whole


@pytest.mark.parametrize("limit", [30, 60, 95, 96, 100, 140, 200])
def test_a_cut_never_falls_inside_a_link_or_a_mention(limit: int) -> None:
    line = f"Ann 61,250,000 ⏳ (by <@1299999999999999999>) [📷]({URL}) — blurry photo, sorry"
    cut = cut_line(line, limit)
    assert len(cut.encode("utf-16-le")) // 2 <= limit
    assert whole_links_only(cut) and ("<@" not in cut or "<@1299999999999999999>" in cut)
    assert line.startswith(cut[:-1].rstrip())


def test_values_keep_every_line_whole_when_it_fits() -> None:
    lines = ["a" * 500, "b" * 500, "c" * 30, "d" * 1024]
    assert values(lines, 1024) == ["a" * 500 + "\n" + "b" * 500, "c" * 30, "d" * 1024]


def test_a_card_game_longer_than_a_field_continues_in_the_next_field_never_mid_link() -> None:
    """Four 64-character names with long reasons and photo links: one game is more
    than a field holds; it goes on in a second field instead of being cut."""
    reason = "The photo shows another game; send it again with the whole display in it. " * 4
    lines = [CardLine(f"{n} Wolfeschlegelsteinhausenbergerdorff-Ramírez y Ortega Maximilia",
                      9_999_999_999_000 + n, REJECTED, reason[:300], f"s{n}",
                      1299999999999999999, photo=CardPhoto(message_id=1300000000000000000 + n))
             for n in range(1, 5)]  # fmt: skip
    assert all(len(line.player) == 64 for line in lines)
    card = CardView(1, "Week 1 · Group 1", [CardGame("Game 1 · Medieval Madness", lines, "1")], 9)
    [embed] = card_embeds(card, 1234567890123456789, 1234567890123456780)
    assert [f.name for f in embed.fields] == ["Game 1 · Medieval Madness",
                                              "Game 1 · Medieval Madness (cont.)"]  # fmt: skip
    shown = "\n".join(f.value for f in embed.fields).split("\n")
    assert len(shown) == 4 and all(whole_links_only(line) for line in shown)
    assert all(f"9,999,999,999,00{n} ✗" in shown[n - 1] for n in range(1, 5))
