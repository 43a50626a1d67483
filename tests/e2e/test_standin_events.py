"""The stand-in's scheduled events are Discord's (the league's nights will be
events in the server): discord.py's own client creates, edits and deletes an
event at a place outside Discord, and is refused as Discord refuses it:
without Manage Events, a location or end time missing, a start in the past,
a name too long, another server's event, or another's event with only
Create Events."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from standin import DiscordStandIn
from standin.events import CREATE_EVENTS, MANAGE_EVENTS
from tests.e2e.harness import World
from tests.e2e.test_standin_limits import client  # noqa: F401 (fixture)


def night(standin: DiscordStandIn, **changes: object) -> dict[str, object]:
    """League night at the bar, next week: the body discord.py sends for it."""
    start = standin.now() + timedelta(days=7)
    body: dict[str, object] = {
        "name": "League night · week 3",
        "description": "Groupings at noon in #league-announcements.",
        "privacy_level": 2,
        "entity_type": 3,
        "entity_metadata": {"location": "Koi's Bar, 12 Main St"},
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + timedelta(hours=4)).isoformat(),
    }
    body.update(changes)
    return body


async def test_an_event_is_created_edited_and_deleted_with_manage_events(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, MANAGE_EVENTS)
    guild = await client.fetch_guild(world.guild)
    start = standin.now() + timedelta(days=7)
    event = await guild.create_scheduled_event(
        name="League night · week 3", start_time=start, end_time=start + timedelta(hours=4),
        entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
        location="Koi's Bar, 12 Main St", description="Groupings at noon.",
    )  # fmt: skip
    assert event.location == "Koi's Bar, 12 Main St" and event.start_time == start
    (listed,) = standin.scheduled_events(world.guild)
    assert listed["name"] == "League night · week 3" and listed["channel_id"] is None
    later = start + timedelta(days=7)  # the date was skipped: a week on
    edited = await event.edit(start_time=later, end_time=later + timedelta(hours=4),
                              description="Moved: the 14th was skipped.")  # fmt: skip
    assert edited.start_time == later and edited.description == "Moved: the 14th was skipped."
    await event.delete()
    assert standin.scheduled_events(world.guild) == []
    with pytest.raises(discord.NotFound) as gone:
        await guild.fetch_scheduled_event(event.id)
    assert gone.value.code == 10070


async def test_without_manage_events_the_bot_is_refused(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    with pytest.raises(discord.Forbidden) as refused:
        await client.http.create_guild_scheduled_event(world.guild, **night(standin))
    assert refused.value.code == 50013
    assert standin.scheduled_events(world.guild) == []


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"entity_metadata": {}}, "entity_metadata", id="no location"),
        pytest.param(
            {"entity_metadata": {"location": "x" * 101}},
            "entity_metadata",
            id="a location too long",
        ),
        pytest.param({"scheduled_end_time": None}, "scheduled_end_time", id="no end time"),
        pytest.param({"name": "n" * 101}, "name", id="a name too long"),
        pytest.param({"description": "d" * 1001}, "description", id="a description too long"),
        pytest.param({"privacy_level": 1}, "privacy_level", id="a public event"),
    ],
)
async def test_an_event_discord_would_refuse_is_refused(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
    changes: dict[str, object],
    field: str,
) -> None:
    standin.grant_bot(world.guild, MANAGE_EVENTS)
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.create_guild_scheduled_event(world.guild, **night(standin, **changes))
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert field in str(refused.value)
    assert standin.scheduled_events(world.guild) == []


async def test_an_event_in_the_past_or_ending_before_it_starts_is_refused(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, MANAGE_EVENTS)
    past = standin.now() - timedelta(hours=1)
    for changes in ({"scheduled_start_time": past.isoformat()},
                    {"scheduled_end_time": standin.now().isoformat()}):  # fmt: skip
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.create_guild_scheduled_event(world.guild, **night(standin, **changes))
        assert refused.value.code == 50035


async def test_another_servers_event_is_unknown_here(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    other = standin.add_guild("Another bar")
    for guild in (world.guild, other):
        standin.grant_bot(guild, MANAGE_EVENTS)
    theirs = await client.http.create_guild_scheduled_event(other, **night(standin))
    with pytest.raises(discord.NotFound) as unknown:
        await client.http.edit_scheduled_event(world.guild, int(theirs["id"]), name="Ours now")
    assert unknown.value.code == 10070
    with pytest.raises(discord.NotFound):
        await client.http.delete_scheduled_event(world.guild, int(theirs["id"]))
    assert [e["name"] for e in standin.scheduled_events(other)] == ["League night · week 3"]


async def test_with_create_events_only_the_bot_changes_its_own_events_only(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, CREATE_EVENTS)
    ours = await client.http.create_guild_scheduled_event(world.guild, **night(standin))
    await client.http.edit_scheduled_event(world.guild, int(ours["id"]), name="Week 3, moved")
    someone = standin.add_scheduled_event(world.guild, world.commissioner, night(standin))
    with pytest.raises(discord.Forbidden) as refused:
        await client.http.delete_scheduled_event(world.guild, someone)
    assert refused.value.code == 50013
    names = sorted(e["name"] for e in standin.scheduled_events(world.guild))
    assert names == ["League night · week 3", "Week 3, moved"]
