"""The demo transcript's printer: long lines cut readably, embeds
as their title and fields."""

from __future__ import annotations

from bot.transcript import printed, wrap


def test_a_long_list_is_cut_after_a_comma_with_its_names_whole() -> None:
    machines = "Attack from Mars, The Addams Family, Medieval Madness, Twilight Zone"
    line = f"    - Ann: {machines}, {machines}"
    cut = wrap(line, width=60)
    assert all(len(part) <= 60 for part in cut)
    assert all(part.endswith(",") for part in cut[:-1])
    assert all(part.startswith("      ") for part in cut[1:])  # two more than the line
    assert " ".join(p.strip() for p in cut) == line.strip()


def test_a_sentence_is_cut_between_words_and_a_short_line_is_kept() -> None:
    sentence = "This notice came after the cutoff: your group will not wait past 19:30 tonight."
    cut = wrap(sentence, width=40)
    assert len(cut) == 3 and all(len(part) <= 40 for part in cut)
    assert " ".join(p.strip() for p in cut) == sentence
    assert wrap("short", width=40) == ["short"]
    word = "x" * 50  # nowhere to cut: left whole rather than broken
    assert wrap(word, width=40) == [word]


def test_an_embed_prints_as_its_title_and_fields_short_ones_on_one_line() -> None:
    message = {
        "content": "",
        "embeds": [
            {
                "title": "Week 1 · Group 1",
                "description": "legend",
                "fields": [
                    {"name": "Game 1", "value": "Ann 1 ⏳\nBob –"},
                    {"name": "Table", "value": "```\n1 Ann\n```"},
                ],
                "footer": {"text": "1 waiting for approval"},
            }
        ],
        "components": [{"type": 1, "components": [{"type": 2, "label": "Approve"}]}],
    }
    assert printed(message).split("\n") == [
        "[Week 1 · Group 1]",
        "legend",
        "  Game 1: Ann 1 ⏳ · Bob –",
        "  Table",
        "    ```",
        "    1 Ann",
        "    ```",
        "1 waiting for approval",
        "[Approve]",
    ]


def test_a_phone_wrapped_field_is_joined_again_for_the_terminal() -> None:
    """A results field broken at a phone's 40 characters reads on whole lines in
    the terminal: a game with its finish, a player's line with its end."""
    value = "\n".join([
        "Game 1 · Attack from Mars",
        "  Dan 3, Eve 2, Gus 2 (pre-makeup),",
        "  Fay 1",
        "Game 2 · Monster Bash",
        "  Dan 3, Eve 2, Fay 1, Gus 0",
        "1. Dan: 13 pts · 13 MP · TNS 5,127,500 ·",
        "  moves up",
        "2. Fay: 4 pts · 4 MP · stays",
        "3. Gus: 2 pts · 2 MP · absent · stays",
        "4. Eve: 1 pts · 1 MP · stays",
        "5. Ann: 0 pts · 0 MP · stays",
    ])  # fmt: skip
    field_ = {"name": "Group 2", "value": value}
    message = {"embeds": [{"title": "Week 1 results", "fields": [field_]}]}
    text = printed(message)
    assert "    Game 1 · Attack from Mars: Dan 3, Eve 2, Gus 2 (pre-makeup), Fay 1" in text
    assert "    1. Dan: 13 pts · 13 MP · TNS 5,127,500 · moves up" in text
    assert "    Game 2 · Monster Bash: Dan 3, Eve 2, Fay 1, Gus 0" in text
    assert "    2. Fay: 4 pts · 4 MP · stays\n" in text  # a whole line stays as it was
