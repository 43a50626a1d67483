"""What an outbox item becomes when it is sent (`Outgoing`), and the one
renderer of each kind of item (`renders`), registered where that kind's words
are written: `approval_words.py`, `night_words.py`, `notice_words.py`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.models import OutboxItem
from bot.outbox_kinds import Kind

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@dataclass
class Outgoing:
    """One item's messages: `pieces` in order (the view goes on the last), or an
    edit of message `edit_of` with the first piece."""

    pieces: list[str]
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions | None = None
    edit_of: int | None = None
    embeds: list[list[discord.Embed]] = field(default_factory=list)  # per piece, if any
    why_not: str = field(default="")  # when there is nothing to send: why
    # (filename, bytes) attached to the last piece; made afresh at each try (not stored)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    told: tuple[int, ...] = ()  # an alert: the failed posts it tells of, marked once sent
    thread: str | None = None  # a group's thread of this name is made first, then sent in


def nothing(why: str) -> Outgoing:
    return Outgoing([], why_not=why)


def in_embeds(messages: list[list[discord.Embed]], **extra: Any) -> Outgoing:
    """A post of embeds: one piece (with no text) per message."""
    return Outgoing([""] * len(messages), embeds=messages, **extra)


def post_or_edit(shown: Outgoing, edit: bool, message_id: int | None, wait: str) -> Outgoing:
    """A card's post, or (`edit`) its edit of `message_id`: nothing while its
    post is still owed (or was refused), since that is worded as it stands when
    sent; `wait` says what it will show then."""
    if not edit:
        return shown
    if message_id is None:
        return nothing(f"the card was not sent; it shows {wait} when it is")
    shown.edit_of = message_id
    return shown


# A renderer words one item from the league as it stands when it is sent: the
# item, and its frozen `data` (JSON) read.
Renderer = Callable[["LeagueClient", OutboxItem, dict[str, Any]], Awaitable[Outgoing]]
RENDERERS: dict[Kind, Renderer] = {}


def renders(*kinds: Kind) -> Callable[[Renderer], Renderer]:
    """Register the renderer of `kinds`; a kind has exactly one."""

    def register(renderer: Renderer) -> Renderer:
        for kind in kinds:
            if kind in RENDERERS:
                raise RuntimeError(f"outbox kind {kind} has two renderers")
            RENDERERS[kind] = renderer
        return renderer

    return register
