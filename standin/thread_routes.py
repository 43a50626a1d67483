"""The thread routes of the stand-in's REST API v10 (Discord's rules for them:
`standin.threads`). `Rest.routes` adds them before its catch-all.

    POST   /channels/{channel}/messages/{message}/threads   start a thread from a message
    POST   /channels/{channel}/threads                      start one without a message
    GET    /channels/{channel}/threads/archived/public      {threads, members, has_more}
    PATCH  /channels/{thread}                               name, archived, locked, ...
    DELETE /channels/{thread}                               THREAD_DELETE
    GET    /guilds/{guild}/threads/active                   {threads, members}

PATCH and DELETE of a channel that is not a thread are not modelled: they
answer as unknown routes (recorded in `unknown_requests`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from standin.answers import Refused, Routes, json_response, missing_permissions, snowflake
from standin.limits import API
from standin.messages import BadMessage
from standin.thread_changes import active, archived_public, check_fields, delete, modify, start
from standin.threads import PRIVATE_THREAD, PUBLIC_THREAD, Thread, may
from standin.world import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    READ_MESSAGE_HISTORY,
    VIEW_CHANNEL,
    Channel,
)


class ThreadRoutes:
    def __init__(self, rest: Routes) -> None:
        self.rest = rest
        self.standin = rest.standin

    def add(self, add: Callable[..., Any]) -> None:
        channel = f"{API}/channels/{{channel}}"
        add("POST", channel + "/messages/{message}/threads", self._from_message)
        add("POST", channel + "/threads", self._without_message)
        add("GET", channel + "/threads/archived/public", self._archived_public)
        add("PATCH", channel, self._modify)
        add("DELETE", channel, self._delete)
        add("GET", f"{API}/guilds/{{guild}}/threads/active", self._active)

    def _text_channel(self, request: web.Request) -> Channel:
        """The channel a thread is started in or listed from: a server's text channel."""
        channel = self.rest._channel_for(request)
        if channel.recipient is not None:
            raise Refused(400, 50003, "Cannot execute action on a DM channel")
        if isinstance(channel, Thread):
            raise Refused(400, 50024, "Cannot execute action on this channel type")
        return channel

    async def _from_message(self, request: web.Request) -> web.Response:
        parent = self._text_channel(request)
        message = self.rest._message_in(request)
        needed = VIEW_CHANNEL | READ_MESSAGE_HISTORY | CREATE_PUBLIC_THREADS
        if may(self.standin, parent) & needed != needed:
            raise missing_permissions()
        body, _ = await self.rest._read_body(request)
        fields = check_fields(body, creating=True)
        if "thread" in message or int(message["id"]) in self.standin.channels:
            raise Refused(400, 160004, "A thread has already been created for this message")
        thread = start(self.standin, parent, fields, kind=PUBLIC_THREAD,
                       owner_id=self.standin.bot_user.id, message=message)  # fmt: skip
        return json_response(thread.payload())

    async def _without_message(self, request: web.Request) -> web.Response:
        parent = self._text_channel(request)
        body, _ = await self.rest._read_body(request)
        kind = body.get("type", PRIVATE_THREAD) if isinstance(body, dict) else PRIVATE_THREAD
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD) or isinstance(kind, bool):
            raise BadMessage(400, 50035, "Invalid Form Body",
                             {"type": "Value must be one of (11, 12)."})  # fmt: skip
        needed = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        if not may(self.standin, parent) & needed:
            raise missing_permissions()
        fields = check_fields(body, creating=True)
        thread = start(self.standin, parent, fields, kind=kind, owner_id=self.standin.bot_user.id)
        return json_response(thread.payload())

    async def _modify(self, request: web.Request) -> web.StreamResponse:
        thread = self.rest._channel_for(request)
        if not isinstance(thread, Thread):
            return await self.rest._unknown(request)
        body, _ = await self.rest._read_body(request)
        modify(self.standin, thread, check_fields(body, creating=False))
        return json_response(thread.payload())

    async def _delete(self, request: web.Request) -> web.StreamResponse:
        thread = self.rest._channel_for(request)
        if not isinstance(thread, Thread):
            return await self.rest._unknown(request)
        answer = thread.payload()
        delete(self.standin, thread)
        return json_response(answer)

    async def _active(self, request: web.Request) -> web.Response:
        return json_response(active(self.standin, self.rest._guild_for(request)))

    async def _archived_public(self, request: web.Request) -> web.Response:
        parent = self._text_channel(request)
        if not may(self.standin, parent) & READ_MESSAGE_HISTORY:
            raise missing_permissions()
        before = None
        if request.query.get("before"):
            try:
                before = datetime.fromisoformat(request.query["before"])
            except ValueError:
                problem = {"before": "Could not parse the timestamp."}
                raise BadMessage(400, 50035, "Invalid Form Body", problem) from None
            if before.tzinfo is None:
                before = before.replace(tzinfo=UTC)
        limit = max(1, min(100, snowflake(request.query.get("limit", "50"))))
        return json_response(archived_public(self.standin, parent, before, limit))
