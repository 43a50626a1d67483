"""Starting, changing, deleting and listing threads by Discord's rules (see
`standin.threads`), for the routes (`standin.thread_routes`) and for tests:
`ThreadHelpers` is the test-side API `DiscordStandIn` takes from here."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from standin.answers import booleans, missing_permissions
from standin.messages import BadMessage
from standin.threads import (
    ARCHIVE_DURATIONS,
    HAS_THREAD,
    MAX_SLOWMODE,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    THREAD_CREATED,
    THREAD_STARTER_MESSAGE,
    Thread,
    announce,
    archived_error,
    may,
    sees,
    system_message,
    tell_joined,
)
from standin.world import INTENT_GUILD_MESSAGES, MANAGE_THREADS, Channel, Guild

if TYPE_CHECKING:
    from standin.state import StandIn


# -- changes ----------------------------------------------------------------------
def check_fields(body: Any, *, creating: bool) -> dict[str, Any]:
    """The thread fields of a start or modify body, as Discord checks them (400 50035)."""
    body = body if isinstance(body, dict) else {}
    fields: dict[str, Any] = {}
    errors: dict[str, str] = {}
    name = body.get("name")
    if creating and name is None:
        errors["name"] = "This field is required"
    elif name is not None:
        if isinstance(name, str) and 1 <= len(name) <= 100:
            fields["name"] = name
        else:
            errors["name"] = "Must be between 1 and 100 in length."
    duration = body.get("auto_archive_duration")
    if duration is not None:
        if duration in ARCHIVE_DURATIONS and not isinstance(duration, bool):
            fields["auto_archive_duration"] = duration
        else:
            errors["auto_archive_duration"] = "Value must be one of (60, 1440, 4320, 10080)."
    slowmode = body.get("rate_limit_per_user")
    if slowmode is not None:
        if (
            isinstance(slowmode, int)
            and not isinstance(slowmode, bool)
            and 0 <= slowmode <= MAX_SLOWMODE
        ):
            fields["rate_limit_per_user"] = slowmode
        else:
            errors["rate_limit_per_user"] = f"Must be between 0 and {MAX_SLOWMODE}."
    booleans(body, ("archived", "locked", "invitable"), fields, errors)
    if errors:
        raise BadMessage(400, 50035, "Invalid Form Body", errors)
    return fields


def start(
    standin: StandIn,
    parent: Channel,
    fields: dict[str, Any],
    *,
    kind: int,
    owner_id: int,
    message: dict[str, Any] | None = None,
) -> Thread:
    """A new thread in `parent` (from `message`, if given) by `owner_id`, with
    the events and system messages Discord sends for it."""
    guild = standin.guilds[parent.guild_id]
    now = standin.now()
    thread = Thread(
        int(message["id"]) if message else standin.snowflake(), guild.id, fields["name"],
        bot_id=standin.bot_user.id, parent_id=parent.id, owner_id=owner_id, kind=kind,
        auto_archive_duration=fields.get("auto_archive_duration", 1440),
        rate_limit_per_user=fields.get("rate_limit_per_user", 0),
        invitable=fields.get("invitable", True), created=now, archive_changed=now,
    )  # fmt: skip
    thread.joined[owner_id] = now
    guild.threads[thread.id] = thread
    standin.channels[thread.id] = thread
    standin.channel_order[thread.id] = []
    announce(standin, "THREAD_CREATE", thread, newly_created=True)
    if owner_id == standin.bot_user.id:
        tell_joined(standin, thread)
    owner = standin.users[owner_id]
    if message is not None:
        message["flags"] = message.get("flags", 0) | HAS_THREAD
        message["thread"] = thread.payload()
        standin.send_soon("MESSAGE_UPDATE", message, INTENT_GUILD_MESSAGES)
        reference = {"message_id": message["id"], "channel_id": str(parent.id)}
        starter = system_message(standin, thread, THREAD_STARTER_MESSAGE, "", owner, reference)
        starter["referenced_message"] = json.loads(json.dumps(message))
    elif kind == PUBLIC_THREAD:
        reference = {"channel_id": str(thread.id)}
        created = system_message(standin, parent, THREAD_CREATED, thread.name, owner, reference)
        standin.send_soon("MESSAGE_CREATE", created, INTENT_GUILD_MESSAGES)
    return thread


def modify(standin: StandIn, thread: Thread, fields: dict[str, Any]) -> None:
    """The bot's PATCH of a thread, by Discord's rules (see the module's docstring)."""
    manages = may(standin, thread) & MANAGE_THREADS
    unarchiving = thread.archived and fields.get("archived") is False
    if thread.archived and not unarchiving:
        raise archived_error()
    if not manages:
        creator = thread.owner_id == standin.bot_user.id
        owners = bool({"name", "auto_archive_duration"} & set(fields))
        owners = owners or fields.get("archived") is True
        if (
            (thread.locked and fields)
            or fields.get("locked", thread.locked) != thread.locked
            or {"rate_limit_per_user", "invitable"} & set(fields)
            or (owners and not creator)
            or (unarchiving and standin.bot_user.id not in thread.joined)
        ):
            raise missing_permissions()
    apply(standin, thread, fields)


def apply(standin: StandIn, thread: Thread, fields: dict[str, Any]) -> None:
    """Make the change and tell the gateway (THREAD_UPDATE)."""
    now = standin.now()
    thread.name = fields.get("name", thread.name)
    thread.locked = fields.get("locked", thread.locked)
    thread.rate_limit_per_user = fields.get("rate_limit_per_user", thread.rate_limit_per_user)
    if thread.kind == PRIVATE_THREAD:
        thread.invitable = fields.get("invitable", thread.invitable)
    if fields.get("auto_archive_duration", thread.auto_archive_duration) != (
        thread.auto_archive_duration
    ):
        thread.auto_archive_duration = fields["auto_archive_duration"]
        thread.archive_changed = now
    if fields.get("archived", thread.archived) != thread.archived:
        thread.archived = fields["archived"]
        thread.archive_changed = now
    announce(standin, "THREAD_UPDATE", thread)


def delete(standin: StandIn, thread: Thread) -> None:
    if not may(standin, thread) & MANAGE_THREADS:
        raise missing_permissions()
    guild = standin.guilds[thread.guild_id]
    seen = sees(guild, thread, standin.bot_user.id)
    del guild.threads[thread.id]
    del standin.channels[thread.id]
    for message_id in standin.channel_order.pop(thread.id, []):
        standin.messages.pop(message_id, None)
    starter = standin.messages.get(thread.id)  # the message it was started from, if any
    if starter is not None and starter.pop("thread", None) is not None:
        starter["flags"] = starter.get("flags", 0) & ~HAS_THREAD
    if seen:
        gone = {"id": str(thread.id), "guild_id": str(guild.id),
                "parent_id": str(thread.parent_id), "type": thread.kind}  # fmt: skip
        standin.send_soon("THREAD_DELETE", gone)


# -- lists ----------------------------------------------------------------------------
def active(standin: StandIn, guild: Guild) -> dict[str, Any]:
    """GET /guilds/{id}/threads/active: the active threads the bot sees, newest first."""
    found = sorted((t for t in guild.threads.values() if isinstance(t, Thread) and t.listed(guild)),
                   key=lambda t: t.id, reverse=True)  # fmt: skip
    return _page(standin, found, has_more=None)


def archived_public(
    standin: StandIn, parent: Channel, before: datetime | None, limit: int
) -> dict[str, Any]:
    """GET /channels/{id}/threads/archived/public: latest archived first."""
    guild = standin.guilds[parent.guild_id]
    found = [t for t in guild.threads.values() if isinstance(t, Thread)
             and t.parent_id == parent.id and t.kind == PUBLIC_THREAD and t.archived
             and (before is None or t.archive_changed < before)]  # fmt: skip
    found.sort(key=lambda t: t.archive_changed, reverse=True)
    return _page(standin, found[:limit], has_more=len(found) > limit)


def _page(standin: StandIn, threads: list[Thread], *, has_more: bool | None) -> dict[str, Any]:
    bot = standin.bot_user.id
    page: dict[str, Any] = {
        "threads": [t.payload() for t in threads],
        "members": [t.member(bot) for t in threads if bot in t.joined],
    }
    if has_more is not None:
        page["has_more"] = has_more
    return page


class ThreadHelpers:
    """The test-side API for threads (a mixin of `DiscordStandIn`)."""

    def threads(self: StandIn, guild_or_channel_id: int) -> list[dict[str, Any]]:
        """A server's threads, or a channel's, archived ones too, oldest first."""
        guild = self.guilds.get(guild_or_channel_id)
        if guild is not None:
            found = [t for t in guild.threads.values() if isinstance(t, Thread)]
        else:
            channel = self.channels.get(guild_or_channel_id)
            if channel is None or channel.guild_id not in self.guilds:
                raise ValueError(f"no server or channel {guild_or_channel_id}")
            found = [t for t in self.guilds[channel.guild_id].threads.values()
                     if isinstance(t, Thread) and t.parent_id == channel.id]  # fmt: skip
        return [t.payload() for t in sorted(found, key=lambda t: t.id)]

    def thread(self: StandIn, thread_id: int) -> dict[str, Any]:
        return _thread(self, thread_id).payload()

    def add_thread(
        self: StandIn,
        channel_id: int,
        name: str,
        *,
        owner_id: int,
        private: bool = False,
        message_id: int | None = None,
        auto_archive_duration: int = 1440,
    ) -> int:
        """A member starts a thread in Discord's client (from one of the channel's
        messages with `message_id`); the bot hears of it as Discord tells it.
        Returns the thread's id. Messages in it: `channel_messages(thread id)`."""
        parent = self.channels.get(channel_id)
        if parent is None or parent.guild_id not in self.guilds or isinstance(parent, Thread):
            raise ValueError(f"{channel_id} is not a server's text channel")
        if owner_id not in self.guilds[parent.guild_id].members:
            raise ValueError(f"{owner_id} is not a member of the server")
        message = None if message_id is None else self.messages.get(message_id)
        if message_id is not None and (
            message is None or message["channel_id"] != str(channel_id) or "thread" in message
        ):
            raise ValueError(f"message {message_id} in {channel_id} cannot take a thread")
        fields = check_fields({"name": name, "auto_archive_duration": auto_archive_duration},
                              creating=True)  # fmt: skip
        kind = PRIVATE_THREAD if private and message is None else PUBLIC_THREAD
        return start(self, parent, fields, kind=kind, owner_id=owner_id, message=message).id

    def archive_thread(self: StandIn, thread_id: int, *, locked: bool = False) -> None:
        """A moderator archives the thread (and locks it, with `locked`): THREAD_UPDATE."""
        changes = {"archived": True, "locked": True} if locked else {"archived": True}
        apply(self, _thread(self, thread_id), changes)

    def moderate_thread(
        self: StandIn, thread_id: int, *, archived: bool | None = None, locked: bool | None = None
    ) -> None:
        """A moderator (un)archives or (un)locks the thread: THREAD_UPDATE."""
        changes = {"archived": archived, "locked": locked}
        apply(self, _thread(self, thread_id), {k: v for k, v in changes.items() if v is not None})


def _thread(standin: StandIn, thread_id: int) -> Thread:
    thread = standin.channels.get(thread_id)
    if not isinstance(thread, Thread):
        raise ValueError(f"no thread {thread_id}")
    return thread
