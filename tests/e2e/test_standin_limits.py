"""The stand-in is as strict as Discord: rate limits, permissions, unknown
channels, transient errors, interaction deadlines, nonces and command limits.

Each behaviour is checked through discord.py's own HTTP client where discord.py
has a way to use it (it paces on the X-RateLimit headers, waits out a 429,
retries a 502), and by hand where the exact answer matters. Time is never
asserted: what counts is what the stand-in recorded.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.__main__ import point_at
from bot.client import LeagueBot
from standin import DiscordStandIn, Limits
from tests.e2e.harness import World

RATE_LIMITED = "You are being rate limited."


@pytest.fixture
async def client(standin: DiscordStandIn) -> AsyncIterator[discord.Client]:
    """discord.py logged in to the stand-in over HTTP only (no gateway)."""
    point_at(standin.api_base)
    client = discord.Client(intents=discord.Intents.none())
    await client.login(standin.token)
    try:
        yield client
    finally:
        await client.close()


@pytest.fixture
async def http(standin: DiscordStandIn) -> AsyncIterator[aiohttp.ClientSession]:
    """A client that ignores every header: what it gets is Discord's raw answer."""
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


def posts(standin: DiscordStandIn, channel: int) -> list[Any]:
    path = f"/api/v10/channels/{channel}/messages"
    return [r for r in standin.requests if r.method == "POST" and r.path == path]


# -- rate limits ----------------------------------------------------------------
async def test_twelve_rapid_posts_to_one_channel_all_arrive_in_order(
    standin: DiscordStandIn, world: World, client: discord.Client
) -> None:
    standin.limits.messages_per_channel = (5, 1.5)  # Discord's 5 per 5 s, in a shorter window
    channel = await client.fetch_channel(world.announcements)
    assert isinstance(channel, discord.TextChannel)

    for n in range(12):
        await channel.send(f"part {n}")

    texts = [m["content"] for m in standin.channel_messages(world.announcements)]
    assert texts == [f"part {n}" for n in range(12)]
    # discord.py read X-RateLimit-Remaining and waited for the reset each time the
    # bucket ran dry, so Discord never had to refuse one.
    assert [r.remaining for r in posts(standin, world.announcements)].count(0) == 2
    assert standin.rate_limited == []


async def test_concurrent_posts_are_paced_by_the_headers(
    standin: DiscordStandIn, world: World, client: discord.Client
) -> None:
    standin.limits.messages_per_channel = (5, 1.0)
    channel = await client.fetch_channel(world.approvals)
    assert isinstance(channel, discord.TextChannel)

    await asyncio.gather(*(channel.send(f"score {n}") for n in range(12)))

    texts = {m["content"] for m in standin.channel_messages(world.approvals)}
    assert texts == {f"score {n}" for n in range(12)}
    # Every request got through or was told to wait; none was lost.
    accepted = [r for r in posts(standin, world.approvals) if r.status == 200]
    assert len(accepted) == 12


