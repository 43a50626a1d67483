"""The stand-in's roles are Discord's (the league may give its players roles):
discord.py's own client gives and takes a member's role, creates, edits, moves
and deletes roles, and is refused as Discord refuses it: without Manage Roles,
at or above the bot's highest role (Administrator or not), a managed role,
@everyone, an unknown role or member, permissions the bot does not have,
Discord's 250 roles. The members' and the roles' cache follows the gateway."""

from __future__ import annotations

import discord
import pytest

from standin import ADMINISTRATOR, MANAGE_GUILD, MANAGE_ROLES, DiscordStandIn
from tests.e2e.harness import World
from tests.e2e.test_standin_limits import client  # noqa: F401 (fixture)
from tests.e2e.test_standin_threads import connected, eventually  # noqa: F401 (fixture)


def member_updates(standin: DiscordStandIn) -> int:
    return sum(1 for event, _ in standin.dispatched if event == "GUILD_MEMBER_UPDATE")


def names(standin: DiscordStandIn, guild: int) -> list[str]:
    """The server's roles from @everyone up."""
    return [r["name"] for r in standin.roles(guild)]


async def test_a_role_below_the_bots_is_given_and_taken_with_manage_roles(
    standin: DiscordStandIn,
    world: World,
    connected: discord.Client,  # noqa: F811
) -> None:
    winners = standin.add_role(world.guild, "Week 3 winners", position=1)
    guild = connected.get_guild(world.guild)
    assert guild is not None
    await eventually(lambda: guild.get_role(winners) is not None)
    role, player = guild.get_role(winners), guild.get_member(world.players[0])
    assert role is not None and player is not None
    with pytest.raises(discord.Forbidden) as refused:
        await player.add_roles(role)
    assert refused.value.code == 50013

    standin.grant_bot(world.guild, MANAGE_ROLES)
    await player.add_roles(role)
    assert standin.member_roles(world.guild, player.id) == [winners]
    await eventually(lambda: role in player.roles)  # GUILD_MEMBER_UPDATE
    updates = member_updates(standin)
    await player.add_roles(role)  # one they have: 204, and nothing changes
    assert member_updates(standin) == updates
    await player.remove_roles(role)
    assert standin.member_roles(world.guild, player.id) == []
    await eventually(lambda: role not in player.roles)


async def test_a_role_at_or_above_the_bots_highest_is_refused_even_to_an_administrator(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, ADMINISTRATOR)
    player = world.players[0]
    with pytest.raises(discord.Forbidden) as refused:  # Commissioner is above the bot's role
        await client.http.add_role(world.guild, player, world.commissioner_role)
    assert refused.value.code == 50013
    # Its own highest role is no lower than itself: strictly below, as Discord says.
    helpers = standin.add_role(world.guild, "League bots")  # at the top
    standin.set_roles(world.guild, standin.application_id, [standin.bot_role(world.guild), helpers])
    with pytest.raises(discord.Forbidden):
        await client.http.add_role(world.guild, player, helpers)
    await client.http.add_role(world.guild, player, world.commissioner_role)
    assert standin.member_roles(world.guild, player) == [world.commissioner_role]


async def test_a_server_admin_moving_the_bots_role_up_lets_it_give_the_roles_below(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, MANAGE_ROLES)
    with pytest.raises(discord.Forbidden):
        await client.http.add_role(world.guild, world.players[0], world.commissioner_role)
    standin.move_role(world.guild, standin.bot_role(world.guild), 3)  # to the top
    assert names(standin, world.guild) == ["@everyone", "Commissioner", "Moderator", "League Bot"]
    await client.http.add_role(world.guild, world.players[0], world.commissioner_role)
    await client.http.remove_role(world.guild, world.commissioner, world.commissioner_role)
    assert standin.member_roles(world.guild, world.players[0]) == [world.commissioner_role]
    assert standin.member_roles(world.guild, world.commissioner) == []


async def test_a_managed_role_and_everyone_are_neither_given_nor_taken(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, MANAGE_ROLES)
    other = standin.add_member(world.guild, "Scorekeeper", bot=True)
    theirs = standin.add_role(world.guild, "Scorekeeper", position=1, managed_by=other)
    standin.set_roles(world.guild, other, [theirs])
    with pytest.raises(discord.Forbidden) as given:
        await client.http.add_role(world.guild, world.players[0], theirs)
    with pytest.raises(discord.Forbidden) as taken:
        await client.http.remove_role(world.guild, other, theirs)
    assert given.value.code == taken.value.code == 50013
    with pytest.raises(discord.HTTPException) as everyone:
        await client.http.add_role(world.guild, world.players[0], world.guild)
    assert (everyone.value.status, everyone.value.code) == (400, 50028)
    assert standin.member_roles(world.guild, other) == [theirs]
    assert standin.member_roles(world.guild, world.players[0]) == []


async def test_an_unknown_role_is_404_10011_and_an_unknown_member_404_10007(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, MANAGE_ROLES)
    finalists = standin.add_role(world.guild, "Finalists", position=1)
    for user, role, code in ((world.players[0], 404, 10011), (404, finalists, 10007)):
        with pytest.raises(discord.NotFound) as unknown:
            await client.http.add_role(world.guild, user, role)
        assert unknown.value.code == code


