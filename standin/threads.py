"""Threads, as Discord defines them (https://discord.com/developers/docs/topics/threads
and resources/channel): started from a message or without one, posted in,
renamed, archived, locked, deleted and listed, with Discord's refusals. The
changes are `standin.thread_changes` (with the test-side API, `ThreadHelpers`),
the routes `standin.thread_routes`; the bot's posts, edits and deletes pass
through the hooks here (`check_send`, `check_reply`, `after_message`,
`check_edit`, `check_delete`, `after_delete`) from `standin.rest`.

- A thread has its parent channel's permissions (the bot's overwrites there),
  except that posting in it needs Send Messages in Threads, not Send Messages
  (403 50013). A private thread is seen only by its members and by Manage
  Threads (403 50001, and no gateway events, for others).
- From a message: Create Public Threads, View Channel and Read Message History
  in the parent (403 50013). The thread has the message's id, so a message has
  one thread at most (400 160004). The message then carries `thread` and flag
  HAS_THREAD (MESSAGE_UPDATE); the thread opens with a THREAD_STARTER_MESSAGE
  (type 21, not counted in message_count, not deletable: 400 50021).
- Without a message: type 11 (public, Create Public Threads; a THREAD_CREATED
  message, type 18, is posted in the parent) or 12 (private, Create Private
  Threads; the default when no type is given). Only from a text channel: 400
  50024 in a thread, 400 50003 in a DM.
- name 1-100 characters, auto_archive_duration 60, 1440, 4320 or 10080,
  rate_limit_per_user 0-21600 (400 50035).
- Posting in a locked thread needs Manage Threads (400 50083 "Thread is
  archived", interaction responses included); a post in an archived thread
  unarchives it (THREAD_UPDATE). Editing or deleting a message in an archived
  thread: 400 50083; editing in a locked one also needs Manage Threads.
- PATCH: an archived thread takes only a body that unarchives it (400 50083).
  Renaming, archiving, a new auto-archive duration: Manage Threads or the
  thread's creator; unarchiving: a member of the thread (Manage Threads if it
  is locked); locked, rate_limit_per_user, invitable, and any change to a
  locked thread: Manage Threads (403 50013). Archiving, unarchiving and a new
  duration set archive_timestamp. DELETE needs Manage Threads (THREAD_DELETE).
- Gateway: THREAD_CREATE (newly_created) and, when the bot joins, THREAD_MEMBERS_UPDATE;
  THREAD_UPDATE; THREAD_DELETE; GUILD_CREATE lists the active threads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from standin.answers import Refused, missing_permissions
from standin.world import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    EPHEMERAL,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
    Guild,
    User,
    iso,
)

if TYPE_CHECKING:
    from standin.state import StandIn

PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
THREAD_CREATED, THREAD_STARTER_MESSAGE = 18, 21  # message types
HAS_THREAD = 1 << 5  # message flag
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes
MAX_SLOWMODE = 21600


def archived_error() -> Refused:
    return Refused(400, 50083, "Thread is archived")


@dataclass
class Thread(Channel):
    """A thread: a channel (in `standin.channels` and its guild's `threads`)
    whose permissions are its parent's."""

    parent_id: int = 0
    owner_id: int = 0
    kind: int = PUBLIC_THREAD
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    rate_limit_per_user: int = 0
    created: datetime = field(default_factory=lambda: datetime.now(UTC))
    archive_changed: datetime = field(default_factory=lambda: datetime.now(UTC))
    message_count: int = 0
    total_message_sent: int = 0
    joined: dict[int, datetime] = field(default_factory=dict)  # member id -> when

    def payload(self, *, member: bool = False) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "archived": self.archived,
            "auto_archive_duration": self.auto_archive_duration,
            "archive_timestamp": iso(self.archive_changed),
            "locked": self.locked,
            "create_timestamp": iso(self.created),
        }
        if self.kind == PRIVATE_THREAD:
            metadata["invitable"] = self.invitable
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.kind,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "last_pin_timestamp": None,
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
            "message_count": self.message_count,
            "total_message_sent": self.total_message_sent,
            "member_count": min(len(self.joined), 50),  # Discord stops counting at 50
            "thread_metadata": metadata,
        }
        if member and self.bot_id in self.joined:
            data["member"] = self.member(self.bot_id)
        return data

    def member(self, user_id: int) -> dict[str, Any]:
        """The thread member object of someone who joined."""
        joined = iso(self.joined[user_id])
        return {"id": str(self.id), "user_id": str(user_id), "join_timestamp": joined, "flags": 0}

    def listed(self, guild: Guild) -> bool:
        return not self.archived and sees(guild, self, self.bot_id)

    def listing(self) -> dict[str, Any]:
        """As GUILD_CREATE lists it: the bot's thread member without id and user_id."""
        data = self.payload(member=True)
        if "member" in data:
            data["member"] = {k: data["member"][k] for k in ("join_timestamp", "flags")}
        return data


# -- permissions ----------------------------------------------------------------
def parent_of(guild: Guild, channel: Channel) -> Channel:
    """The channel whose overwrites apply: a thread's parent, or the channel itself."""
    if isinstance(channel, Thread):
        return guild.channels.get(channel.parent_id, channel)
    return channel


def bot_permissions(guild: Guild, channel: Channel, bot_id: int) -> int:
    """The bot's permissions in a channel (a thread: in its parent)."""
    bot = guild.members.get(bot_id)
    if bot is None:
        return 0
    value = guild.permissions_of(bot)
    if value & ADMINISTRATOR:
        return ALL_PERMISSIONS
    return value & ~parent_of(guild, channel).bot_denied


