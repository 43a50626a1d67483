"""What the gateway and the REST routes read and change of the stand-in.
`standin.server.DiscordStandIn` is the stand-in; it makes its gateway and its
routes and hands them itself, so they know it by this protocol and never
import the server that imports them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from aiohttp import web

    from standin.events import Events
    from standin.exchange import Exchange
    from standin.limits import Delays, Faults, RateLimiter
    from standin.world import Channel, Guild, Snowflakes, User


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    body: Any = None
    status: int = 0
    error: str = ""
    at: float = 0.0  # loop time it arrived (benchmarks)
    remaining: int | None = None  # its rate-limit bucket's X-RateLimit-Remaining after it


class Gateway(Protocol):
    async def handle(self, request: web.Request) -> web.StreamResponse: ...


class StandIn(Protocol):
    token: str
    application_id: int
    bot_user: User
    owner_user: User
    users: dict[int, User]
    guilds: dict[int, Guild]
    events: Events  # every server's scheduled events
    channels: dict[int, Channel]
    messages: dict[int, dict[str, Any]]
    uploads: dict[str, bytes]
    commands: dict[int | None, list[dict[str, Any]]]
    recommended_shards: int  # what GET /gateway/bot recommends
    command_syncs: list[tuple[int | None, list[str]]]
    exchanges: list[Exchange]
    exchange_by_token: dict[str, Exchange]
    open_modals: dict[tuple[int, str], dict[str, Any]]
    requests: list[RecordedRequest]
    unknown_requests: list[RecordedRequest]
    rejected: list[RecordedRequest]
    rate_limited: list[RecordedRequest]
    interaction_deadline: float | None
    interaction_token_lifetime: float | None
    nonce_window: timedelta
    nonces: dict[tuple[int, str], tuple[int, datetime]]
    rate_limiter: RateLimiter
    faults: Faults
    delays: Delays
    channel_order: dict[int, list[int]]
    last_request: float
    snowflake: Snowflakes

    @property
    def gateway(self) -> Gateway: ...

    @property
    def gateway_url(self) -> str: ...

    def now(self) -> datetime: ...

    def changed(self) -> None: ...

    def channel_messages(
        self, channel_id: int, *, include_ephemeral: bool = False
    ) -> list[dict[str, Any]]: ...

    def attachment_url(self, attachment_id: str, filename: str) -> str: ...

    def delete_message(self, message_id: int) -> None: ...

    def dm_channel(self, user_id: int) -> Channel: ...

    def may_dm(self, user: User) -> bool: ...

    def send_soon(
        self,
        event: str,
        data: Any,
        intent: int = 0,
        *,
        per_session: Callable[[Any], Any] | None = None,
    ) -> None: ...