async def test_over_the_limit_is_429_with_discords_headers_and_body(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.api_base}/channels/{world.general}/messages"
    answers = []
    for n in range(6):
        async with http.post(url, json={"content": f"m{n}"}) as response:
            answers.append((response.status, dict(response.headers), await response.json()))

    statuses = [status for status, _, _ in answers]
    assert statuses == [200] * 5 + [429]
    first = answers[0][1]
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Remaining"] == "4"
    assert 0 < float(first["X-RateLimit-Reset-After"]) <= 5.0
    assert float(first["X-RateLimit-Reset"]) > 1.7e9  # epoch seconds
    assert first["X-RateLimit-Bucket"]
    assert [int(h["X-RateLimit-Remaining"]) for _, h, _ in answers] == [4, 3, 2, 1, 0, 0]
    _, headers, body = answers[5]
    assert body["message"] == RATE_LIMITED and body["global"] is False
    assert 0 < body["retry_after"] <= 5.0
    assert headers["X-RateLimit-Scope"] == "user" and int(headers["Retry-After"]) >= 1
    assert "X-RateLimit-Global" not in headers
    assert headers["Via"]  # without it discord.py takes a 429 for a Cloudflare ban
    assert len(standin.channel_messages(world.general)) == 5
    assert [r.status for r in standin.rate_limited] == [429]

    # The limit is per channel. Edits are counted apart from posts, though Discord
    # names the same bucket for both, as it does.
    other = f"{standin.api_base}/channels/{world.approvals}/messages"
    async with http.post(other, json={"content": "elsewhere"}) as response:
        assert response.status == 200
    message_id = answers[0][2]["id"]
    async with http.patch(f"{url}/{message_id}", json={"content": "edited"}) as response:
        assert response.status == 200
        assert response.headers["X-RateLimit-Remaining"] == "4"
        assert response.headers["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]


async def test_discordpy_waits_out_a_429_it_did_not_see_coming(
    standin: DiscordStandIn,
    world: World,
    http: aiohttp.ClientSession,
    client: discord.Client,
) -> None:
    """Another process (a bot before its restart) used up the channel's window."""
    standin.limits.messages_per_channel = (5, 3.0)
    url = f"{standin.api_base}/channels/{world.general}/messages"
    for n in range(5):
        async with http.post(url, json={"content": f"before restart {n}"}) as response:
            assert response.status == 200
    channel = await client.fetch_channel(world.general)
    assert isinstance(channel, discord.TextChannel)

    await channel.send("after restart")

    assert standin.channel_messages(world.general)[-1]["content"] == "after restart"
    assert [r.path for r in standin.rate_limited] == [f"/api/v10/channels/{world.general}/messages"]


async def test_the_global_limit_spares_interaction_callbacks(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession, client: discord.Client
) -> None:
    standin.limits.global_per_second, standin.limits.global_window = 3, 3.0
    answers = []
    for _ in range(4):
        async with http.get(f"{standin.api_base}/users/@me") as response:
            answers.append((response.status, dict(response.headers), await response.json()))
    assert [status for status, _, _ in answers][-1] == 429
    _, headers, body = answers[-1]
    assert body["global"] is True and body["message"] == RATE_LIMITED
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    # Discord does not bind interaction responses to the global limit.
    command = await standin.invoke(world.players[0], "ping")
    callback = f"{standin.api_base}/interactions/{command.interaction_id}/{command.token}/callback"
    async with http.post(callback, json={"type": 4, "data": {"content": "pong"}}) as response:
        assert response.status == 204
    before = len(standin.rate_limited)

    user = await client.fetch_user(world.players[0])  # discord.py waits and asks again

    assert user.id == world.players[0]
    assert len(standin.rate_limited) == before + 1 and standin.rate_limited[-1].path.startswith(
        "/api/v10/users/"
    )


async def test_a_timed_out_wait_says_the_bot_was_rate_limited(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession
) -> None:
    standin.limits.messages_per_channel = (1, 60.0)
    url = f"{standin.api_base}/channels/{world.general}/messages"
    for text in ("first", "second"):
        async with http.post(url, json={"content": text}):
            pass
    with pytest.raises(TimeoutError, match=r"Rate limited \(429\) 1 time"):
        await standin.wait_for_message(world.general, lambda m: m["content"] == "second", 0.2)


async def test_limits_can_be_switched_off(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession
) -> None:
    standin.limits.switch_off()
    url = f"{standin.api_base}/channels/{world.general}/messages"
    for n in range(8):
        async with http.post(url, json={"content": f"m{n}"}) as response:
            assert response.status == 200
            assert "X-RateLimit-Limit" not in response.headers
    assert standin.rate_limited == []
    assert DiscordStandIn().limits == Limits.none()  # a stand-in made without limits
    assert Limits().messages_per_channel == (5, 5.0) and Limits().global_per_second == 50


# -- permissions, unknown channels, transient errors ------------------------------
async def test_a_channel_the_bot_may_not_write_to_answers_403(
    standin: DiscordStandIn, world: World, client: discord.Client
) -> None:
    channel = await client.fetch_channel(world.announcements)
    assert isinstance(channel, discord.TextChannel)
    standin.deny(world.announcements, "send")

    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("groupings")
    assert (refused.value.status, refused.value.code) == (403, 50013)
    assert refused.value.text == "Missing Permissions"

    standin.deny(world.announcements, "view")
    with pytest.raises(discord.Forbidden) as hidden:
        await channel.send("groupings")
    assert hidden.value.code == 50001  # Missing Access: the bot cannot see the channel
    with pytest.raises(discord.Forbidden, match="Missing Access"):
        await client.fetch_channel(world.announcements)

    standin.allow(world.announcements)
    await channel.send("groupings")
    assert [m["content"] for m in standin.channel_messages(world.announcements)] == ["groupings"]
    assert [r.status for r in standin.rejected] == [403, 403, 403]


async def test_the_bot_sees_a_denied_channel_in_its_permissions(
    standin: DiscordStandIn, world: World, bot: LeagueBot
) -> None:
    """deny() is a member overwrite, sent as CHANNEL_UPDATE: the bot can check it."""
    standin.deny(world.approvals, "send")
    guild = bot.get_guild(world.guild)
    assert guild is not None
    for _ in range(50):
        channel = guild.get_channel(world.approvals)
        assert isinstance(channel, discord.TextChannel)
        if not channel.permissions_for(guild.me).send_messages:
            break
        await asyncio.sleep(0.05)
    assert not channel.permissions_for(guild.me).send_messages
    assert channel.permissions_for(guild.me).view_channel


async def test_an_unknown_channel_is_404_10003(
    standin: DiscordStandIn, world: World, client: discord.Client
) -> None:
    with pytest.raises(discord.NotFound) as missing:
        await client.http.send_message(123456789, params=_params("hello"))
    assert (missing.value.code, missing.value.text) == (10003, "Unknown Channel")


async def test_transient_server_errors_fail_the_next_requests(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession, client: discord.Client
) -> None:
    url = f"{standin.api_base}/channels/{world.general}/messages"
    standin.fail_next("POST /channels/*/messages", status=502, times=2)
    statuses = []
    for n in range(3):
        async with http.post(url, json={"content": f"try {n}"}) as response:
            statuses.append(response.status)
    assert statuses == [502, 502, 200]
    assert [m["content"] for m in standin.channel_messages(world.general)] == ["try 2"]

    # discord.py retries a 502 by itself; a 503 it raises.
    standin.fail_next(f"POST /channels/{world.general}/messages", status=502)
    channel = await client.fetch_channel(world.general)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("after one 502")
    standin.fail_next("POST /channels/*/messages", status=503)
    with pytest.raises(discord.DiscordServerError, match="503"):
        await channel.send("lost to a 503")
    texts = [m["content"] for m in standin.channel_messages(world.general)]
    assert texts == ["try 2", "after one 502"]
    assert [r.status for r in standin.rejected] == [502, 502, 502, 503]
    with pytest.raises(ValueError, match="say the route as 'METHOD /path'"):
        standin.fail_next("/channels/*/messages")  # no method


async def test_a_ban_429_has_retry_after_and_no_via_and_discordpy_gives_up_at_once(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession, client: discord.Client
) -> None:
    """Cloudflare's ban in front of Discord: plain text, Retry-After in whole
    seconds, no Via; discord.py raises it instead of waiting and retrying."""
    url = f"{standin.api_base}/channels/{world.general}/messages"
    standin.fail_next("POST /channels/*/messages", status=429, retry_after=2.5)
    async with http.post(url, json={"content": "banned"}) as response:
        assert (response.status, await response.text()) == (429, "error code: 1015")
        assert response.headers["Retry-After"] == "3" and "Via" not in response.headers
    standin.fail_next("POST /channels/*/messages", status=429, retry_after=30)
    channel = await client.fetch_channel(world.general)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException, match="429") as banned:
        await channel.send("lost to a ban")
    assert banned.value.response.headers["Retry-After"] == "30"
    assert standin.channel_messages(world.general) == []
    with pytest.raises(ValueError, match="says when to come back"):
        standin.fail_next("POST /channels/*/messages", status=429)
    with pytest.raises(ValueError, match="a 5xx status or a ban's 429, not 404"):
        standin.fail_next("POST /channels/*/messages", status=404)