def sees(guild: Guild, channel: Channel, bot_id: int) -> bool:
    if parent_of(guild, channel).bot_denied & VIEW_CHANNEL:
        return False
    if isinstance(channel, Thread) and channel.kind == PRIVATE_THREAD:
        manages = bot_permissions(guild, channel, bot_id) & MANAGE_THREADS
        return bot_id in channel.joined or bool(manages)
    return True


def visible(standin: StandIn, channel: Channel) -> bool:
    """May the bot see the channel at all (403 50001 Missing Access if not)?"""
    guild = standin.guilds.get(channel.guild_id)
    if guild is None:  # a DM
        return not channel.bot_denied & VIEW_CHANNEL
    return sees(guild, channel, standin.bot_user.id)


def denied(standin: StandIn, channel: Channel) -> int:
    """What the bot's overwrites take from it here (a thread: in its parent)."""
    guild = standin.guilds.get(channel.guild_id)
    return channel.bot_denied if guild is None else parent_of(guild, channel).bot_denied


def may(standin: StandIn, channel: Channel) -> int:
    return bot_permissions(standin.guilds[channel.guild_id], channel, standin.bot_user.id)


# -- the hooks standin.rest calls ------------------------------------------------
def check_send(standin: StandIn, channel: Channel) -> None:
    """Before the bot posts (POST /channels/{id}/messages)."""
    if not isinstance(channel, Thread):
        if channel.bot_denied & SEND_MESSAGES:
            raise missing_permissions()
        return
    allowed = may(standin, channel)
    if not allowed & SEND_MESSAGES_IN_THREADS:
        raise missing_permissions()
    if channel.locked and not allowed & MANAGE_THREADS:
        raise archived_error()


def check_reply(standin: StandIn, channel: Channel) -> None:
    """Before an interaction response makes a message: not in a locked thread."""
    if (
        isinstance(channel, Thread)
        and channel.locked
        and not may(standin, channel) & MANAGE_THREADS
    ):
        raise archived_error()


def after_message(
    standin: StandIn, channel: Channel, message: dict[str, Any], *, by_bot: bool
) -> None:
    """A message was made in the channel: a thread counts it, is unarchived by
    it, and has the bot as a member once the bot posted."""
    if not isinstance(channel, Thread) or message.get("flags", 0) & EPHEMERAL:
        return
    channel.message_count += 1
    channel.total_message_sent += 1
    if channel.archived:
        channel.archived = False
        channel.archive_changed = standin.now()
        announce(standin, "THREAD_UPDATE", channel)
    if by_bot:
        join(standin, channel, standin.bot_user.id)


def _thread_of(standin: StandIn, message: dict[str, Any]) -> Thread | None:
    channel = standin.channels.get(int(message["channel_id"]))
    return channel if isinstance(channel, Thread) else None


def check_edit(standin: StandIn, message: dict[str, Any]) -> None:
    thread = _thread_of(standin, message)
    if thread is not None and (
        thread.archived or (thread.locked and not may(standin, thread) & MANAGE_THREADS)
    ):
        raise archived_error()


def check_delete(standin: StandIn, message: dict[str, Any]) -> None:
    if message.get("type") == THREAD_STARTER_MESSAGE:
        raise Refused(400, 50021, "Cannot execute action on a system message")
    thread = _thread_of(standin, message)
    if thread is not None and thread.archived:
        raise archived_error()


def after_delete(standin: StandIn, message: dict[str, Any]) -> None:
    thread = _thread_of(standin, message)
    counted = (
        message.get("type") != THREAD_STARTER_MESSAGE and not message.get("flags", 0) & EPHEMERAL
    )
    if thread is not None and counted:
        thread.message_count = max(0, thread.message_count - 1)


def join(standin: StandIn, thread: Thread, user_id: int) -> None:
    """Someone joins the thread (by posting in it); the bot hears of its own joining."""
    if user_id not in thread.joined:
        thread.joined[user_id] = standin.now()
        if user_id == standin.bot_user.id:
            tell_joined(standin, thread)


def tell_joined(standin: StandIn, thread: Thread) -> None:
    standin.send_soon(
        "THREAD_MEMBERS_UPDATE",
        {"id": str(thread.id), "guild_id": str(thread.guild_id),
         "member_count": min(len(thread.joined), 50),
         "added_members": [thread.member(standin.bot_user.id)]},
    )  # fmt: skip


def announce(standin: StandIn, event: str, thread: Thread, **extra: Any) -> None:
    """THREAD_CREATE or THREAD_UPDATE, if the bot may see the thread; the
    message it was started from shows it as it is now."""
    starter = standin.messages.get(thread.id)
    if starter is not None and "thread" in starter:
        starter["thread"] = thread.payload()
    if sees(standin.guilds[thread.guild_id], thread, standin.bot_user.id):
        standin.send_soon(event, {**thread.payload(), **extra})


def system_message(
    standin: StandIn,
    channel: Channel,
    kind: int,
    content: str,
    author: User,
    reference: dict[str, str],
) -> dict[str, Any]:
    """A message Discord itself posts (THREAD_CREATED, THREAD_STARTER_MESSAGE)."""
    message_id = standin.snowflake()
    message: dict[str, Any] = {
        "id": str(message_id), "channel_id": str(channel.id), "guild_id": str(channel.guild_id),
        "author": author.payload(), "content": content, "timestamp": iso(standin.now()),
        "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
        "mention_roles": [], "attachments": [], "embeds": [], "components": [],
        "pinned": False, "type": kind, "flags": 0,
        "message_reference": {"type": 0, "guild_id": str(channel.guild_id), **reference},
    }  # fmt: skip
    standin.messages[message_id] = message
    standin.channel_order.setdefault(channel.id, []).append(message_id)
    channel.last_message_id = message_id
    return message
