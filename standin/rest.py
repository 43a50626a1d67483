"""The stand-in's REST API v10: the routes discord.py 2.7 calls for this bot.

Answers are Discord's shapes; refusals are Discord's status, JSON error code
and message (and are recorded in `StandIn.rejected`); a route that is
not here answers 404 {"message": "404: Not Found", "code": 0} and is recorded
in `StandIn.unknown_requests`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import Callable, Iterator, Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from aiohttp import web

from standin import commands as cmd
from standin import threads
from standin.answers import Refused, json_response
from standin.answers import snowflake as _int
from standin.events import EventRefused
from standin.exchange import (
    AUTOCOMPLETE_RESULT,
    DEFERRED_REPLY,
    DEFERRED_UPDATE,
    MODAL,
    REPLY,
    UPDATE,
    Edit,
    Exchange,
)
from standin.messages import (
    SENDABLE_FLAGS,
    BadMessage,
    apply_edit,
    check_body,
    nest_errors,
    number_components,
)
from standin.roles import RoleRoutes
from standin.state import RecordedRequest
from standin.thread_routes import ThreadRoutes
from standin.world import (
    ATTACH_FILES,
    EPHEMERAL,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    LOADING,
    Channel,
    Guild,
    iso,
)

if TYPE_CHECKING:
    from standin.state import StandIn

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
API = "/api/v10"
INTERACTION_TOKEN_LIFETIME = 15 * 60.0
# enforce_nonce: Discord returns the earlier message for a nonce used "in the past few minutes".
NONCE_WINDOW = timedelta(minutes=2)
MAX_NONCE = 25
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # per file, for a bot in a server with no boosts
MAX_ATTACHMENTS = 10
# Which callback types fit which interaction (command 2, component 3, autocomplete 4).
CALLBACKS_FOR = {
    "command": {REPLY, DEFERRED_REPLY, MODAL},
    "component": {REPLY, DEFERRED_REPLY, DEFERRED_UPDATE, UPDATE, MODAL},
    "autocomplete": {AUTOCOMPLETE_RESULT},
    # A modal's submission cannot be answered with another modal.
    "modal_submit": {REPLY, DEFERRED_REPLY, DEFERRED_UPDATE, UPDATE},
}
INTERACTION_TYPE = {"command": 2, "component": 3, "autocomplete": 4, "modal_submit": 5}
TEXT_INPUT = 4
LABEL = 18  # a modal's labelled component (Discord's newer layout)


# Where a request's record lives while it is handled (aiohttp >= 3.12 wants typed keys).
RECORD: Any = web.RequestKey("record", RecordedRequest) if hasattr(web, "RequestKey") else "record"


TRANSIENT = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
             504: "Gateway Timeout", 524: "A Timeout Occurred"}  # fmt: skip
# Discord's answers come through its proxies; discord.py takes a 429 without
# `Via` for a Cloudflare ban and gives up instead of waiting.
VIA = {"Via": "1.1 google"}


@contextlib.contextmanager
def _refused() -> Iterator[None]:
    """A scheduled event's refusal, answered as Discord's error body."""
    try:
        yield
    except EventRefused as refused:
        raise Refused(refused.status, refused.code, refused.message, refused.errors) from None


class Rest:
    """The HTTP side of one stand-in: routes, the recording middleware, handlers."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin

    def routes(self, router: web.UrlDispatcher) -> None:
        add = router.add_route
        add("GET", "/gateway", self.standin.gateway.handle)
        add("GET", f"{API}/users/@me", self._get_me)
        add("GET", f"{API}/users/{{user_id}}", self._get_user)
        add("POST", f"{API}/users/@me/channels", self._create_dm)
        add("GET", f"{API}/oauth2/applications/@me", self._get_application)
        add("GET", f"{API}/applications/@me", self._get_application)
        add("GET", f"{API}/gateway", self._get_gateway)
        add("GET", f"{API}/gateway/bot", self._get_gateway)
        for path in ("/applications/{app}/commands", "/applications/{app}/guilds/{guild}/commands"):
            add("PUT", API + path, self._put_commands)
            add("GET", API + path, self._get_commands)
        add("GET", f"{API}/channels/{{channel}}", self._get_channel)
        add("GET", f"{API}/channels/{{channel}}/messages", self._get_messages)
        add("POST", f"{API}/channels/{{channel}}/messages", self._post_message)
        add("GET", f"{API}/channels/{{channel}}/messages/{{message}}", self._get_message)
        add("PATCH", f"{API}/channels/{{channel}}/messages/{{message}}", self._patch_message)
        add("DELETE", f"{API}/channels/{{channel}}/messages/{{message}}", self._delete_message)
        add("GET", f"{API}/guilds/{{guild}}", self._get_guild)
        add("GET", f"{API}/guilds/{{guild}}/channels", self._get_guild_channels)
        add("GET", f"{API}/guilds/{{guild}}/roles", self._get_guild_roles)
        add("GET", f"{API}/guilds/{{guild}}/members/{{user_id}}", self._get_guild_member)
        events = f"{API}/guilds/{{guild}}/scheduled-events"
        add("GET", events, self._list_events)
        add("POST", events, self._create_event)
        add("GET", events + "/{event}", self._get_event)
        add("PATCH", events + "/{event}", self._modify_event)
        add("DELETE", events + "/{event}", self._delete_event)
        add("POST", f"{API}/interactions/{{interaction}}/{{token}}/callback", self._callback)
        add("POST", f"{API}/webhooks/{{app}}/{{token}}", self._post_followup)
        hook_message = f"{API}/webhooks/{{app}}/{{token}}/messages/{{message}}"
        add("GET", hook_message, self._get_hook_message)
        add("PATCH", hook_message, self._patch_hook_message)
        add("DELETE", hook_message, self._delete_hook_message)
        add("GET", "/attachments/{id}/{filename}", self._get_attachment)
        ThreadRoutes(self).add(add)  # standin.threads
        RoleRoutes(self).add(add)  # standin.roles
        add("*", "/{tail:.*}", self._unknown)

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        loop = asyncio.get_running_loop()
        self.standin.last_request = loop.time()
        record = RecordedRequest(request.method, request.path, dict(request.query), at=loop.time())
        if request.path != "/gateway":
            self.standin.requests.append(record)
        request[RECORD] = record
        try:
            if (
                self._needs_bot_token(request.path)
                and request.headers.get("Authorization") != f"Bot {self.standin.token}"
            ):
                raise Refused(401, 0, "401: Unauthorized")
            fault = self.standin.faults.take(request.method, request.path)
            if fault is not None:
                record.status, record.error = fault.status, f"injected {fault.status} (fail_next)"
                self.standin.rejected.append(record)
                if request.content_type == "application/json":  # what was refused, for tests
                    with contextlib.suppress(ValueError):
                        record.body = json.loads(await request.read() or b"null")
                if fault.status == 429:  # Cloudflare's ban: plain text, no Via, Retry-After
                    wait = str(math.ceil(fault.retry_after or 1))
                    return web.Response(text="error code: 1015", status=429,
                                        headers={"Retry-After": wait})  # fmt: skip
                text = f"{fault.status}: {TRANSIENT.get(fault.status, 'Server Error')}"
                return json_response({"message": text, "code": 0}, fault.status, VIA)
            verdict = self.standin.rate_limiter.check(request.method, request.path, loop.time())
            record.remaining = verdict.remaining
            if verdict.refusal is not None:
                record.status, record.error = 429, str(verdict.refusal)
                self.standin.rate_limited.append(record)
                return json_response(verdict.refusal, 429, {**VIA, **verdict.headers})
            try:
                response = await handler(request)
            except (Refused, BadMessage) as refusal:  # Discord's errors carry the headers too
                refusal.headers = verdict.headers
                raise
            if not response.prepared:  # the gateway's websocket has sent its headers
                response.headers.update(VIA)
                response.headers.update(verdict.headers)
                await asyncio.sleep(self.standin.delays.of(request.method, request.path))
            record.status = response.status
            return response
        except Refused as refusal:
            record.status, record.error = refusal.status, refusal.message
            self.standin.rejected.append(record)
            headers = {**VIA, **getattr(refusal, "headers", {})}
            return json_response(refusal.body(), refusal.status, headers)
        except BadMessage as bad:
            record.status, record.error = bad.status, f"{bad.message} {bad.errors or ''}".strip()
            self.standin.rejected.append(record)
            return json_response(bad.body(), bad.status, {**VIA, **getattr(bad, "headers", {})})
        except Exception as error:
            log.exception("stand-in failed on %s %s", request.method, request.path)
            record.status, record.error = 500, f"stand-in error: {error!r}"
            self.standin.rejected.append(record)
            return json_response({"message": "500: Internal Server Error", "code": 0}, 500)
        finally:
            self.standin.last_request = loop.time()
            self.standin.changed()

    @staticmethod
    def _needs_bot_token(path: str) -> bool:
        if not path.startswith(API + "/"):
            return False
        rest = path[len(API) + 1 :].split("/")
        if rest[0] == "interactions":
            return False
        return not (rest[0] == "webhooks" and len(rest) >= 3)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        """The JSON body (or multipart payload_json) and any uploaded files as attachments.
        As Discord: a file over ATTACHMENT_SIZE_LIMIT is 413 / 40005, more than
        MAX_ATTACHMENTS files is 400 / 50035. The bytes are kept in `standin.uploads`."""
        files: list[dict[str, Any]] = []
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body = json.loads(str(form.get("payload_json") or "{}"))
            uploads = [(k, v) for k, v in form.items() if isinstance(v, web.FileField)]
            if len(uploads) > MAX_ATTACHMENTS:
                raise Refused(400, 50035, "Invalid Form Body", nest_errors(
                    {"attachments": f"Must be {MAX_ATTACHMENTS} or fewer in length."}))  # fmt: skip
            for _key, value in uploads:
                data = value.file.read()
                if len(data) > ATTACHMENT_SIZE_LIMIT:
                    raise Refused(413, 40005, "Request entity too large")
                key = str(self.standin.snowflake())
                url = self.standin.attachment_url(key, value.filename)
                files.append(
                    {
                        "id": key,
                        "filename": value.filename,
                        "size": len(data),
                        "url": url,
                        "proxy_url": url,
                        "content_type": value.content_type,
                    }
                )
                self.standin.uploads[files[-1]["id"]] = data
        else:
            raw = await request.read()
            try:
                body = json.loads(raw) if raw else {}
            except ValueError:
                raise Refused(400, 50109, "The request body contains invalid JSON.") from None
        request[RECORD].body = body
        return body, files

    async def _get_attachment(self, request: web.Request) -> web.Response:
        """A file as Discord's CDN serves it: the bytes, or 404 for an unknown one."""
        data = self.standin.uploads.get(request.match_info["id"])
        if data is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=data, content_type="application/octet-stream")

    async def _unknown(self, request: web.Request) -> web.Response:
        record: RecordedRequest = request[RECORD]
        raw = await request.read()
        try:
            record.body = json.loads(raw) if raw else None
        except ValueError:
            record.body = raw.decode(errors="replace")
        record.status, record.error = 404, "unknown route"
        self.standin.unknown_requests.append(record)
        log.warning("stand-in has no route for %s %s", request.method, request.path)
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    # -- REST: users, application, gateway --------------------------------
    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {**self.standin.bot_user.payload(), "verified": True, "mfa_enabled": False}
        )

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.standin.users.get(_int(request.match_info["user_id"]))
        if user is None:
            raise Refused(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _create_dm(self, request: web.Request) -> web.Response:
        """Open (or reuse) the DM channel with a user. Discord makes it even when the
        user's DMs are closed; the message POST is what it refuses (50007)."""
        body, _ = await self._read_body(request)
        recipient = body.get("recipient_id") if isinstance(body, dict) else None
        if recipient is None:
            raise BadMessage(
                400, 50035, "Invalid Form Body", {"recipient_id": "This field is required"}
            )
        user = self.standin.users.get(_int(str(recipient)))
        if user is None:
            raise Refused(404, 10013, "Unknown User")
        return json_response(self.standin.dm_channel(user.id).payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.standin.application_id),
                "name": self.standin.bot_user.global_name,
                "icon": None,
                "description": "A Discord stand-in's application.",
                "summary": "",
                "type": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": self.standin.owner_user.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.standin.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(self.standin.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        root = self.standin.gateway_url
        if request.path.endswith("/bot"):
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            shards = self.standin.recommended_shards
            return json_response({"url": root, "shards": shards, "session_start_limit": limit})
        return json_response({"url": root})

    # -- REST: application commands ---------------------------------------
    def _scope(self, request: web.Request) -> int | None:
        if _int(request.match_info["app"]) != self.standin.application_id:
            raise Refused(403, 50001, "Missing Access")
        guild = request.match_info.get("guild")
        if guild is None:
            return None
        guild_id = _int(guild)
        if guild_id not in self.standin.guilds:
            raise Refused(403, 50001, "Missing Access")  # the app is not in that guild
        return guild_id

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await self._read_body(request)
        errors = cmd.check_commands(body)
        if errors:
            raise BadMessage(400, 50035, "Invalid Form Body", errors)
        old = {(c["name"], c.get("type", 1)): c for c in self.standin.commands.get(scope, [])}
        stored = []
        for command in body:
            kind = command.get("type", cmd.CHAT_INPUT)
            previous = old.get((command["name"], kind))
            permissions = command.get("default_member_permissions")
            stored.append(
                {
                    **command,
                    "id": previous["id"] if previous else str(self.standin.snowflake()),
                    "application_id": str(self.standin.application_id),
                    "version": str(self.standin.snowflake()),
                    "type": kind,
                    "description": command.get("description", ""),
                    "default_member_permissions": None if permissions is None else str(permissions),
                    "guild_id": str(scope) if scope else None,
                    "nsfw": command.get("nsfw", False),
                    "options": command.get("options") or [],
                }
            )
            if scope is None:
                stored[-1].pop("guild_id")
        self.standin.commands[scope] = stored
        self.standin.command_syncs.append((scope, [c["name"] for c in stored]))
        return json_response(stored)

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.standin.commands.get(self._scope(request), []))

    # -- REST: scheduled events (standin.events) ----------------------------
    async def _list_events(self, request: web.Request) -> web.Response:
        guild = self._guild_for(request)
        return json_response([e.payload() for e in self.standin.events.of_guild(guild.id)])

    async def _create_event(self, request: web.Request) -> web.Response:
        guild = self._guild_for(request)
        body, _ = await self._read_body(request)
        with _refused():
            event = self.standin.events.create(
                guild, self.standin.bot_user.id, self.standin.snowflake(), dict(body or {}),
                self.standin.now(),
            )  # fmt: skip
        return json_response(event.payload())

    async def _get_event(self, request: web.Request) -> web.Response:
        guild = self._guild_for(request)
        with _refused():
            event = self.standin.events.get(guild.id, _int(request.match_info["event"]))
        return json_response(event.payload())

    async def _modify_event(self, request: web.Request) -> web.Response:
        guild = self._guild_for(request)
        body, _ = await self._read_body(request)
        with _refused():
            event = self.standin.events.modify(
                guild, self.standin.bot_user.id, _int(request.match_info["event"]),
                dict(body or {}), self.standin.now(),
            )  # fmt: skip
        return json_response(event.payload())

    async def _delete_event(self, request: web.Request) -> web.Response:
        guild = self._guild_for(request)
        with _refused():
            self.standin.events.delete(
                guild, self.standin.bot_user.id, _int(request.match_info["event"])
            )
        return web.Response(status=204)

    # -- REST: guilds and channels -----------------------------------------
    def _guild_for(self, request: web.Request) -> Guild:
        guild = self.standin.guilds.get(_int(request.match_info["guild"]))
        if guild is None:
            raise Refused(404, 10004, "Unknown Guild")
        return guild

    def _channel_for(self, request: web.Request) -> Channel:
        """The channel, if it exists (404 10003) and the bot may see it (403 50001)."""
        channel = self.standin.channels.get(_int(request.match_info["channel"]))
        if channel is None:
            raise Refused(404, 10003, "Unknown Channel")
        guild = self.standin.guilds.get(channel.guild_id) if channel.guild_id else None
        if guild is not None and self.standin.bot_user.id not in guild.members:
            raise Refused(403, 50001, "Missing Access")  # the bot was removed from the server
        if not threads.visible(self.standin, channel):  # a thread: its parent's overwrites
            raise Refused(403, 50001, "Missing Access")
        return channel

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild_for(request)
        data = guild.payload(members=[])
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            data.pop(key, None)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        return json_response([c.payload() for c in self._guild_for(request).channels.values()])

    async def _get_guild_roles(self, request: web.Request) -> web.Response:
        return json_response([r.payload() for r in self._guild_for(request).roles.values()])

    async def _get_guild_member(self, request: web.Request) -> web.Response:
        member = self._guild_for(request).members.get(_int(request.match_info["user_id"]))
        if member is None:
            raise Refused(404, 10007, "Unknown Member")
        return json_response(member.payload())

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel_for(request)
        if isinstance(channel, threads.Thread):  # with the bot's thread member
            return json_response(channel.payload(member=True))
        return json_response(channel.payload())

    def _message_in(self, request: web.Request) -> dict[str, Any]:
        channel = self._channel_for(request)
        message = self.standin.messages.get(_int(request.match_info["message"]))
        if message is None or message["channel_id"] != str(channel.id) or _ephemeral(message):
            raise Refused(404, 10008, "Unknown Message")
        return message

    async def _get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel_for(request)
        limit = max(1, min(100, _int(request.query.get("limit", "50"))))
        listed = self.standin.channel_messages(channel.id)
        if "before" in request.query:
            listed = [m for m in listed if int(m["id"]) < _int(request.query["before"])]
        if "after" in request.query:
            listed = [m for m in listed if int(m["id"]) > _int(request.query["after"])][:limit]
        return json_response(list(reversed(listed))[:limit])

    async def _get_message(self, request: web.Request) -> web.Response:
        return json_response(self._message_in(request))

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel_for(request)
        threads.check_send(self.standin, channel)  # in a thread: Send Messages in Threads
        if channel.recipient is not None and not self.standin.may_dm(channel.recipient):
            raise Refused(403, 50007, "Cannot send messages to this user")
        body, files = await self._read_body(request)
        # Discord: files need Attach Files (in a thread: in its parent)
        if files and threads.denied(self.standin, channel) & ATTACH_FILES:
            raise Refused(403, 50013, "Missing Permissions")
        check_body(body, creating=True, has_files=bool(files))
        nonce = _nonce(body)
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self._earlier_message(channel, nonce)
            if earlier is not None:
                return json_response(earlier)
        flags = int(body.get("flags") or 0) & SENDABLE_FLAGS
        message = self._create_message(channel, body, files, flags=flags)
        if channel.recipient is None:
            guild = self.standin.guilds[channel.guild_id]
            message["member"] = guild.members[self.standin.bot_user.id].payload(with_user=False)
        if self.standin.exchanges:
            self.standin.exchanges[-1].posted.append(message)
        if nonce is not None:
            self.standin.nonces[(channel.id, nonce)] = (int(message["id"]), self.standin.now())
        self.standin.send_soon("MESSAGE_CREATE", message, _intent(message))
        return json_response(message)

    def _earlier_message(self, channel: Channel, nonce: str) -> dict[str, Any] | None:
        """The bot's message with this nonce in this channel within the nonce window."""
        found = self.standin.nonces.get((channel.id, nonce))
        if found is None:
            return None
        message_id, when = found
        if self.standin.now() - when > self.standin.nonce_window:
            return None
        return self.standin.messages.get(message_id)

    async def _patch_message(self, request: web.Request) -> web.Response:
        message = self._message_in(request)
        if message["author"]["id"] != str(self.standin.bot_user.id):
            raise Refused(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        check_body(body, creating=False)
        self._edit(message, body, files)
        return json_response(message)

    async def _delete_message(self, request: web.Request) -> web.Response:
        self._delete(self._message_in(request))
        return web.Response(status=204)

    # -- messages -----------------------------------------------------------
    def _create_message(
        self,
        channel: Channel,
        body: Mapping[str, Any],
        files: list[dict[str, Any]],
        *,
        flags: int,
        kind: int = 0,
        exchange: Exchange | None = None,
    ) -> dict[str, Any]:
        if exchange is not None:  # an interaction's response: not in a locked thread
            threads.check_reply(self.standin, channel)
        message_id = self.standin.snowflake()
        message: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "author": self.standin.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": iso(self.standin.now()),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": files,
            "embeds": list(body.get("embeds") or []),
            "components": number_components(body.get("components") or []),
            "pinned": False,
            "type": kind,
            "flags": flags,
        }
        if channel.recipient is None:  # a DM's messages name no guild
            message["guild_id"] = str(channel.guild_id)
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        if exchange is not None:
            message["webhook_id"] = str(self.standin.application_id)
            message["application_id"] = str(self.standin.application_id)
            metadata: dict[str, Any] = {
                "id": str(exchange.interaction_id),
                "type": INTERACTION_TYPE[exchange.kind],
                "user": self.standin.users[exchange.member_id].payload(),
                "authorizing_integration_owners": exchange.payload[
                    "authorizing_integration_owners"
                ],
            }
            if exchange.kind == "command":
                metadata["name"] = exchange.name
            if exchange.reply is not None:
                metadata["original_response_message_id"] = exchange.reply["id"]
            if exchange.component_message_id is not None:
                metadata["interacted_message_id"] = str(exchange.component_message_id)
            message["interaction_metadata"] = metadata
        self.standin.messages[message_id] = message
        self.standin.channel_order.setdefault(channel.id, []).append(message_id)
        channel.last_message_id = message_id
        threads.after_message(self.standin, channel, message, by_bot=exchange is None)
        return message

    def _edit(
        self,
        message: dict[str, Any],
        body: Mapping[str, Any],
        files: list[dict[str, Any]],
        *,
        stamp: bool = True,
    ) -> dict[str, Any]:
        threads.check_edit(self.standin, message)  # not in an archived (or locked) thread
        changed = apply_edit(message, body, files)
        if stamp:
            message["edited_timestamp"] = iso(self.standin.now())
        if not _ephemeral(message):
            self.standin.send_soon("MESSAGE_UPDATE", message, _intent(message))
        return changed

    def _delete(self, message: dict[str, Any]) -> None:
        threads.check_delete(self.standin, message)
        self.standin.delete_message(int(message["id"]))

    @staticmethod
    def deleted(standin: StandIn, message: dict[str, Any]) -> None:
        """A message is gone: the MESSAGE_DELETE event, as Discord sends it."""
        threads.after_delete(standin, message)
        if not _ephemeral(message):
            event = {k: message[k] for k in ("id", "channel_id", "guild_id") if k in message}
            standin.send_soon("MESSAGE_DELETE", event, _intent(message))

    # -- REST: interactions -------------------------------------------------
    async def _callback(self, request: web.Request) -> web.Response:
        exchange = self.standin.exchange_by_token.get(request.match_info["token"])
        if exchange is None or str(exchange.interaction_id) != request.match_info["interaction"]:
            raise Refused(404, 10062, "Unknown interaction")
        age = asyncio.get_running_loop().time() - exchange.created_at
        deadline = self.standin.interaction_deadline
        if deadline is not None and age > deadline:
            exchange.errors.append(f"callback after {age:.2f}s (Discord allows 3s)")
            raise Refused(404, 10062, "Unknown interaction")
        if exchange.acknowledged:
            exchange.errors.append("acknowledged twice")
            raise Refused(400, 40060, "Interaction has already been acknowledged.")
        body, files = await self._read_body(request)
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in CALLBACKS_FOR[exchange.kind]:
            exchange.errors.append(f"callback type {kind} for a {exchange.kind}")
            raise BadMessage(
                400, 50035, "Invalid Form Body", {"type": f"Not valid for a {exchange.kind}."}
            )
        channel = self.standin.channels[exchange.channel_id]
        resource: dict[str, Any] | None = None
        if kind in (REPLY, DEFERRED_REPLY):
            ephemeral = int(data.get("flags") or 0) & EPHEMERAL
            if kind == REPLY:
                check_body(data, creating=True, has_files=bool(files))
                flags = ephemeral | (int(data.get("flags") or 0) & SENDABLE_FLAGS)
                message = self._create_message(
                    channel,
                    data,
                    files,
                    flags=flags,
                    kind=self._reply_type(exchange),
                    exchange=exchange,
                )
            else:
                message = self._create_message(
                    channel, {}, [], flags=LOADING | ephemeral, kind=self._reply_type(exchange),
                    exchange=exchange,
                )  # fmt: skip
            exchange.reply = message
            if not ephemeral:
                self.standin.send_soon("MESSAGE_CREATE", message, INTENT_GUILD_MESSAGES)
            resource = {"type": kind, "message": message}
        elif kind == UPDATE:
            check_body(data, creating=False)
            target = self._component_message(exchange)
            changed = self._edit(target, data, files)
            exchange.edits.append(Edit(int(target["id"]), changed, "update"))
            resource = {"type": kind, "message": target}
        elif kind == MODAL:
            check_modal(data)
            exchange.modal = data
            self.standin.open_modals[(exchange.member_id, data["custom_id"])] = data
        elif kind == AUTOCOMPLETE_RESULT and len(data.get("choices") or []) > cmd.MAX_CHOICES:
            raise BadMessage(400, 50035, "Invalid Form Body", {"data.choices": "Max 25."})
        exchange.callback_type, exchange.callback = kind, body
        exchange.acknowledged_at = asyncio.get_running_loop().time()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        reply = exchange.reply
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(exchange.interaction_id),
                "type": INTERACTION_TYPE[exchange.kind],
                "response_message_id": reply["id"] if reply else None,
                "response_message_loading": kind == DEFERRED_REPLY,
                "response_message_ephemeral": bool(reply and _ephemeral(reply)),
            }
        }
        if resource is not None:
            answer["resource"] = resource
        return json_response(answer)

    @staticmethod
    def _reply_type(exchange: Exchange) -> int:
        return 20 if exchange.kind == "command" else 0  # CHAT_INPUT_COMMAND / DEFAULT

    def _component_message(self, exchange: Exchange) -> dict[str, Any]:
        message = (
            self.standin.messages.get(exchange.component_message_id)
            if exchange.component_message_id
            else None
        )
        if message is None:
            raise Refused(404, 10008, "Unknown Message")
        return message

    def _hook_exchange(self, request: web.Request) -> Exchange:
        exchange = self.standin.exchange_by_token.get(request.match_info["token"])
        if (
            exchange is None
            or request.match_info["app"] != str(self.standin.application_id)
            or not exchange.acknowledged
        ):
            raise Refused(404, 10015, "Unknown Webhook")
        lifetime = self.standin.interaction_token_lifetime
        age = asyncio.get_running_loop().time() - exchange.created_at
        if lifetime is not None and age > lifetime:
            exchange.errors.append(f"token used after {age:.2f}s (Discord allows 15 minutes)")
            raise Refused(401, 50027, "Invalid Webhook Token")
        return exchange

    async def _post_followup(self, request: web.Request) -> web.Response:
        exchange = self._hook_exchange(request)
        body, files = await self._read_body(request)
        check_body(body, creating=True, has_files=bool(files))
        if exchange.deferred_pending:
            # The first followup after a deferred reply fills in the "thinking" message;
            # it stays as ephemeral (or not) as the deferral said.
            message = exchange.reply
            assert message is not None
            changed = self._edit(message, body, files, stamp=False)
            exchange.edits.append(Edit(int(message["id"]), changed, "followup"))
            exchange.filled_at = asyncio.get_running_loop().time()
        else:
            flags = int(body.get("flags") or 0) & (EPHEMERAL | SENDABLE_FLAGS)
            message = self._create_message(
                self.standin.channels[exchange.channel_id], body, files, flags=flags,
                kind=self._reply_type(exchange), exchange=exchange,
            )  # fmt: skip
            exchange.followups.append(message)
            if not _ephemeral(message):
                self.standin.send_soon("MESSAGE_CREATE", message, INTENT_GUILD_MESSAGES)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message)
        return web.Response(status=204)

    def _hook_message(self, request: web.Request, exchange: Exchange) -> dict[str, Any]:
        wanted = request.match_info["message"]
        if wanted == "@original":
            if exchange.reply is not None:
                return exchange.reply
            if exchange.callback_type in (UPDATE, DEFERRED_UPDATE):
                return self._component_message(exchange)
            raise Refused(404, 10008, "Unknown Message")
        for message in exchange.followups:
            if message["id"] == wanted and _int(wanted) in self.standin.messages:
                return message
        raise Refused(404, 10008, "Unknown Message")

    async def _get_hook_message(self, request: web.Request) -> web.Response:
        exchange = self._hook_exchange(request)
        return json_response(self._hook_message(request, exchange))

    async def _patch_hook_message(self, request: web.Request) -> web.Response:
        exchange = self._hook_exchange(request)
        message = self._hook_message(request, exchange)
        body, files = await self._read_body(request)
        check_body(body, creating=False)
        filling = bool(message.get("flags", 0) & LOADING)
        changed = self._edit(message, body, files, stamp=not filling)
        exchange.edits.append(Edit(int(message["id"]), changed, request.match_info["message"]))
        return json_response(message)

    async def _delete_hook_message(self, request: web.Request) -> web.Response:
        exchange = self._hook_exchange(request)
        message = self._hook_message(request, exchange)
        self._delete(message)
        exchange.edits.append(Edit(int(message["id"]), {}, "delete"))
        return web.Response(status=204)


