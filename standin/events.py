"""Guild scheduled events, as Discord defines them
(https://discord.com/developers/docs/resources/guild-scheduled-event): list,
create, get, modify and delete a server's events, with Discord's refusals.

- Creating needs Manage Events or Create Events; modifying or deleting needs
  Manage Events, or Create Events for an event the bot created itself
  (403 50013 Missing Permissions otherwise).
- An external event (entity_type 3, a place outside Discord) has no channel,
  a location of 1-100 characters and an end time after its start; every event
  has a name of 1-100 characters, a description of at most 1,000, privacy
  level 2 (guild only) and a start in the future (400 50035 Invalid Form Body).
- An event that does not exist, or is another server's: 404 10070.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from standin.world import Guild

MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
STAGE, VOICE, EXTERNAL = 1, 2, 3
GUILD_ONLY = 2
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4


class EventRefused(Exception):
    """Discord's answer to a refused request: status, code, message, field errors."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


@dataclass
class ScheduledEvent:
    id: int
    guild_id: int
    creator_id: int
    fields: dict[str, Any] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "creator_id": str(self.creator_id),
            "channel_id": self.fields.get("channel_id"),
            "name": self.fields["name"],
            "description": self.fields.get("description"),
            "scheduled_start_time": self.fields["scheduled_start_time"],
            "scheduled_end_time": self.fields.get("scheduled_end_time"),
            "privacy_level": self.fields.get("privacy_level", GUILD_ONLY),
            "status": self.fields.get("status", SCHEDULED),
            "entity_type": self.fields["entity_type"],
            "entity_id": None,
            "entity_metadata": self.fields.get("entity_metadata"),
            "user_count": 0,
            "image": None,
            "recurrence_rule": None,
        }


def _when(value: Any, name: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise _invalid(name, "Could not interpret the value as a date and time.") from None
    if parsed.tzinfo is None:
        raise _invalid(name, "A time zone is required.")
    return parsed


def _invalid(name: str, message: str) -> EventRefused:
    errors = {name: {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}}
    return EventRefused(400, 50035, "Invalid Form Body", errors)


def check(fields: dict[str, Any], now: datetime, *, creating: bool) -> None:
    """Discord's checks of an event as it will stand (`fields` merged)."""
    name = fields.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise _invalid("name", "Must be between 1 and 100 in length.")
    description = fields.get("description")
    if description is not None and (not isinstance(description, str) or len(description) > 1000):
        raise _invalid("description", "Must be 1000 or fewer in length.")
    if fields.get("privacy_level", GUILD_ONLY) != GUILD_ONLY:
        raise _invalid("privacy_level", "Value must be one of {2}.")
    kind = fields.get("entity_type")
    if kind not in (STAGE, VOICE, EXTERNAL):
        raise _invalid("entity_type", "Value must be one of {1, 2, 3}.")
    start = _when(fields.get("scheduled_start_time"), "scheduled_start_time")
    if creating and start <= now:
        raise _invalid("scheduled_start_time", "Cannot schedule event in the past.")
    if kind == EXTERNAL:
        if fields.get("channel_id") is not None:
            raise _invalid("channel_id", "An external event has no channel.")
        location = (fields.get("entity_metadata") or {}).get("location")
        if not isinstance(location, str) or not 1 <= len(location) <= 100:
            raise _invalid("entity_metadata", "An external event needs a location of 1 to 100.")
        end = fields.get("scheduled_end_time")
        if end is None:
            raise _invalid("scheduled_end_time", "An external event needs an end time.")
        if _when(end, "scheduled_end_time") <= start:
            raise _invalid("scheduled_end_time", "Must be after the start time.")


@dataclass
class Events:
    """Every server's scheduled events, by id."""

    by_id: dict[int, ScheduledEvent] = field(default_factory=dict)

    def of_guild(self, guild_id: int) -> list[ScheduledEvent]:
        return [e for e in self.by_id.values() if e.guild_id == guild_id]

    def get(self, guild_id: int, event_id: int) -> ScheduledEvent:
        event = self.by_id.get(event_id)
        if event is None or event.guild_id != guild_id:
            raise EventRefused(404, 10070, "Unknown Guild Scheduled Event")
        return event

    def create(
        self, guild: Guild, bot_id: int, event_id: int, body: dict[str, Any], now: datetime
    ) -> ScheduledEvent:
        may = guild.permissions_of(guild.members[bot_id])
        if not may & (MANAGE_EVENTS | CREATE_EVENTS):
            raise EventRefused(403, 50013, "Missing Permissions")
        fields = {k: v for k, v in body.items() if k in ALLOWED}
        check(fields, now, creating=True)
        event = ScheduledEvent(event_id, guild.id, bot_id, fields)
        self.by_id[event_id] = event
        return event

    def modify(
        self, guild: Guild, bot_id: int, event_id: int, body: dict[str, Any], now: datetime
    ) -> ScheduledEvent:
        event = self.get(guild.id, event_id)
        self._may_change(guild, bot_id, event)
        fields = {**event.fields, **{k: v for k, v in body.items() if k in ALLOWED}}
        check(fields, now, creating="scheduled_start_time" in body)
        event.fields = fields
        return event

    def delete(self, guild: Guild, bot_id: int, event_id: int) -> None:
        event = self.get(guild.id, event_id)
        self._may_change(guild, bot_id, event)
        del self.by_id[event_id]

    @staticmethod
    def _may_change(guild: Guild, bot_id: int, event: ScheduledEvent) -> None:
        may = guild.permissions_of(guild.members[bot_id])
        own = event.creator_id == bot_id and may & CREATE_EVENTS
        if not (may & MANAGE_EVENTS or own):
            raise EventRefused(403, 50013, "Missing Permissions")


ALLOWED = {
    "name", "description", "privacy_level", "entity_type", "channel_id", "entity_metadata",
    "scheduled_start_time", "scheduled_end_time", "status", "image", "recurrence_rule",
}  # fmt: skip