async def test_a_slow_answer_comes_after_its_message_is_made(
    standin: DiscordStandIn, world: World, client: discord.Client
) -> None:
    """`slow` (the kill tests): the message exists before the bot hears of it,
    so a bot that dies meanwhile never learns it was made."""
    standin.slow("POST /channels/*/messages", 1.0)
    channel = await client.fetch_channel(world.general)
    assert isinstance(channel, discord.TextChannel)
    sending = asyncio.create_task(channel.send("on its way"))
    made = await standin.wait_for_message(world.general, timeout=10)
    assert made["content"] == "on its way" and not sending.done()
    [request] = posts(standin, world.general)
    assert request.status == 0  # not yet answered
    assert (await sending).id == int(made["id"])  # the answer names the message made
    assert request.status == 200
    with pytest.raises(ValueError, match="say the route as 'METHOD /path'"):
        standin.slow("/channels/*/messages", 1.0)
    with pytest.raises(ValueError, match="delay"):
        standin.slow("POST /channels/*/messages", -1.0)


# -- nonces ------------------------------------------------------------------------
async def test_enforce_nonce_returns_the_earlier_message(
    standin: DiscordStandIn, world: World, client: discord.Client, http: aiohttp.ClientSession
) -> None:
    standin.limits.messages_per_channel = None  # this test is about nonces, not pacing
    channel = await client.fetch_channel(world.announcements)
    assert isinstance(channel, discord.TextChannel)

    first = await channel.send("cutoff", nonce="cutoff:2026-03-11")
    again = await channel.send("cutoff", nonce="cutoff:2026-03-11")  # enforce_nonce: true

    assert again.id == first.id
    assert len(standin.channel_messages(world.announcements)) == 1
    # Without enforce_nonce Discord makes a second message; so it does after the window.
    url = f"{standin.api_base}/channels/{world.announcements}/messages"
    async with http.post(url, json={"content": "cutoff", "nonce": "cutoff:2026-03-11"}) as r:
        assert int((await r.json())["id"]) != first.id
    standin.advance(standin.nonce_window + timedelta(seconds=1))
    later = await channel.send("cutoff", nonce="cutoff:2026-03-11")
    assert later.id != first.id
    assert len(standin.channel_messages(world.announcements)) == 3
    # Same nonce in another channel: another message.
    elsewhere = await client.fetch_channel(world.general)
    assert isinstance(elsewhere, discord.TextChannel)
    assert (await elsewhere.send("cutoff", nonce="cutoff:2026-03-11")).id != later.id
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x", nonce="n" * 26)
    assert too_long.value.code == 50035


