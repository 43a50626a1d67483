"""The stand-in's DMs are Discord's: POST /users/@me/channels opens (and reuses)
a DM channel, messages to it are checked and rate limited as in a server
channel, a user whose DMs are closed gets 403 50007 on the send (the channel is
still made), and an unknown user 404 10013 on the channel create."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from standin import DiscordStandIn, Limits
from tests.e2e.harness import World
from tests.e2e.test_standin_limits import client, http  # noqa: F401 (fixtures)

CANNOT_DM = (403, 50007, "Cannot send messages to this user")


async def test_a_dm_channel_is_made_once_and_takes_messages(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    player = world.players[0]
    user = await client.fetch_user(player)
    channel = await user.create_dm()
    assert isinstance(channel, discord.DMChannel)
    assert channel.recipient is not None and channel.recipient.id == player
    await channel.send("Your score was rejected.")
    client._connection._private_channels.clear()  # forget it: Discord hands back the same one
    again = await user.create_dm()
    assert again.id == channel.id
    await again.send("Second line.")
    sent = [m["content"] for m in standin.dms(player)]
    assert sent == ["Your score was rejected.", "Second line."]
    assert all("guild_id" not in m for m in standin.dms(player))
    assert standin.dms(world.players[1]) == []


async def test_closed_dms_refuse_the_send_not_the_channel(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    player = world.players[0]
    standin.close_dms(player)
    channel = await (await client.fetch_user(player)).create_dm()
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    error = refused.value
    assert (error.status, error.code, error.text) == CANNOT_DM
    assert standin.dms(player) == []
    standin.open_dms(player)
    await channel.send("hello")
    assert [m["content"] for m in standin.dms(player)] == ["hello"]


async def test_bots_and_users_sharing_no_server_cannot_be_sent_dms(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    stranger = await (await client.fetch_user(standin.owner_user.id)).create_dm()
    with pytest.raises(discord.Forbidden) as refused:
        await stranger.send("hello")
    assert refused.value.code == 50007
    robot = standin.add_member(world.guild, "Other Bot", bot=True)
    robot_dm = await (await client.fetch_user(robot)).create_dm()
    with pytest.raises(discord.Forbidden) as to_a_bot:
        await robot_dm.send("hello")
    assert to_a_bot.value.code == 50007


async def test_an_unknown_user_is_404_10013_and_a_bad_body_400(
    standin: DiscordStandIn,
    world: World,
    http: aiohttp.ClientSession,  # noqa: F811
) -> None:
    url = f"{standin.api_base}/users/@me/channels"
    async with http.post(url, json={"recipient_id": "123456789"}) as response:
        assert (response.status, await response.json()) == (
            404,
            {"message": "Unknown User", "code": 10013},
        )
    async with http.post(url, json={}) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 50035
    assert standin.unknown_requests == []


async def test_dm_messages_are_checked_and_rate_limited_like_channel_messages(
    standin: DiscordStandIn,
    world: World,
    http: aiohttp.ClientSession,  # noqa: F811
) -> None:
    standin.limits.messages_per_channel = Limits().messages_per_channel  # Discord's 5 per 5 s
    player = world.players[0]
    async with http.post(
        f"{standin.api_base}/users/@me/channels", json={"recipient_id": str(player)}
    ) as response:
        dm = await response.json()
    assert (dm["type"], [u["id"] for u in dm["recipients"]]) == (1, [str(player)])
    url = f"{standin.api_base}/channels/{dm['id']}/messages"
    async with http.post(url, json={"content": "x" * 2001}) as response:
        assert response.status == 400 and (await response.json())["code"] == 50035
    statuses = []
    for n in range(5):
        async with http.post(url, json={"content": f"line {n}"}) as response:
            statuses.append(response.status)
    assert statuses == [200] * 4 + [429]  # the refused body took one of the 5 too
    assert len(standin.dms(player)) == 4
