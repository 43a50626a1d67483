"""Text that people type, and text that leaves the bot as a spreadsheet cell.

Pure functions: nothing here touches Discord or the database.

A name or reason is refused when nothing of it would show (only spaces,
zero-width or other format characters, blank letters such as U+3164), when it
holds a control character (NUL included) or half of a surrogate pair, or a
character that turns the direction of the text around (so that "Eve" could
read as another name). What is stored is what the person typed: nothing is
quietly taken out.

A cell that a spreadsheet would run as a formula (it starts with `=`, `+`,
`-`, `@`, a tab or a carriage return, OWASP's list) is written with a leading
`'`, which spreadsheets show as text.
"""

from __future__ import annotations

import unicodedata

# Letters and signs that draw nothing (a Hangul filler, the blank Braille pattern, …).
BLANK_LETTERS = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0")
# Embeddings, overrides and isolates: they reorder how the text around them reads.
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# What makes a spreadsheet read a cell as a formula (and their full-width forms).
FORMULA_STARTS = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
# Invisible on their own: format (Cf), unassigned (Cn), private use (Co), marks (Mn, Me).
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Mn", "Me", "Zs", "Zl", "Zp"})


def invisible(char: str) -> bool:
    """Whether `char` draws nothing on its own."""
    return (
        char.isspace()
        or char in BLANK_LETTERS
        or unicodedata.category(char) in _INVISIBLE_CATEGORIES
    )


def visible(text: str) -> str:
    """The characters of `text` that show."""
    return "".join(c for c in text if not invisible(c))


def text_problem(text: str, *, line_breaks: bool = False) -> str | None:
    """Why `text` cannot be taken ("has nothing in it that shows", …), or None.
    `line_breaks` lets a text of several lines keep its line breaks and tabs."""
    allowed = "\n\t\r" if line_breaks else ""
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            return "has a broken character in it"
        if category == "Cc" and char not in allowed:
            return "has a control character in it"
        if char in DIRECTION_CONTROLS:
            return "has a character in it that turns the text's direction around"
    if not visible(text):
        return "has nothing in it that shows"
    return None


def formula_like(text: str) -> bool:
    """Whether a spreadsheet would take `text` for a formula: it starts (past
    any spaces or invisible characters) with `=`, `+`, `-` or `@`, or starts
    with a tab or carriage return."""
    if text[:1] in FORMULA_STARTS:
        return True
    shown = visible(text)
    return bool(shown) and shown[0] in FORMULA_STARTS


def spreadsheet_text(text: str) -> str:
    """`text` as a CSV cell no spreadsheet runs: a leading `'` before a formula."""
    return f"'{text}" if formula_like(text) else text
