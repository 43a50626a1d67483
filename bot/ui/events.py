"""A league night as a scheduled event in the server's Events (Discord's
fields: https://discord.com/developers/docs/resources/guild-scheduled-event),
as a player reads it on a phone: the league and the week, the venue, when,
and the link to the night's groupings once they are posted."""

from __future__ import annotations

from typing import Any

from bot.services.outcomes.night import WantedEvent
from bot.ui.fit import cut_line

EXTERNAL, GUILD_ONLY = 3, 2  # an event somewhere outside Discord, for the server's members
NAME_MAX, LOCATION_MAX, DESCRIPTION_MAX = 100, 100, 1000


def event_fields(wanted: WantedEvent) -> dict[str, Any]:
    """The event's fields as Discord takes them (and as the bot remembers them,
    to tell whether the event must be edited)."""
    night = f"Week {wanted.week}" if wanted.week is not None else "Playoff night"
    name = f"{wanted.league} · {night}"
    if wanted.groupings is not None:
        guild, channel, message = wanted.groupings
        groupings = f"Tonight's groupings: https://discord.com/channels/{guild}/{channel}/{message}"
    else:
        groupings = "The groupings are posted in the league's channel on the day."
    lines = [f"{night} of the league. {groupings}"]
    if wanted.week is not None:  # playoff night has no late notices (R13.4)
        lines.append("Running late or can't come? Tell us before the cutoff with /late or /absent.")
    description = "\n".join(lines)
    return {
        "name": cut_line(name, NAME_MAX),
        "description": description[:DESCRIPTION_MAX],
        "scheduled_start_time": wanted.starts.isoformat(),
        "scheduled_end_time": wanted.ends.isoformat(),
        "privacy_level": GUILD_ONLY,
        "entity_type": EXTERNAL,
        "entity_metadata": {"location": cut_line(wanted.venue, LOCATION_MAX)},
    }