# -- interactions ------------------------------------------------------------------
async def test_a_late_first_response_is_unknown_interaction(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession
) -> None:
    standin.interaction_deadline = 0.2  # Discord's 3 s, shortened for the test
    late = await standin.invoke(world.players[0], "ping")
    on_time = await standin.invoke(world.players[1], "ping")
    answers = {}
    for exchange in (on_time, late):
        if exchange is late:
            await asyncio.sleep(0.3)
        callback = (
            f"{standin.api_base}/interactions/{exchange.interaction_id}/{exchange.token}/callback"
        )
        async with http.post(callback, json={"type": 5}) as response:
            answers[exchange.member_id] = (response.status, await response.text())
    assert answers[world.players[1]] == (204, "")
    assert answers[world.players[0]] == (404, '{"message": "Unknown interaction", "code": 10062}')
    assert late.errors and not late.acknowledged
    assert on_time.acknowledged and not on_time.errors


async def test_an_interaction_token_expires(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession
) -> None:
    standin.interaction_token_lifetime = 0.3  # Discord's 15 minutes, shortened
    command = await standin.invoke(world.players[0], "ping")
    api, app = standin.api_base, standin.application_id
    callback = f"{api}/interactions/{command.interaction_id}/{command.token}/callback"
    async with http.post(callback, json={"type": 5}) as response:
        assert response.status == 204
    hook = f"{api}/webhooks/{app}/{command.token}"
    async with http.post(hook, params={"wait": "1"}, json={"content": "in time"}) as response:
        assert response.status == 200
    await asyncio.sleep(0.4)
    async with http.post(hook, json={"content": "too late"}) as response:
        assert response.status == 401
        assert await response.json() == {"message": "Invalid Webhook Token", "code": 50027}
    async with http.patch(f"{hook}/messages/@original", json={"content": "x"}) as response:
        assert response.status == 401
    assert command.content == "in time"


