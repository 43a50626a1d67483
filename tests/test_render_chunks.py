"""Long messages are split within Discord's 2,000-character limit, code blocks intact."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ui.render import chunks

LINE = st.one_of(
    st.text(alphabet="abc ", max_size=120),
    st.integers(1, 4500).map(lambda n: "x" * n),
)
BLOCKS = st.lists(st.tuples(st.booleans(), st.lists(LINE, min_size=1, max_size=60)), max_size=12)


def fenced(blocks: list[tuple[bool, list[str]]]) -> str:
    parts = []
    for code, lines in blocks:
        parts.extend(["```", *lines, "```"] if code else lines)
    return "\n".join(parts)


@settings(max_examples=150, deadline=None)
@given(BLOCKS)
def test_pieces_fit_and_every_code_block_is_closed(blocks: list[tuple[bool, list[str]]]) -> None:
    text = fenced(blocks)
    pieces = chunks(text)
    assert all(len(piece) <= 2000 for piece in pieces)
    for piece in pieces:
        fences = sum(1 for line in piece.split("\n") if line.startswith("```"))
        assert fences % 2 == 0, piece[:80]

    # Nothing is lost: without the added fences and line breaks, the text is the same.
    def letters(s: str) -> str:
        return s.replace("```", "").replace("\n", "")

    assert "".join(letters(p) for p in pieces) == letters(text)


def test_a_short_message_is_one_piece() -> None:
    assert chunks("hello\nworld") == ["hello\nworld"]
