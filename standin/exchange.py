"""One interaction as the test sees it: what the member did and everything the
bot answered with that interaction's token."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from standin.world import EPHEMERAL, LOADING

# Interaction callback types (https://discord.com/developers/docs/interactions/receiving-and-responding).
REPLY = 4
DEFERRED_REPLY = 5
DEFERRED_UPDATE = 6
UPDATE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9


class Signal:
    """Wakes every waiter when something changed; waits are bounded by their caller."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def fire(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, seconds: float) -> None:
        """Until the next `fire`, or `seconds`. A cancellation always gets through:
        Python 3.11's `asyncio.wait_for` drops one that comes as the event fires,
        and a test's cancelled waiter then ran on to its own timeout."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(seconds, 0)):
                await self._event.wait()


@dataclass
class Edit:
    """One change the bot made to a message with the interaction's token."""

    message_id: int
    fields: dict[str, Any]
    how: str  # "update" (callback type 7), "@original", "followup", "delete"


@dataclass
class Exchange:
    """A slash command, autocomplete or button click and the bot's answers.

    `await exchange.done()` waits until the bot acknowledged it, filled in a
    deferred reply, sent `followups` more messages and then went quiet.
    """

    interaction_id: int
    token: str
    kind: str  # "command", "autocomplete", "component" or "modal_submit"
    name: str  # the command's full name or the button's custom id
    member_id: int
    channel_id: int
    payload: dict[str, Any]
    created_at: float  # loop time, for Discord's 3-second deadline
    component_message_id: int | None = None
    callback_type: int | None = None
    callback: dict[str, Any] | None = None
    reply: dict[str, Any] | None = None  # the response message (types 4 and 5)
    followups: list[dict[str, Any]] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    posted: list[dict[str, Any]] = field(default_factory=list)  # channel posts meanwhile
    errors: list[str] = field(default_factory=list)  # what the stand-in refused
    acknowledged_at: float | None = None  # loop time the callback arrived (benchmarks)
    filled_at: float | None = None  # loop time a deferred reply was filled in
    modal: dict[str, Any] | None = None  # the modal the bot answered with (callback type 9)
    _changed: Signal = field(default_factory=Signal, repr=False)
    _describe: Callable[[], str] = field(default=lambda: "", repr=False)

    # -- reading ---------------------------------------------------------
    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred_pending(self) -> bool:
        """A deferred reply ("is thinking...") that nothing has filled in yet."""
        return self.reply is not None and bool(self.reply.get("flags", 0) & LOADING)

    @property
    def updated_message(self) -> dict[str, Any] | None:
        """The clicked message as it is now (for button clicks)."""
        return (
            self._message_lookup(self.component_message_id) if self.component_message_id else None
        )

    @property
    def content(self) -> str:
        """What the member sees as the answer: the reply's text, or for an
        updating button click the message's new text."""
        if self.reply is not None:
            return self.reply.get("content", "")
        if self.callback_type in (UPDATE, DEFERRED_UPDATE) and self.updated_message:
            return self.updated_message.get("content", "")
        return ""

    @property
    def ephemeral(self) -> bool:
        return self.reply is not None and bool(self.reply.get("flags", 0) & EPHEMERAL)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The reply, then every followup, as they are now."""
        return ([self.reply] if self.reply is not None else []) + list(self.followups)

    @property
    def texts(self) -> list[str]:
        return [m.get("content", "") for m in self.messages]

    @property
    def choices(self) -> list[dict[str, Any]]:
        """An autocomplete answer's choices."""
        if self.callback_type != AUTOCOMPLETE_RESULT or self.callback is None:
            return []
        return list((self.callback.get("data") or {}).get("choices", []))

    # -- waiting ---------------------------------------------------------
    async def done(
        self,
        timeout: float = 5.0,  # noqa: ASYNC109 (the test-facing API takes a plain timeout)
        *,
        followups: int = 0,
        quiet: float = 0.15,
    ) -> Exchange:
        """Wait for the callback, a filled-in deferral, `followups` followups,
        then `quiet` seconds without any REST call to the stand-in."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            ready = (
                self.acknowledged and not self.deferred_pending and len(self.followups) >= followups
            )
            now = loop.time()
            if ready and now - self._last_activity() >= quiet:
                return self
            if now >= deadline:
                raise TimeoutError(self._timeout_message(timeout, followups))
            await self._changed.wait(min(0.1, deadline - now))

    def _timeout_message(self, timeout: float, followups: int) -> str:
        if not self.acknowledged:
            state = "the bot never acknowledged it"
        elif self.deferred_pending:
            state = "the bot deferred but never filled in its reply"
        elif len(self.followups) < followups:
            state = f"{len(self.followups)} of {followups} followups arrived"
        else:
            state = "the bot never went quiet"
        extra = self._describe()
        return f"{self.kind} {self.name!r} by {self.member_id}: {state} within {timeout}s. {extra}"

    # Filled in by the server.
    _last_activity: Callable[[], float] = field(default=lambda: 0.0, repr=False)
    _message_lookup: Callable[[int], dict[str, Any] | None] = field(
        default=lambda _id: None, repr=False
    )