def _intent(message: Mapping[str, Any]) -> int:
    """The intent a bot needs to hear of the message: DMs have their own."""
    return INTENT_GUILD_MESSAGES if "guild_id" in message else INTENT_DIRECT_MESSAGES


def check_modal(data: Mapping[str, Any]) -> None:
    """A modal as Discord takes it: custom_id (1-100), title (1-45), 1-5 top-level
    components, each an action row holding one text input (the older layout) or
    a label (type 18: text 1-45, description up to 100) around one text input.
    A text input: custom_id, style 1 or 2, min_length 0-4000, max_length 1-4000;
    its own label (1-45) only in an action row."""
    errors: dict[str, Any] = {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        errors["data.custom_id"] = "Must be between 1 and 100 in length."
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= 45:
        errors["data.title"] = "Must be between 1 and 45 in length."
    rows = data.get("components")
    if not isinstance(rows, list) or not 1 <= len(rows) <= 5:
        errors["data.components"] = "Must be between 1 and 5 in length."
        rows = []
    for r, row in enumerate(rows):
        where = f"data.components.{r}"
        row = row if isinstance(row, Mapping) else {}
        if row.get("type") == LABEL:
            if not 1 <= len(str(row.get("label") or "")) <= 45:
                errors[f"{where}.label"] = "Must be between 1 and 45 in length."
            if len(str(row.get("description") or "")) > 100:
                errors[f"{where}.description"] = "Must be 100 or fewer in length."
            field_ = row.get("component")
            where += ".component"
        else:
            inputs = row.get("components")
            if row.get("type") != 1 or not isinstance(inputs, list) or len(inputs) != 1:
                errors[where] = "An action row of a modal holds one text input."
                continue
            field_ = inputs[0]
            where += ".components.0"
            if not 1 <= len(str(field_.get("label") or "")) <= 45:
                errors[f"{where}.label"] = "Must be between 1 and 45 in length."
        if not isinstance(field_, Mapping) or field_.get("type") != TEXT_INPUT:
            errors[f"{where}.type"] = "Only text inputs go in this modal."
            continue
        if not 1 <= len(str(field_.get("custom_id") or "")) <= 100:
            errors[f"{where}.custom_id"] = "Must be between 1 and 100 in length."
        if field_.get("style") not in (1, 2):
            errors[f"{where}.style"] = "Value must be one of (1, 2)."
        low, high = field_.get("min_length", 0), field_.get("max_length", 4000)
        low, high = 0 if low is None else low, 4000 if high is None else high
        if not 0 <= low <= 4000 or not 1 <= high <= 4000 or low > high:
            errors[f"{where}.min_length"] = "Lengths are 0-4000 (min) and 1-4000 (max)."
    if errors:
        raise BadMessage(400, 50035, "Invalid Form Body", errors)


def _ephemeral(message: Mapping[str, Any]) -> bool:
    return bool(message.get("flags", 0) & EPHEMERAL)


def _nonce(body: Mapping[str, Any]) -> str | None:
    """The message's nonce as a key (Discord: an integer or a string of up to 25 characters)."""
    nonce = body.get("nonce")
    if nonce is None:
        return None
    problem = None
    if isinstance(nonce, bool) or not isinstance(nonce, int | str):
        problem = "Must be an integer or string."
    elif isinstance(nonce, str) and len(nonce) > MAX_NONCE:
        problem = f"Must be {MAX_NONCE} or fewer in length."
    if problem:
        raise BadMessage(400, 50035, "Invalid Form Body", {"nonce": problem})
    return str(nonce)
