"""What the stand-in knows: one bot user, guilds with roles, channels and members, messages.

Everything here renders itself as the JSON Discord's API v10 sends, so the
server and the gateway share one source of truth. Ids are snowflakes made from
the stand-in's clock, so discord.py's `created_at` (which the bot uses as
"now") is the time the test set.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
)

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Gateway intents that matter here.
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def snowflake_time(snowflake: int) -> datetime:
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


class Snowflakes:
    """Snowflake ids from a clock: the timestamp part is the clock's, the low
    22 bits a counter, so ids made at one instant still differ and increase."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self._clock = clock
        self._counter = itertools.count(1)
        self._last = 0

    def __call__(self) -> int:
        ms = int(self._clock().timestamp() * 1000) - DISCORD_EPOCH_MS
        candidate = (max(ms, 0) << 22) | (next(self._counter) & 0x3FFFFF)
        # A clock set backwards still gives unique ids; they just stop encoding it.
        if candidate <= self._last and (candidate >> 22) == (self._last >> 22):
            candidate = self._last + 1
        self._last = max(self._last, candidate)
        return candidate


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed_by_bot: int | None = None
    color: int = 0
    hoist: bool = False
    mentionable: bool = False

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed_by_bot is not None,
            "mentionable": self.mentionable,
            "flags": 0,
        }
        if self.managed_by_bot is not None:
            data["tags"] = {"bot_id": str(self.managed_by_bot)}
        return data


@dataclass
class Channel:
    id: int
    guild_id: int
    name: str
    position: int = 0
    topic: str | None = None
    bot_denied: int = 0  # permission bits a member overwrite takes from the bot here
    bot_id: int = 0
    last_message_id: int | None = None
    recipient: User | None = None  # a DM channel (type 1) with this user; guild_id is 0

    def payload(self) -> dict[str, Any]:
        if self.recipient is not None:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        overwrites = []
        if self.bot_denied:
            overwrites.append(
                {"id": str(self.bot_id), "type": 1, "allow": "0", "deny": str(self.bot_denied)}
            )
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": overwrites,
            "parent_id": None,
            "topic": self.topic,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "flags": 0,
        }


@dataclass
class Member:
    user: User
    roles: list[int]
    joined_at: datetime
    nick: str | None = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def display_name(self) -> str:
        return self.nick or self.user.global_name or self.user.username

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


class Listed(Protocol):
    """A thread as GUILD_CREATE lists it (`standin.threads.Thread`)."""

    def listed(self, guild: Guild) -> bool: ...  # active, and the bot may see it

    def listing(self) -> dict[str, Any]: ...


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    created: datetime
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    threads: dict[int, Listed] = field(default_factory=dict)  # standin.threads.Thread

    def permissions_of(self, member: Member) -> int:
        """A member's guild-level permissions (no channel overwrites are modelled)."""
        if member.id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.roles[self.id].permissions
        for role_id in member.roles:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def payload(self, *, members: Iterable[Member] | None = None) -> dict[str, Any]:
        """The guild as GUILD_CREATE sends it; `members` defaults to everyone."""
        listed = list(self.members.values() if members is None else members)
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in self.channels.values()],
            "members": [m.payload() for m in listed],
            "member_count": len(self.members),
            "large": False,
            "joined_at": iso(self.created),
            "threads": [t.listing() for t in self.threads.values() if t.listed(self)],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "incidents_data": None,
        }