# -- gateway and commands ----------------------------------------------------------
async def test_gateway_bot_names_the_gateway_and_the_bot_asks_it(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession, bot: LeagueBot
) -> None:
    async with http.get(f"{standin.api_base}/gateway/bot") as response:
        answer = await response.json()
    assert answer["url"] == standin.gateway_url and answer["shards"] == 1
    assert set(answer["session_start_limit"]) == {
        "total",
        "remaining",
        "reset_after",
        "max_concurrency",
    }
    asked = [r for r in standin.requests if r.path == "/api/v10/gateway/bot"]
    assert len(asked) == 2  # the bot's, at start-up, and this test's
    assert standin.gateway.identifies == 1


async def test_the_bots_commands_are_accepted_and_an_oversized_tree_is_refused(
    standin: DiscordStandIn, world: World, bot: LeagueBot, client: discord.Client
) -> None:
    syncs = [r for r in standin.requests if r.method == "PUT" and "/commands" in r.path
             and "/guilds/" not in r.path]  # fmt: skip
    assert [r.status for r in syncs] == [200]  # the bot's own registration, for every server
    assert {c["name"] for c in standin.registered_commands()} >= {"league", "score"}

    # discord.py checks the count per level itself, not the size: 49 subcommands
    # with full descriptions are more than Discord's 4000 characters.
    tree = app_commands.CommandTree(client)
    group = app_commands.Group(name="big", description="Grown too big")
    inner = app_commands.Group(name="more", description="Even more", parent=group)
    for n in range(24):
        group.add_command(app_commands.Command(name=f"a{n}", description="d" * 100, callback=_noop))
        inner.add_command(app_commands.Command(name=f"b{n}", description="d" * 100, callback=_noop))
    tree.add_command(group, guild=discord.Object(world.guild))
    with pytest.raises(discord.HTTPException) as refused:
        await tree.sync(guild=discord.Object(world.guild))

    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "In 0: Command exceeds maximum size (4000)." in refused.value.text
    # The refused overwrite changed nothing.
    assert {c["name"] for c in standin.registered_commands()} >= {"league", "score"}


def _command(**changes: Any) -> dict[str, Any]:
    option = {"name": "score", "type": 3, "description": "Your score", "required": True}
    return {
        "name": "score",
        "type": 1,
        "description": "Submit a score",
        "options": [option],
        **changes,
    }


def _option(name: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "type": 3, "description": name, **more}


def _choice(name: str, value: Any) -> dict[str, Any]:
    return {"name": name, "value": value}


def _sub(name: str, kind: int = 1, options: list[Any] | None = None) -> dict[str, Any]:
    return {"name": name, "type": kind, "description": name, "options": options or []}


OVER_THE_LIMITS = [
    ("upper case", [_command(name="Score")], ["0", "name"]),
    ("name of 33", [_command(name="s" * 33)], ["0", "name"]),
    ("a space", [_command(name="my score")], ["0", "name"]),
    ("no description", [_command(description="")], ["0", "description"]),
    ("description of 101", [_command(description="d" * 101)], ["0", "description"]),
    ("26 options", [_command(options=[_option(f"o{n}") for n in range(26)])], ["0", "options"]),
    (
        "26 choices",
        [_command(options=[_option("o", choices=[_choice(f"c{n}", f"{n}") for n in range(26)])])],
        ["0", "options", "0", "choices"],
    ),
    (
        "choice value of 101",
        [_command(options=[_option("o", choices=[_choice("c", "v" * 101)])])],
        ["0", "options", "0", "choices", "0", "value"],
    ),
    (
        "required after optional",
        [_command(options=[_option("a"), _option("b", required=True)])],
        ["0", "options", "1"],
    ),
    (
        "group in a group",
        [_command(options=[_sub("g", 2, [_sub("h", 2, [_sub("s")])])])],
        ["0", "options", "0", "options", "0", "type"],
    ),
    (
        "subcommand in a subcommand",
        [_command(options=[_sub("s", 1, [_sub("t")])])],
        ["0", "options", "0", "options", "0", "type"],
    ),
    (
        "more than 4000 characters",
        [
            _command(
                options=[
                    _option(f"o{n}", description="d" * 100, choices=[_choice("c" * 99, n)])
                    for n in range(25)
                ]
            )
        ],
        ["0"],
    ),
    ("101 slash commands", [_command(name=f"c{n}") for n in range(101)], []),
]


