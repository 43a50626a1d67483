"""Discord's answers as the stand-in's routes give them: JSON bodies with the
exact content type discord.py decodes, and refusals with Discord's status,
JSON error code and message. Shared by `standin.rest` and the modules that
add routes to it (`standin.threads`, `standin.roles`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

if TYPE_CHECKING:
    from standin.state import StandIn
    from standin.world import Channel, Guild


def json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    """JSON with the content type exactly `application/json`: discord.py decodes
    a body only when the header is that string (aiohttp would add a charset)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class Refused(Exception):
    """Answer the current request with Discord's error body."""

    headers: dict[str, str]  # set (not always) by the rate limiter's middleware (standin.rest)

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def missing_permissions() -> Refused:
    return Refused(403, 50013, "Missing Permissions")


def snowflake(text: str) -> int:
    """An id from a path or query; not a number is 400 50035, as Discord answers."""
    try:
        return int(text)
    except ValueError:
        raise Refused(400, 50035, "Invalid Form Body", {"id": "Value is not snowflake."}) from None


def booleans(
    body: Mapping[str, Any], keys: tuple[str, ...], fields: dict[str, Any], errors: dict[str, Any]
) -> None:
    """Each of `keys` given in `body`: into `fields` when true or false, else an
    error as Discord words it."""
    for key in keys:
        if body.get(key) is not None:
            if isinstance(body[key], bool):
                fields[key] = body[key]
            else:
                errors[key] = "Must be either true or false."


class Routes(Protocol):
    """What the modules that add routes need of `standin.rest.Rest` (named here,
    not imported, so that they and it do not import each other)."""

    standin: StandIn

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]: ...
    async def _unknown(self, request: web.Request) -> web.Response: ...
    def _guild_for(self, request: web.Request) -> Guild: ...
    def _channel_for(self, request: web.Request) -> Channel: ...
    def _message_in(self, request: web.Request) -> dict[str, Any]: ...
