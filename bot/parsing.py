"""Turning what a user typed into values, with a clear refusal for anything else.

Pure functions: nothing here touches Discord or the database.
"""

from __future__ import annotations

import re
from datetime import date, time
from decimal import Decimal, InvalidOperation

from bot.scoring import MAX_SCORE


class InputError(ValueError):
    """What the user typed cannot be used; the message says what is accepted."""


SCORE_FORMS = "Type a score like 1234567, 1,234,567, 850M, 1.2B or 75k."
_SUFFIX = {"K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}
_PLAIN = re.compile(r"[0-9]{1,14}")
_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+")
_SHORT = re.compile(r"([0-9]{1,6}(?:\.[0-9]{1,9})?)([KMBT])")


def parse_score(text: str) -> int:
    """`1234567`, `1,234,567`, `1.2B`, `850M`, `75k` → a whole score, 0 … 10^13.

    Only ASCII digits are accepted (no full-width digits, no exponents), commas
    must group thousands, and a short form must come out as a whole number."""
    if not isinstance(text, str):
        raise InputError(SCORE_FORMS)
    raw = text.strip().replace(" ", "").replace("_", "")
    if not raw:
        raise InputError(f"The score is empty. {SCORE_FORMS}")
    if raw.startswith("-"):
        raise InputError("A score cannot be negative.")
    value: int
    if _PLAIN.fullmatch(raw):
        value = int(raw)
    elif _GROUPED.fullmatch(raw):
        value = int(raw.replace(",", ""))
    elif match := _SHORT.fullmatch(raw.upper()):
        try:
            exact = Decimal(match.group(1)) * _SUFFIX[match.group(2)]
        except InvalidOperation:
            raise InputError(SCORE_FORMS) from None
        if exact != exact.to_integral_value():
            raise InputError(f"{text.strip()} is not a whole score. {SCORE_FORMS}")
        value = int(exact)
    elif raw.isdigit():  # digits, but too many or not ASCII
        if not raw.isascii():
            raise InputError(f"Use the digits 0-9. {SCORE_FORMS}")
        raise InputError(f"{len(raw)} digits is more than any pinball machine shows.")
    else:
        raise InputError(f"{text.strip()!r} is not a score. {SCORE_FORMS}")
    if value > MAX_SCORE:
        raise InputError(f"{value:,} is more than any pinball machine shows.")
    return value


def parse_date(text: str) -> date:
    """A date as 2026-03-11 (ISO) or 3/11/2026 (month first, as in the US)."""
    raw = text.strip()
    try:
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", raw):
            return date.fromisoformat(raw)
        if match := re.fullmatch(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})", raw):
            month, day, year = map(int, match.groups())
            return date(year, month, day)
    except ValueError:
        raise InputError(f"{raw!r} is not a real date.") from None
    raise InputError(f"{raw!r} is not a date; type it as 2026-03-11 or 3/11/2026.")


def parse_clock(text: str) -> time:
    """A wall-clock time as 19:15."""
    raw = text.strip()
    if match := re.fullmatch(r"([01]?[0-9]|2[0-3]):([0-5][0-9])", raw):
        return time(int(match.group(1)), int(match.group(2)))
    raise InputError(f"{raw!r} is not a time; type it as 19:15.")


def parse_money(text: str) -> int:
    """Dollars as 6, 6.00 or $6.50 → cents."""
    raw = text.strip().removeprefix("$")
    if match := re.fullmatch(r"([0-9]{1,6})(?:\.([0-9]{2}))?", raw):  # ASCII digits only
        return int(match.group(1)) * 100 + int(match.group(2) or 0)
    raise InputError(f"{text.strip()!r} is not an amount; type it as 6.00.")