@pytest.mark.parametrize(
    ("payload", "where"),
    [(payload, where) for _, payload, where in OVER_THE_LIMITS],
    ids=[name for name, _, _ in OVER_THE_LIMITS],
)
async def test_a_command_payload_over_discords_limits_is_refused(
    standin: DiscordStandIn,
    world: World,
    http: aiohttp.ClientSession,
    payload: Any,
    where: list[str],
) -> None:
    url = f"{standin.api_base}/applications/{standin.application_id}/guilds/{world.guild}/commands"
    async with http.put(url, json=payload) as response:
        status, body = response.status, await response.json()

    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    node = body["errors"]
    for part in where:
        node = node[part]
    assert node["_errors"][0]["message"]  # nested where Discord nests it
    assert standin.registered_commands(world.guild) == []


async def test_a_command_payload_at_the_limits_is_accepted(
    standin: DiscordStandIn, world: World, http: aiohttp.ClientSession
) -> None:
    full = _command(
        name="ünïcode-ok_1",
        options=[_option(f"o{n}", required=n < 3) for n in range(25)],
    )
    groups = _command(
        name="league",
        options=[_sub(f"g{n}", 2, [_sub(f"s{m}") for m in range(25)]) for n in range(25)],
    )
    payload = [full, groups] + [_command(name=f"c{n}") for n in range(98)]
    url = f"{standin.api_base}/applications/{standin.application_id}/guilds/{world.guild}/commands"
    async with http.put(url, json=payload) as response:
        assert response.status == 200, await response.text()
    assert len(standin.registered_commands(world.guild)) == 100


async def _noop(interaction: discord.Interaction) -> None:
    return None


def _params(content: str) -> Any:
    return discord.http.handle_message_parameters(content=content)


# -- uploads -----------------------------------------------------------
async def test_an_upload_arrives_with_its_bytes(
    standin: DiscordStandIn, world: World, client: discord.Client
) -> None:
    channel = await client.fetch_channel(world.announcements)
    sent = await channel.send("table", file=discord.File(io.BytesIO(b"\x89PNG picture"), "a.png"))
    message = standin.message(sent.id)
    assert [a["filename"] for a in message["attachments"]] == ["a.png"]
    assert standin.attachment_bytes(message) == b"\x89PNG picture"
    assert sent.attachments[0].size == len(b"\x89PNG picture")


async def test_a_file_over_10_mib_is_413_40005(
    standin: DiscordStandIn, world: World, client: discord.Client
) -> None:
    channel = await client.fetch_channel(world.announcements)
    too_big = discord.File(io.BytesIO(b"x" * (10 * 1024 * 1024 + 1)), "big.png")
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("table", file=too_big)
    assert (refused.value.status, refused.value.code) == (413, 40005)
    assert standin.channel_messages(world.announcements) == []
    just_fits = discord.File(io.BytesIO(b"x" * (10 * 1024 * 1024)), "max.png")
    await channel.send("table", file=just_fits)
    assert len(standin.channel_messages(world.announcements)) == 1


async def test_more_than_10_files_is_refused_400_50035(
    standin: DiscordStandIn, world: World, client: discord.Client
) -> None:
    channel = await client.fetch_channel(world.announcements)
    eleven = [discord.File(io.BytesIO(b"png"), f"{n}.png") for n in range(11)]
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("table", files=eleven)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    ten = [discord.File(io.BytesIO(b"png"), f"{n}.png") for n in range(10)]
    sent = await channel.send("table", files=ten)
    assert len(standin.message(sent.id)["attachments"]) == 10
