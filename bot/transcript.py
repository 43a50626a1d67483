"""A league night as a person in the server would read it: the demo's
transcript. Each line at most `WIDTH` characters, mentions shown as names,
embeds as their text, long answers cut to their first lines."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from standin import Exchange

WIDTH = 100  # the transcript's longest line
SHORT_FIELD = 6  # an embed field of at most this many lines is printed as one
MENTION = re.compile(r"<@!?(\d+)>")
SEPARATORS = (" | ", ", ", " · ", " → ", " ")  # where a long line is cut, best first


def wrap(line: str, width: int = WIDTH) -> list[str]:
    """A long line cut readably: at a list separator if one falls in the second
    half of the line, else between words (never inside a name or a number);
    the rest indented two more than the line."""
    lead = " " * (len(line) - len(line.lstrip(" ")) + 2)
    cut: list[str] = []
    rest = line
    while len(rest) > width:
        at = _cut_at(rest, width, floor=max(len(lead), width // 2))
        if at is None:
            break
        cut.append(rest[:at].rstrip())
        rest = lead + rest[at:].lstrip()
    return [*cut, rest]


def _cut_at(text: str, width: int, floor: int) -> int | None:
    for separator in SEPARATORS:
        kept = len(separator.rstrip())  # a comma or a dot stays at the end of the line
        found = text.rfind(separator, floor, width + len(separator) - kept)
        if found > 0:
            return found + kept
    return None


@dataclass
class Transcript:
    """What a person in the server would have seen, in order. `lines` keeps each
    entry whole (tests read it); what is printed is wrapped to WIDTH."""

    names: dict[int, str]
    channels: dict[int, str]
    lines: list[str] = field(default_factory=list)
    out: Callable[[str], None] | None = None

    def say(self, text: str) -> None:
        """Add an entry; a mention reads as the member's name, as Discord shows it."""
        text = MENTION.sub(lambda m: "@" + self.names.get(int(m[1]), "someone"), text)
        self.lines.append(text)
        if self.out is not None:
            self.out("\n".join(part for line in text.split("\n") for part in wrap(line)))

    def heading(self, when: datetime, text: str) -> None:
        self.say(f"\n== {when:%a %d %b %H:%M} · {text} ==")

    def typed(self, member: int, command: str, options: dict[str, Any]) -> None:
        shown = " ".join(
            f"{k}:{self.names.get(v, v) if isinstance(v, int) else v}" for k, v in options.items()
        )
        self.say(f"{self.names.get(member, member)} › /{command} {shown}".rstrip())

    def answered(self, exchange: Exchange, most: int | None = None) -> None:
        """The bot's answer; a long one cut to its first `most` lines."""
        for message in exchange.messages:
            who = "bot (only you)" if exchange.ephemeral else "bot"
            self.say(indent(f"{who}: " + first_lines(printed(message), most)))

    def posted(self, channel: int, message: dict[str, Any], most: int | None = None) -> None:
        where = self.channels.get(channel, channel)
        self.say(indent(f"#{where} bot: " + first_lines(printed(message), most)))

    def dm(self, member: int, message: dict[str, Any]) -> None:
        self.say(indent(f"DM to {self.names.get(member, member)}: {printed(message)}"))


def shown(message: dict[str, Any]) -> str:
    """A message as a phone shows it: its text, or its card (embed) line by line."""
    lines = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        lines += [f"**{embed.get('title', '')}**", embed.get("description", "")]
        for field_ in embed.get("fields", []):
            lines += [field_["name"], field_["value"]]
        lines.append((embed.get("footer") or {}).get("text", ""))
    return "\n".join(line for line in lines if line)


def printed(message: dict[str, Any]) -> str:
    """A message for the transcript: its text, each embed as its title and its
    fields indented (a short field on one line), then its buttons and menus."""
    lines = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        lines += [f"[{embed.get('title', '')}]", embed.get("description", "")]
        for field_ in embed.get("fields", []):
            value = _unwrapped(field_["value"].split("\n"))
            if len(value) <= SHORT_FIELD and "```" not in field_["value"]:
                lines.append(f"  {field_['name']}: " + " · ".join(value))
            else:
                lines += [f"  {field_['name']}", *(f"    {line}" for line in value)]
        lines.append((embed.get("footer") or {}).get("text", ""))
    buttons = [
        c.get("label") or c.get("placeholder")
        for row in message.get("components", [])
        for c in row.get("components", [])
    ]
    if buttons:
        lines.append(f"[{' | '.join(buttons)}]")
    return "\n".join(line for line in lines if line)


def _unwrapped(lines: list[str]) -> list[str]:
    """An embed's lines as a terminal shows them: what was broken for a phone's
    width (a line ending in "," or "·", or a game's finish indented under it)
    is joined again; the transcript then wraps at its own, wider, width."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].rstrip().endswith((",", "·")):
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
        elif out and line.startswith("  ") and out[-1].startswith("Game "):
            out[-1] = f"{out[-1]}: {line.strip()}"
        else:
            out.append(line)
    return out


def first_lines(text: str, most: int | None) -> str:
    """The text's first `most` lines (blank ones dropped) and how many are left out."""
    lines = [line for line in text.split("\n") if line]
    if most is not None and len(lines) > most:
        left = len(lines) - most
        lines = [*lines[:most], f"… ({left} more line{'s' if left != 1 else ''})"]
    return "\n".join(lines)


def indent(text: str, by: int = 4) -> str:
    return text.replace("\n", "\n" + " " * by)
