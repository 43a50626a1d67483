"""A loopback Discord for discord.py 2.7: REST API v10 and the gateway on 127.0.0.1.

    async with DiscordStandIn(token=TOKEN) as discord:
        guild = discord.add_guild("League")
        ...
        point_at(discord.api_base)            # bot/endpoints.py
        ... start the real bot with TOKEN ...
        exchange = await discord.invoke(member, "league season setup", {"name": "Koi's League"})
        await exchange.done()
        assert exchange.ephemeral and exchange.content.startswith("League")

What Discord would refuse is refused with Discord's status, code and message,
and recorded in `rejected`: message bodies over Discord's limits, command
payloads over theirs, posts where the bot may not write (`deny`), unknown
channels, interaction callbacks after `interaction_deadline` (3 s) and tokens
used after `interaction_token_lifetime` (15 minutes), DMs to a user whose
DMs are closed (`close_dms`: 403 50007; `dms(user)` reads what the bot sent
them). Rate limits (`limits`,
see `standin.limits`) answer 429 with Discord's headers (recorded in
`rate_limited`); `fail_next` injects transient 5xx and `slow` late answers. Each is switchable per
test. A route the stand-in does not know answers 404
{"message": ..., "code": 0} and is recorded in `unknown_requests`, so a test
can show exactly what was missing.

This module holds the world and the test-side API; `standin.rest` answers the
HTTP routes and `standin.gateway` the websocket. Threads (`standin.threads`)
and roles (`standin.roles`) bring their own routes and test-side API
(`ThreadHelpers`, `RoleHelpers`), mixed in here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from aiohttp import web

from standin import commands as cmd
from standin.events import Events, ScheduledEvent
from standin.exchange import Exchange, Signal
from standin.gateway import Gateway
from standin.limits import Delays, Faults, Limits, RateLimiter
from standin.messages import BUTTON, find_component
from standin.rest import (
    API,
    ATTACHMENT_SIZE_LIMIT,
    HOST,
    INTERACTION_TOKEN_LIFETIME,
    INTERACTION_TYPE,
    NONCE_WINDOW,
    Rest,
)
from standin.roles import RoleHelpers
from standin.state import RecordedRequest
from standin.thread_changes import ThreadHelpers
from standin.threads import Thread, bot_permissions
from standin.world import (
    ADMINISTRATOR,
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    INTENT_GUILD_MEMBERS,
    LOADING,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    USE_EXTERNAL_EMOJIS,
    VIEW_CHANNEL,
    Channel,
    Guild,
    Member,
    Role,
    Snowflakes,
    User,
)

log = logging.getLogger(__name__)

DEFAULT_TOKEN = "standin.bot-token.0123456789abcdefghij"
# What a bot may do in a DM (Discord's app_permissions there).
DM_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
BOT_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
)  # fmt: skip


PERMISSION_NAMES = {
    "view": VIEW_CHANNEL, "send": SEND_MESSAGES, "attach": ATTACH_FILES,
    "history": READ_MESSAGE_HISTORY, "threads": CREATE_PUBLIC_THREADS,
    "private_threads": CREATE_PRIVATE_THREADS, "send_in_threads": SEND_MESSAGES_IN_THREADS,
}  # fmt: skip


def _permission_bits(what: Iterable[str]) -> int:
    unknown = set(what) - set(PERMISSION_NAMES)
    if unknown:
        raise ValueError(f"deny/allow takes {sorted(PERMISSION_NAMES)}, not {sorted(unknown)}")
    return sum(PERMISSION_NAMES[w] for w in set(what))


class DiscordStandIn(ThreadHelpers, RoleHelpers):
    """One application and its bot user, guilds, channels, members, messages;
    REST under `api_base`, the gateway at `gateway_url`, and a test-side API."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        application_id: int | None = None,
        bot_name: str = "League Bot",
        port: int = 0,
        heartbeat_interval_ms: int = 41250,
        interaction_deadline: float | None = 3.0,
        limits: Limits | None = None,
    ) -> None:
        self.token = token
        self._port = port
        self._fixed_time: datetime | None = None
        self.snowflake = Snowflakes(self.now)
        self.application_id = application_id or self.snowflake()
        # A modern application's bot user has the application's id.
        self.bot_user = User(
            self.application_id, bot_name.replace(" ", "").lower(), bot_name, bot=True
        )
        self.owner_user = User(self.snowflake(), "app-owner", "App Owner")
        self.users: dict[int, User] = {u.id: u for u in (self.bot_user, self.owner_user)}
        self.guilds: dict[int, Guild] = {}
        self.events = Events()  # every server's scheduled events
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.uploads: dict[str, bytes] = {}  # attachment id -> the uploaded bytes
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global)
        self.recommended_shards = 1  # what /gateway/bot recommends (AutoShardedBot asks)
        self.command_syncs: list[tuple[int | None, list[str]]] = []
        self.command_permissions: dict[tuple[int, str], dict[int, bool]] = {}
        self.exchanges: list[Exchange] = []
        # (member id, modal custom id) -> the modal the bot opened for that member
        self.open_modals: dict[tuple[int, str], dict[str, Any]] = {}
        self.requests: list[RecordedRequest] = []
        self.unknown_requests: list[RecordedRequest] = []
        self.rejected: list[RecordedRequest] = []
        self.dispatched: list[tuple[str, Any]] = []
        # Discord's limits, each switchable per test (None: not enforced).
        self.interaction_deadline = interaction_deadline  # first response, seconds
        self.interaction_token_lifetime: float | None = INTERACTION_TOKEN_LIFETIME
        self.nonce_window: timedelta = NONCE_WINDOW  # enforce_nonce, on the stand-in's clock
        self.limits = limits if limits is not None else Limits.none()
        self.rate_limiter = RateLimiter(self.limits)
        self.rate_limited: list[RecordedRequest] = []  # every 429 the stand-in answered
        self.faults = Faults()
        self.delays = Delays()
        self.nonces: dict[tuple[int, str], tuple[int, datetime]] = {}
        self.gateway = Gateway(self, heartbeat_interval_ms)
        self.exchange_by_token: dict[str, Exchange] = {}
        self.channel_order: dict[int, list[int]] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> the bot's DM channel with them
        self.closed_dms: set[int] = set()  # users whose DMs refuse the bot (50007)
        self._signal = Signal()
        self.last_request = 0.0
        self._outbox: asyncio.Queue[tuple[str, Any, int]] | None = None
        self._worker: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------
    async def start(self) -> None:
        rest = Rest(self)
        app = web.Application(middlewares=[rest.middleware], client_max_size=64 * 1024 * 1024)
        rest.routes(app.router)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, self._port)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._outbox = asyncio.Queue()
        self._worker = asyncio.create_task(self._deliver(), name="standin-gateway-outbox")

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
            self._worker = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordStandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._runner is None:
            raise RuntimeError("the stand-in is not started")
        return self._port

    @property
    def api_base(self) -> str:
        return f"http://{HOST}:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{HOST}:{self.port}/gateway"

    # -- clock -----------------------------------------------------------
    def now(self) -> datetime:
        """The stand-in's time: snowflakes (and so the bot's `created_at`) carry it."""
        return self._fixed_time or datetime.now(UTC)

    def set_time(self, when: datetime | None) -> None:
        """Freeze the clock at `when` (aware datetime); None goes back to real time."""
        if when is not None and when.tzinfo is None:
            raise ValueError("set_time needs an aware datetime")
        self._fixed_time = when

    def advance(self, delta: timedelta) -> None:
        self._fixed_time = self.now() + delta

    # -- the world -------------------------------------------------------
    def add_guild(
        self,
        name: str = "Stand-in Guild",
        *,
        guild_id: int | None = None,
        owner_id: int | None = None,
    ) -> int:
        """A guild with @everyone, the bot as a member (with its managed role)
        and an owner; returns its id. A connected bot gets GUILD_CREATE."""
        guild_id = guild_id or self.snowflake()
        owner = self._user(owner_id or self.snowflake(), "guild-owner")
        guild = Guild(guild_id, name, owner.id, self.now())
        guild.roles[guild_id] = Role(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)
        bot_role = Role(self.snowflake(), self.bot_user.global_name or "bot", BOT_PERMISSIONS, 1)
        bot_role.managed_by_bot = self.bot_user.id
        guild.roles[bot_role.id] = bot_role
        guild.members[owner.id] = Member(owner, [], self.now())
        guild.members[self.bot_user.id] = Member(self.bot_user, [bot_role.id], self.now())
        self.guilds[guild_id] = guild
        self.send_soon(
            "GUILD_CREATE",
            guild.payload(),
            per_session=lambda session: self.gateway.guild_create(guild, session),
        )
        return guild_id

    def grant_bot(self, guild_id: int, permissions: int) -> None:
        """A server administrator gives the bot's role more permissions (Manage
        Events, say); the bot hears of it as from Discord (GUILD_ROLE_UPDATE)."""
        guild = self._guild(guild_id)
        for role in guild.roles.values():
            if role.managed_by_bot == self.bot_user.id:
                role.permissions |= permissions
                self.send_soon(
                    "GUILD_ROLE_UPDATE", {"guild_id": str(guild_id), "role": role.payload()}
                )

    def scheduled_events(self, guild_id: int) -> list[dict[str, Any]]:
        """The server's scheduled events, as Discord lists them."""
        return [e.payload() for e in self.events.of_guild(guild_id)]

    def add_scheduled_event(self, guild_id: int, creator_id: int, body: dict[str, Any]) -> int:
        """An event a member made in Discord's own client; returns its id."""
        event = ScheduledEvent(self.snowflake(), guild_id, creator_id, dict(body))
        self.events.by_id[event.id] = event
        return event.id

    def remove_bot(self, guild_id: int) -> None:
        """A server administrator removes (kicks) the bot: it is no member any more,
        gets GUILD_DELETE (without "unavailable"), and is refused the server's channels."""
        guild = self._guild(guild_id)
        guild.members.pop(self.bot_user.id, None)
        self.send_soon("GUILD_DELETE", {"id": str(guild_id)})

    def invite_bot(self, guild_id: int) -> None:
        """The bot invited back to a server it was removed from: a member again with
        its managed role, and GUILD_CREATE as for a new server."""
        guild = self._guild(guild_id)
        managed = [r.id for r in guild.roles.values() if r.managed_by_bot == self.bot_user.id]
        guild.members[self.bot_user.id] = Member(self.bot_user, managed, self.now())
        self.send_soon(
            "GUILD_CREATE",
            guild.payload(),
            per_session=lambda session: self.gateway.guild_create(guild, session),
        )

    def add_channel(
        self,
        guild_id: int,
        name: str,
        *,
        channel_id: int | None = None,
        topic: str | None = None,
        bot_can_post: bool = True,
    ) -> int:
        """A text channel; with bot_can_post=False the bot's posts get 403 Missing Permissions."""
        guild = self._guild(guild_id)
        channel = Channel(
            channel_id or self.snowflake(), guild_id, name, len(guild.channels), topic,
            bot_id=self.bot_user.id, bot_denied=0 if bot_can_post else SEND_MESSAGES,
        )  # fmt: skip
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.channel_order[channel.id] = []
        self.send_soon("CHANNEL_CREATE", channel.payload())
        return channel.id

    def deny(self, channel_id: int, *what: str) -> None:
        """Take "view" (View Channel), "send" (Send Messages) and/or "attach" (Attach
        Files) from the bot in a channel, as a member overwrite a server admin sets
        (CHANNEL_UPDATE). Its posts there (without "attach": its posts with files)
        then get 403 50013 Missing Permissions, or 50001 Missing Access without
        "view" (reading the channel too). Also "history" (Read Message History),
        "threads" and "private_threads" (Create Public / Private Threads) and
        "send_in_threads" (Send Messages in Threads), which the channel's threads
        take from it (a thread has no overwrites of its own)."""
        channel = self._channel(channel_id)
        channel.bot_denied |= _permission_bits(what)
        self.send_soon("CHANNEL_UPDATE", channel.payload())

    def allow(self, channel_id: int, *what: str) -> None:
        """Undo `deny` for the permissions named (all of them when none is named)."""
        channel = self._channel(channel_id)
        channel.bot_denied &= ~_permission_bits(what) if what else 0
        self.send_soon("CHANNEL_UPDATE", channel.payload())

    def fail_next(
        self, route: str, *, status: int = 502, times: int = 1, retry_after: float | None = None
    ) -> None:
        """The next `times` requests matching `route` ("METHOD /path" under /api/v10,
        `*` for any part: "POST /channels/*/messages") fail with a transient 5xx
        before Discord would look at them (recorded in `rejected`). discord.py retries
        500, 502, 504 and 524 itself (after 1 s, 3 s, ...) and raises on others.
        status=429 with `retry_after` seconds is Cloudflare's ban in front of Discord:
        a plain-text 429 with Retry-After (whole seconds) and no Via header, on which
        discord.py gives up at once instead of waiting."""
        self.faults.add(route, status, times, retry_after)

    def slow(self, route: str, seconds: float) -> None:
        """Answer requests matching `route` ("PATCH /channels/*/messages/*") `seconds`
        late: each is done at once (the message stored) but the bot hears of it
        only then, so a bot killed meanwhile never learns of it (fault tests)."""
        self.delays.add(route, seconds)

    def add_member(
        self,
        guild_id: int,
        name: str,
        *,
        user_id: int | None = None,
        roles: Iterable[int] = (),
        nick: str | None = None,
        bot: bool = False,
    ) -> int:
        """A member (and their user, if new) with role ids; returns the user id."""
        guild = self._guild(guild_id)
        user = self._user(user_id or self.snowflake(), name, bot=bot)
        role_ids = [int(r) for r in roles]
        for role_id in role_ids:
            if role_id not in guild.roles or role_id == guild_id:
                raise ValueError(f"guild {guild_id} has no role {role_id} to give")
        member = Member(user, role_ids, self.now(), nick)
        guild.members[user.id] = member
        self.send_soon(
            "GUILD_MEMBER_ADD",
            {"guild_id": str(guild_id), **member.payload()},
            INTENT_GUILD_MEMBERS,
        )
        return user.id

    def close_dms(self, user_id: int) -> None:
        """The user does not take DMs from the bot (privacy settings, or blocked it):
        the DM channel is still made, but a message to it gets 403 50007."""
        self.closed_dms.add(user_id)

    def open_dms(self, user_id: int) -> None:
        self.closed_dms.discard(user_id)

    def dm_channel(self, user_id: int) -> Channel:
        """The bot's DM channel with a user, made once and reused (POST /users/@me/channels)."""
        known = self.dm_channels.get(user_id)
        if known is not None:
            return self.channels[known]
        channel = Channel(self.snowflake(), 0, "", recipient=self.users[user_id])
        self.channels[channel.id] = channel
        self.channel_order[channel.id] = []
        self.dm_channels[user_id] = channel.id
        return channel

    def may_dm(self, user: User) -> bool:
        """Discord refuses (50007) a DM to a user who closed them, to a bot, and to a
        user who shares no server with the bot."""
        shares = any(user.id in g.members for g in self.guilds.values())
        return shares and not user.bot and user.id not in self.closed_dms

    def set_command_permission(
        self, guild_id: int, command: str, target_id: int, allowed: bool = True
    ) -> None:
        """A server admin's override in Integrations: let (or stop) a member,
        a role, or everyone (target_id = guild id) use a command whatever its
        default_member_permissions say."""
        self.command_permissions.setdefault((guild_id, command), {})[target_id] = allowed

    def _user(self, user_id: int, name: str, *, bot: bool = False) -> User:
        user = self.users.get(user_id)
        if user is None:
            user = User(user_id, name.lower().replace(" ", "_")[:32], name, bot=bot)
            self.users[user_id] = user
        return user

    def _channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None or isinstance(channel, Thread):
            raise ValueError(f"no channel {channel_id}; add_channel() first (threads take "
                             "their parent's permissions)")  # fmt: skip
        return channel

    def _guild(self, guild_id: int) -> Guild:
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise ValueError(f"no guild {guild_id}; add_guild() first") from None

    def _member(self, guild_id: int, member_id: int) -> Member:
        member = self._guild(guild_id).members.get(member_id)
        if member is None:
            raise cmd.InvalidInvocation(f"{member_id} is not a member of guild {guild_id}")
        return member

    # -- reading what happened -------------------------------------------
    def channel_messages(
        self, channel_id: int, *, include_ephemeral: bool = False
    ) -> list[dict[str, Any]]:
        """The channel's messages, oldest first, as they are now (edits applied)."""
        found = [
            self.messages[m] for m in self.channel_order.get(channel_id, []) if m in self.messages
        ]
        return [m for m in found if include_ephemeral or not m.get("flags", 0) & EPHEMERAL]

    def dms(self, user_id: int) -> list[dict[str, Any]]:
        """The bot's DMs to a user, oldest first (none if it never opened a DM with them)."""
        channel_id = self.dm_channels.get(user_id)
        return [] if channel_id is None else self.channel_messages(channel_id)

    def message(self, message_id: int) -> dict[str, Any] | None:
        return self.messages.get(message_id)

    def attachment_url(self, attachment_id: str, filename: str) -> str:
        """Where the stand-in serves a file (Discord's CDN, for the bot)."""
        return f"http://{HOST}:{self.port}/attachments/{attachment_id}/{filename}"

    def delete_message(self, message_id: int) -> None:
        """A message deleted (by the bot, or by a moderator in Discord's client):
        gone for every later request (404 10008), and the gateway says so."""
        message = self.messages.pop(int(message_id), None)
        if message is not None:
            Rest.deleted(self, message)

    def attachment_bytes(self, message: dict[str, Any], index: int = 0) -> bytes:
        """What the bot uploaded as a message's attachment number `index`."""
        return self.uploads[message["attachments"][index]["id"]]

    def registered_commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """What the last bulk overwrite registered (guild_id None: global commands)."""
        return list(self.commands.get(guild_id, []))

    async def wait_for_message(
        self,
        channel_id: int,
        predicate: Callable[[dict[str, Any]], bool] | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109 (the test-facing API takes a plain timeout)
        *,
        after: int | None = None,
    ) -> dict[str, Any]:
        """The first visible message in the channel (newer than message id
        `after`) that matches `predicate`, waiting up to `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for message in self.channel_messages(channel_id):
                if after is not None and int(message["id"]) <= after:
                    continue
                if message.get("flags", 0) & LOADING:
                    continue
                if predicate is None or predicate(message):
                    return message
            remaining = deadline - loop.time()
            if remaining <= 0:
                seen = [m.get("content", "")[:80] for m in self.channel_messages(channel_id)]
                raise TimeoutError(
                    f"no matching message in channel {channel_id} within {timeout}s; "
                    f"it has {seen}. {self._problems()}"
                )
            await self._signal.wait(min(0.1, remaining))

    async def wait_until_connected(self, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Until a bot connection has been identified or resumed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.gateway.connected:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"no bot connected to the gateway within {timeout}s")
            await self._signal.wait(min(0.1, remaining))

    async def drop_gateway(self, *, resumable: bool = True) -> None:
        """Close every gateway connection as a network failure would (4000).
        The bot RESUMEs (and gets what it missed); with resumable=False its
        session is forgotten, the RESUME gets INVALID_SESSION and it IDENTIFYs
        again (discord.py waits 5 s before a re-IDENTIFY)."""
        await self.gateway.drop(resumable=resumable)

    def changed(self) -> None:
        self._signal.fire()

    def _problems(self) -> str:
        parts = [] if self.gateway.connected else ["No bot is connected to the gateway."]
        if self.unknown_requests:
            parts.append(
                "Unknown routes: "
                + ", ".join(f"{r.method} {r.path}" for r in self.unknown_requests[-5:])
            )
        if self.rejected:
            parts.append(
                "Refused: "
                + "; ".join(
                    f"{r.method} {r.path} -> {r.status} {r.error}" for r in self.rejected[-5:]
                )
            )
        if self.rate_limited:
            last = self.rate_limited[-1]
            parts.append(
                f"Rate limited (429) {len(self.rate_limited)} time(s), last {last.method} "
                f"{last.path}; see standin.limits."
            )
        return " ".join(parts)

    # -- acting as a member ----------------------------------------------
    async def invoke(
        self,
        member_id: int,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        locale: str = "en-US",
        unchecked: bool = False,
    ) -> Exchange:
        """A member runs `/command` ("league night finalize" for a subcommand) with
        options {name: value} (members, roles, channels by id; a file for an
        attachment option as {filename, size, content_type, width, height}). Option types
        come from the commands the bot registered; what Discord's client would
        not let a member send raises InvalidInvocation or CommandNotPermitted,
        unless `unchecked` (a modified client) sends values outside the
        options' ranges, lengths and choices anyway."""
        return await self._application_command(
            member_id, command, options or {}, None, channel_id, guild_id, locale, unchecked
        )

    async def autocomplete(
        self,
        member_id: int,
        command: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> Exchange:
        """A member typing into option `focused`; `(await ex.done()).choices` is the answer."""
        return await self._application_command(
            member_id, command, options, focused, channel_id, guild_id, "en-US", False
        )

    async def click(
        self,
        member_id: int,
        message_id: int,
        custom_id: str,
        *,
        values: list[str] | None = None,
        locale: str = "en-US",
    ) -> Exchange:
        """A member clicks the button `custom_id` (or picks `values` in a select) on a message."""
        message = self.messages.get(int(message_id))
        if message is None:
            raise cmd.InvalidInvocation(f"there is no message {message_id}")
        component = find_component(message, custom_id)
        if component is None:
            raise cmd.InvalidInvocation(f"message {message_id} has no component {custom_id!r}")
        if component.get("disabled"):
            raise cmd.InvalidInvocation(f"{custom_id!r} is disabled")
        channel = self.channels[int(message["channel_id"])]
        if channel.recipient is not None:  # a DM's buttons: only its recipient sees them
            if channel.recipient.id != int(member_id):
                raise cmd.InvalidInvocation(
                    f"{member_id} cannot see the DM of {channel.recipient.id}"
                )
            return self._click_in_dm(channel, message, component, custom_id, values, locale)
        guild = self._guild(channel.guild_id)
        member = self._member(guild.id, int(member_id))
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] != BUTTON:
            data["values"] = list(values or [])
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(data["values"]) <= high:
                raise cmd.InvalidInvocation(f"{custom_id!r} takes {low}-{high} values")
            offered = [o["value"] for o in component.get("options") or []]
            if component["type"] == 3 and any(v not in offered for v in data["values"]):
                raise cmd.InvalidInvocation(f"{data['values']} are not among {offered}")
        payload = self._interaction_payload("component", data, guild, channel, member, locale)
        payload["message"] = json.loads(json.dumps(message))
        exchange = self._open_exchange(payload, "component", custom_id, member, channel)
        exchange.component_message_id = int(message["id"])
        self.send_soon("INTERACTION_CREATE", payload)
        return exchange

    async def submit_modal(
        self,
        member_id: int,
        custom_id: str,
        values: Mapping[str, str],
        *,
        channel_id: int,
        locale: str = "en-US",
    ) -> Exchange:
        """A member submits a modal the bot opened for them (interaction type 5),
        `values` by text input custom_id. Refused as Discord's client would: no
        such modal open for that member, a required input left empty, or a value
        outside its input's lengths."""
        modal = self.open_modals.get((int(member_id), custom_id))
        if modal is None:
            raise cmd.InvalidInvocation(f"no modal {custom_id!r} is open for {member_id}")
        rows = []
        for row in modal["components"]:
            labelled = row.get("type") == 18  # a label around the input, or an action row
            field_ = row["component"] if labelled else row["components"][0]
            name = row["label"] if labelled else field_["label"]
            value = str(values.get(field_["custom_id"], ""))
            low = int(field_.get("min_length", 0) or 0)
            high = int(field_.get("max_length", 4000) or 4000)
            if field_.get("required", True) and not value:
                raise cmd.InvalidInvocation(f"{name!r} is required")
            if value and not low <= len(value) <= high:
                raise cmd.InvalidInvocation(f"{name!r} takes {low}-{high} characters")
            sent = {"type": 4, "custom_id": field_["custom_id"], "value": value}
            rows.append({"type": 18, "component": sent} if labelled
                        else {"type": 1, "components": [sent]})  # fmt: skip
        del self.open_modals[(int(member_id), custom_id)]
        channel = self.channels[int(channel_id)]
        guild = self._guild(channel.guild_id)
        member = self._member(guild.id, int(member_id))
        data = {"custom_id": custom_id, "components": rows}
        payload = self._interaction_payload("modal_submit", data, guild, channel, member, locale)
        exchange = self._open_exchange(payload, "modal_submit", custom_id, member, channel)
        self.send_soon("INTERACTION_CREATE", payload)
        return exchange

    async def _application_command(
        self,
        member_id: int,
        command: str,
        options: Mapping[str, Any],
        focused: str | None,
        channel_id: int | None,
        guild_id: int | None,
        locale: str,
        unchecked: bool,
    ) -> Exchange:
        channel = self._pick_channel(channel_id, guild_id)
        guild = self._guild(channel.guild_id)
        member = self._member(guild.id, int(member_id))
        top, *path = command.strip().lstrip("/").split()
        if self.commands.get(guild.id) or self.commands.get(None):
            registered = self._find_command(guild.id, top)
        else:  # the bot registered nothing: types from the values given
            log.warning("no commands registered; guessing the options of /%s", command)
            registered = {**cmd.guess_command(top, path, options), "id": str(self.snowflake())}
        if not self._may_use(guild, member, registered):
            raise cmd.CommandNotPermitted(
                f"Discord does not offer /{top} to {member.display_name}: it needs permissions "
                f"{registered.get('default_member_permissions')} and no override allows them"
            )
        invocation = cmd.build_invocation(
            registered,
            path,
            options,
            focused=focused,
            known_users=set(guild.members),
            known_roles=set(guild.roles),
            known_channels=set(guild.channels),
            unchecked=unchecked,
        )
        data: dict[str, Any] = {
            "id": registered["id"],
            "name": registered["name"],
            "type": cmd.CHAT_INPUT,
            "options": invocation.options,
        }
        if registered.get("guild_id"):
            data["guild_id"] = registered["guild_id"]
        resolved = self._resolved(guild, invocation)
        if resolved:
            data["resolved"] = resolved
        kind = "command" if focused is None else "autocomplete"
        payload = self._interaction_payload(kind, data, guild, channel, member, locale)
        exchange = self._open_exchange(payload, kind, " ".join([top, *path]), member, channel)
        self.send_soon("INTERACTION_CREATE", payload)
        return exchange

    def _pick_channel(self, channel_id: int | None, guild_id: int | None) -> Channel:
        if channel_id is not None:
            channel = self.channels.get(int(channel_id))
            if channel is None:
                raise cmd.InvalidInvocation(f"there is no channel {channel_id}")
            return channel
        guilds = [self._guild(guild_id)] if guild_id else list(self.guilds.values())
        if len(guilds) != 1 or not guilds[0].channels:
            raise cmd.InvalidInvocation("say which channel (channel_id=...)")
        return next(iter(guilds[0].channels.values()))

    def _find_command(self, guild_id: int, name: str) -> dict[str, Any]:
        for scope in (guild_id, None):
            for registered in self.commands.get(scope, []):
                if registered["name"] == name and registered.get("type", 1) == cmd.CHAT_INPUT:
                    return registered
        names = sorted(
            c["name"] for c in self.commands.get(guild_id, []) + self.commands.get(None, [])
        )
        raise cmd.InvalidInvocation(
            f"/{name} is not registered in guild {guild_id}; there are {names}"
        )

    def _may_use(self, guild: Guild, member: Member, registered: Mapping[str, Any]) -> bool:
        permissions = guild.permissions_of(member)
        if permissions & ADMINISTRATOR:
            return True
        overrides = self.command_permissions.get((guild.id, registered["name"]), {})
        if member.id in overrides:
            return overrides[member.id]
        by_role = [overrides[r] for r in member.roles if r in overrides]
        if by_role:
            return any(by_role)
        if guild.id in overrides:
            return overrides[guild.id]
        needed = registered.get("default_member_permissions")
        if needed is None:
            return True
        return permissions & int(needed) == int(needed)

    def _resolved(self, guild: Guild, invocation: cmd.Invocation) -> dict[str, Any]:
        resolved: dict[str, dict[str, Any]] = {}
        for user_id in invocation.resolved_users:
            member = guild.members[user_id]
            resolved.setdefault("users", {})[str(user_id)] = member.user.payload()
            resolved.setdefault("members", {})[str(user_id)] = member.payload(
                with_user=False, permissions=guild.permissions_of(member)
            )
        for role_id in invocation.resolved_roles:
            resolved.setdefault("roles", {})[str(role_id)] = guild.roles[role_id].payload()
        for key, content in invocation.uploaded.items():  # served as Discord's CDN would
            self.uploads[key] = content
            served = invocation.resolved_attachments[key]
            served["url"] = served["proxy_url"] = self.attachment_url(key, served["filename"])
        if invocation.resolved_attachments:
            resolved["attachments"] = dict(invocation.resolved_attachments)
        for channel_id in invocation.resolved_channels:
            channel = guild.channels[channel_id]
            resolved.setdefault("channels", {})[str(channel_id)] = {
                "id": str(channel.id),
                "name": channel.name,
                "type": 0,
                "permissions": str(EVERYONE_PERMISSIONS),
                "guild_id": str(guild.id),
                "parent_id": None,
            }
        return resolved

    def _interaction_payload(
        self,
        kind: str,
        data: dict[str, Any],
        guild: Guild,
        channel: Channel,
        member: Member,
        locale: str,
    ) -> dict[str, Any]:
        permissions = guild.permissions_of(member)
        bot_member = guild.members[self.bot_user.id]
        return {
            "id": str(self.snowflake()),
            "application_id": str(self.application_id),
            "type": INTERACTION_TYPE[kind],
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": str(permissions)},
            "member": member.payload(permissions=permissions),
            "token": "standin." + secrets.token_urlsafe(48),
            "version": 1,
            # in a thread: the bot's permissions in its parent
            "app_permissions": str(bot_permissions(guild, channel, bot_member.id)),
            "locale": locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }

    def _click_in_dm(
        self,
        channel: Channel,
        message: dict[str, Any],
        component: dict[str, Any],
        custom_id: str,
        values: list[str] | None,
        locale: str,
    ) -> Exchange:
        """A click on a button of a DM the bot sent (context 1, the bot's DM): the
        user, no server, no member."""
        assert channel.recipient is not None
        user = channel.recipient
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] != BUTTON:
            data["values"] = list(values or [])
        payload = {
            "id": str(self.snowflake()),
            "application_id": str(self.application_id),
            "type": INTERACTION_TYPE["component"],
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "user": user.payload(),
            "token": "standin." + secrets.token_urlsafe(48),
            "version": 1,
            "app_permissions": str(DM_PERMISSIONS),
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": "0"},
            "context": 1,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "message": json.loads(json.dumps(message)),
        }
        member = Member(user, [], self.now())
        exchange = self._open_exchange(payload, "component", custom_id, member, channel)
        exchange.component_message_id = int(message["id"])
        self.send_soon("INTERACTION_CREATE", payload)
        return exchange

    def _open_exchange(
        self, payload: dict[str, Any], kind: str, name: str, member: Member, channel: Channel
    ) -> Exchange:
        exchange = Exchange(
            interaction_id=int(payload["id"]),
            token=payload["token"],
            kind=kind,
            name=name,
            member_id=member.id,
            channel_id=channel.id,
            payload=payload,
            created_at=asyncio.get_running_loop().time(),
            _changed=self._signal,
            _describe=self._problems,
            _last_activity=lambda: self.last_request,
            _message_lookup=self.messages.get,
        )
        self.exchanges.append(exchange)
        self.exchange_by_token[exchange.token] = exchange
        return exchange

    # -- the gateway outbox ----------------------------------------------
    def send_soon(
        self,
        event: str,
        data: Any,
        intent: int = 0,
        *,
        per_session: Callable[[Any], Any] | None = None,
    ) -> None:
        """Queue a dispatch (one worker sends them in order); `per_session`
        makes the payload per session, when what it sees depends on its intents."""
        self.dispatched.append((event, data))
        if self._outbox is not None:
            self._outbox.put_nowait((event, per_session or data, intent))

    async def drained(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until every queued gateway event has been sent (before closing a bot)."""
        if self._outbox is not None:
            async with asyncio.timeout(timeout):
                await self._outbox.join()

    async def _deliver(self) -> None:
        assert self._outbox is not None
        while True:
            event, data, intent = await self._outbox.get()
            try:
                await self.gateway.dispatch(event, data, intent=intent)
            except Exception:  # keep delivering; the test sees the log
                log.exception("could not dispatch %s", event)
            finally:
                self._outbox.task_done()