async def test_a_new_role_goes_just_above_everyone_and_the_others_move_up(
    standin: DiscordStandIn,
    world: World,
    connected: discord.Client,  # noqa: F811
) -> None:
    guild = connected.get_guild(world.guild)
    assert guild is not None
    with pytest.raises(discord.Forbidden):
        await guild.create_role(name="Finalists")
    standin.grant_bot(world.guild, MANAGE_ROLES)
    role = await guild.create_role(
        name="Finalists", colour=discord.Colour(0x2ECC71), hoist=True, mentionable=True,
        permissions=discord.Permissions(send_messages=True),
    )  # fmt: skip
    assert (role.position, role.colour.value, role.hoist, role.mentionable) == (
        1, 0x2ECC71, True, True,
    )  # fmt: skip
    assert role.permissions == discord.Permissions(send_messages=True)
    expected = ["@everyone", "Finalists", "League Bot", "Commissioner", "Moderator"]
    assert names(standin, world.guild) == expected
    # GUILD_ROLE_CREATE, and GUILD_ROLE_UPDATE for each role that moved up
    await eventually(lambda: [r.name for r in guild.roles] == expected)
    assert [r.position for r in guild.roles] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("fields", "status", "code"),
    [
        pytest.param({"name": "n" * 101}, 400, 50035, id="a name too long"),
        pytest.param(
            {"name": "Mods", "permissions": str(MANAGE_GUILD)},
            403,
            50013,
            id="a permission the bot lacks",
        ),
        pytest.param({"name": "Finalists", "color": 1 << 24}, 400, 50035, id="no such color"),
    ],
)
async def test_a_role_discord_would_refuse_to_create_is_refused(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
    fields: dict[str, object],
    status: int,
    code: int,
) -> None:
    standin.grant_bot(world.guild, MANAGE_ROLES)
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.create_role(world.guild, **fields)
    assert (refused.value.status, refused.value.code) == (status, code)
    assert len(standin.roles(world.guild)) == 4


async def test_a_server_has_250_roles_at_most(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, MANAGE_ROLES)
    for n in range(250 - len(standin.roles(world.guild)) - 1):
        standin.add_role(world.guild, f"Week {n}")
    await client.http.create_role(world.guild, name="The 250th")
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.create_role(world.guild, name="The 251st")
    assert (refused.value.status, refused.value.code) == (400, 30005)
    assert len(standin.roles(world.guild)) == 250


async def test_a_role_below_the_bots_is_edited_and_deleted_but_not_one_above(
    standin: DiscordStandIn,
    world: World,
    connected: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, MANAGE_ROLES)
    finalists = standin.add_role(world.guild, "Finalists", position=1)
    player = world.players[0]
    standin.set_roles(world.guild, player, [finalists])
    guild = connected.get_guild(world.guild)
    assert guild is not None
    member = guild.get_member(player)
    assert member is not None
    await eventually(lambda: finalists in {r.id for r in member.roles})
    role = guild.get_role(finalists)
    assert role is not None
    edited = await role.edit(name="Week 3 finalists", colour=discord.Colour(0x3498DB))
    assert edited is not None and edited.colour.value == 0x3498DB
    await eventually(lambda: role.name == "Week 3 finalists")  # GUILD_ROLE_UPDATE
    with pytest.raises(discord.Forbidden):  # it may grant only what it has itself
        await role.edit(permissions=discord.Permissions(manage_guild=True))
    commissioner = guild.get_role(world.commissioner_role)
    assert commissioner is not None
    for attempt in (commissioner.edit(name="Boss"), commissioner.delete()):
        with pytest.raises(discord.Forbidden) as refused:
            await attempt
        assert refused.value.code == 50013

    await role.delete()
    assert standin.member_roles(world.guild, player) == []
    assert finalists not in {int(r["id"]) for r in standin.roles(world.guild)}
    await eventually(lambda: guild.get_role(finalists) is None)  # GUILD_ROLE_DELETE
    assert member.roles == [guild.default_role]
    with pytest.raises(discord.HTTPException) as everyone:
        await connected.http.delete_role(world.guild, world.guild)
    assert (everyone.value.status, everyone.value.code) == (400, 50028)


async def test_a_role_is_moved_only_below_the_bots_highest(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, MANAGE_ROLES)
    first = standin.add_role(world.guild, "First", position=1)
    standin.add_role(world.guild, "Second", position=1)
    guild = await client.fetch_guild(world.guild)
    role = guild.get_role(first)
    assert role is not None and role.position == 2
    await role.edit(position=1)
    assert names(standin, world.guild)[:4] == ["@everyone", "First", "Second", "League Bot"]
    guild = await client.fetch_guild(world.guild)
    role = guild.get_role(first)
    assert role is not None
    with pytest.raises(discord.Forbidden):  # past the bot's role, and Commissioner's
        await role.edit(position=4)
    assert names(standin, world.guild)[:4] == ["@everyone", "First", "Second", "League Bot"]
