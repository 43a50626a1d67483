"""Text cut to Discord's limits without breaking what it shows: values are cut
between lines, and a line too long on its own is cut at a word, never inside
a markdown link `[text](url)`, a mention `<@id>` or a bare link."""

from __future__ import annotations

import re
from collections.abc import Iterable

ELLIPSIS = "…"
# What a cut must never split: it would show as broken markup or a dead link.
WHOLE = re.compile(r"\[[^\]\n]*\]\([^)\s]*\)|<[@#][!&]?\d+>|<https?://[^>\s]*>|https?://\S+")


def size(text: str) -> int:
    """Characters as Discord may count them: UTF-16 code units (an emoji such as
    📷 is two), never fewer than Python's `len`."""
    return len(text.encode("utf-16-le")) // 2


def cut_line(line: str, limit: int) -> str:
    """`line` in at most `limit` characters: whole, or cut at the last space that
    is outside every link and mention (else before the link that crosses the
    limit), ending with "…"."""
    if size(line) <= limit:
        return line
    room = limit - size(ELLIPSIS)
    while room > 0 and size(line[:room]) > limit - size(ELLIPSIS):
        room -= 1
    spans = [m.span() for m in WHOLE.finditer(line)]

    def splits(at: int) -> bool:
        return any(start < at < end for start, end in spans)

    spaces = [at for at in range(room, 0, -1) if line[at] == " " and not splits(at)]
    at = spaces[0] if spaces else next((a for a in range(room, 0, -1) if not splits(a)), 0)
    return line[:at].rstrip() + ELLIPSIS


def values(lines: Iterable[str], limit: int) -> list[str]:
    """The lines joined with line breaks into as few texts of at most `limit`
    characters as they fit in, each cut only between lines (a line longer than
    `limit` alone is cut by `cut_line`)."""
    found: list[str] = []
    current: list[str] = []
    used = 0
    for line in lines:
        line = cut_line(line, limit)
        cost = size(line) + (1 if current else 0)
        if current and used + cost > limit:
            found.append("\n".join(current))
            current, used, cost = [], 0, size(line)
        current.append(line)
        used += cost
    if current:
        found.append("\n".join(current))
    return found


def lines_within(text: str, limit: int) -> str:
    """`text` in at most `limit` characters, cut after its last whole line that fits
    (a first line too long alone is cut by `cut_line`)."""
    if size(text) <= limit:
        return text
    return values(text.split("\n"), limit)[0]
