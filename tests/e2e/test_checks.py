"""The start-up checks (bot/checks.py) against the stand-in's server.

Each case runs twice: through the running bot's gateway cache, and over REST
only as `league-bot check` does. Discord's channel permission overwrites are
not modelled by the stand-in, so a case adds one to a channel's JSON.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable
from typing import Any

import discord
import pytest

from bot import checks
from bot.checks import ANNOUNCEMENTS, APPROVALS, GUILD, ROLE, ChannelCheck
from bot.config import Settings
from bot.endpoints import point_at
from bot.lifecycle import EXIT_SETTINGS, StartupError
from bot.migrate import migrate
from bot.services import night_setup
from standin import DiscordStandIn
from standin.world import EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL
from tests.e2e.harness import TOKEN, World, running_bot


@pytest.fixture(params=["gateway cache", "REST only"])
async def connect(
    request: pytest.FixtureRequest, standin: DiscordStandIn
) -> AsyncIterator[Callable[[Settings], Any]]:
    """Connect a client for `settings` the way the parametrized mode does."""
    opened: list[Any] = []

    async def connected(settings: Settings) -> discord.Client:
        if request.param == "gateway cache":
            await migrate(settings.database_path)
            context = running_bot(settings, sync=False)
            bot = await context.__aenter__()
            opened.append(context)
            return bot
        point_at(standin.api_base)
        client = discord.Client(intents=discord.Intents(guilds=True))
        await client.login(TOKEN)
        opened.append(client)
        return client

    yield connected
    for thing in opened:
        if isinstance(thing, discord.Client):
            await thing.close()
        else:
            await thing.__aexit__(None, None, None)


def bot_role(standin: DiscordStandIn, guild: int) -> int:
    return next(r.id for r in standin.guilds[guild].roles.values() if r.managed_by_bot)


def change_channel(standin: DiscordStandIn, channel: int, **fields: Any) -> None:
    """Send the channel with these JSON fields changed (in GUILD_CREATE and over REST)."""
    held = standin.channels[channel]
    payload = type(held).payload
    held.payload = lambda: {**payload(held), **fields}  # type: ignore[method-assign]


def lines(results: dict[str, ChannelCheck]) -> dict[str, str]:
    return {name: check.line() for name, check in results.items()}


async def test_everything_in_place_passes(
    standin: DiscordStandIn, world: World, settings: Settings, connect: Any
) -> None:
    client = await connect(settings)
    results = await checks.run_checks(client, checks.legacy_setup(settings))
    assert lines(results) == {
        GUILD: f"{GUILD} {world.guild}: ok (Koi's Pinball)",
        ANNOUNCEMENTS: f"{ANNOUNCEMENTS} {world.announcements}: ok (#league-announcements)",
        APPROVALS: f"{APPROVALS} {world.approvals}: ok (#score-approvals)",
        ROLE: f"{ROLE} {world.commissioner_role}: ok (@Commissioner)",
    }
    assert all(c.ok and c.problem is None and c.checked_at.tzinfo for c in results.values())


async def test_each_problem_is_named_with_its_setting(
    standin: DiscordStandIn, world: World, settings: Settings, connect: Any
) -> None:
    other = standin.add_guild("Other Pinball")
    elsewhere = standin.add_channel(other, "elsewhere")
    deny = {"id": str(bot_role(standin, world.guild)), "type": 0, "allow": "0"}
    change_channel(
        standin, world.approvals,
        permission_overwrites=[{**deny, "deny": str(SEND_MESSAGES | EMBED_LINKS)}],
    )  # fmt: skip
    change_channel(standin, world.general, type=2, bitrate=64000, user_limit=0)  # voice
    cases = {
        ANNOUNCEMENTS: (world.general, "#general is a voice channel, not a text channel"),
        APPROVALS: (
            world.approvals,
            "#score-approvals: the bot cannot send messages there "
            "(missing Send Messages, Embed Links, Attach Files)",
        ),
    }
    wrong = dataclasses.replace(
        settings, announcement_channel_id=world.general, commissioner_role_id=987654321987654321
    )
    results = await checks.run_checks(await connect(wrong), checks.legacy_setup(wrong))
    assert results[GUILD].ok
    for name, (channel, problem) in cases.items():
        assert results[name].line() == f"{name} {channel}: {problem}"
        assert not results[name].ok and results[name].answered
    assert results[ROLE].line() == (
        f"{ROLE} 987654321987654321: there is no such role in Koi's Pinball: "
        "nobody can use the /league commands"
    )
    # A channel in another server, and one that does not exist.
    elsewhere_settings = dataclasses.replace(
        settings, announcement_channel_id=elsewhere, approvals_channel_id=123456789123456789
    )
    results = await checks.run_checks(
        await connect(elsewhere_settings), checks.legacy_setup(elsewhere_settings)
    )
    assert results[ANNOUNCEMENTS].problem == "#elsewhere is in another server (Other Pinball)"
    assert results[APPROVALS].problem == "there is no such channel in Koi's Pinball"


async def test_a_channel_the_bot_cannot_see(
    standin: DiscordStandIn, world: World, settings: Settings, connect: Any
) -> None:
    everyone = {"id": str(world.guild), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)}
    change_channel(standin, world.announcements, permission_overwrites=[everyone])
    results = await checks.run_checks(await connect(settings), checks.legacy_setup(settings))
    assert results[ANNOUNCEMENTS].problem == (
        "#league-announcements: the bot cannot see it (missing View Channel, Send Messages, "
        "Read Message History, Embed Links, Attach Files)"
    )
    assert results[APPROVALS].ok


async def test_a_channel_where_the_bot_cannot_attach_files(
    standin: DiscordStandIn, world: World, settings: Settings, connect: Any
) -> None:
    """Score photos are posted as files in the approvals channel (the standings
    picture in the announcements): without Attach Files Discord refuses them."""
    standin.deny(world.approvals, "attach")
    results = await checks.run_checks(await connect(settings), checks.legacy_setup(settings))
    assert results[APPROVALS].problem == (
        "#score-approvals: the bot cannot attach files there (score photos, the standings "
        "picture) (missing Attach Files)"
    )
    assert results[ANNOUNCEMENTS].ok


async def test_a_server_the_bot_is_not_in(
    standin: DiscordStandIn, world: World, settings: Settings, connect: Any
) -> None:
    wrong = dataclasses.replace(settings, guild_id=123456789012345678)
    client = await connect(wrong)
    results = await checks.run_checks(client, checks.legacy_setup(wrong))
    assert list(results) == [GUILD]  # nothing else can be checked
    problem = results[GUILD].problem
    assert problem is not None and problem.startswith("the bot is not in this server")
    if client.guilds:  # the gateway told it where it is
        assert f"(it is in: Koi's Pinball ({world.guild}))" in problem
    with pytest.raises(StartupError) as stopped:
        await checks.at_start(client, [checks.legacy_setup(wrong)])
    assert stopped.value.exit_code == EXIT_SETTINGS
    assert str(stopped.value) == results[GUILD].line()


async def test_at_start_alerts_the_commissioner_once_in_a_channel_that_works(
    standin: DiscordStandIn, world: World, settings: Settings, connect: Any
) -> None:
    deny = {"id": str(bot_role(standin, world.guild)), "type": 0, "allow": "0"}
    change_channel(
        standin, world.approvals, permission_overwrites=[{**deny, "deny": str(SEND_MESSAGES)}]
    )
    found = await checks.at_start(await connect(settings), [checks.legacy_setup(settings)])
    results = found[world.guild]
    assert [c.name for c in checks.problems(results)] == [APPROVALS]
    # The approvals channel is the broken one: the alert goes to the server's owner, by
    # DM (never to the announcements channel, which the players read).
    [alert] = standin.dms(standin.guilds[world.guild].owner_id)
    assert alert["content"].startswith("Heads-up from the league bot")
    assert f"- The approvals channel: {results[APPROVALS].problem}." in alert["content"]
    assert "no score can be approved" in alert["content"]
    assert standin.channel_messages(world.approvals) == []
    assert standin.channel_messages(world.announcements) == []


async def test_no_alert_when_everything_passes(
    standin: DiscordStandIn, world: World, settings: Settings, connect: Any
) -> None:
    found = await checks.at_start(await connect(settings), [checks.legacy_setup(settings)])
    results = found[world.guild]
    assert checks.problems(results) == []
    assert standin.channel_messages(world.announcements) == []
    assert standin.channel_messages(world.approvals) == []


async def test_at_start_the_commissioner_is_told_what_the_league_nights_lack_once(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    """/setup-night asked for events, a thread per group and division roles, and
    the bot's role has none of their permissions: one alert in the approvals
    channel, in plain words, with what stops and how to turn them off; not
    again at the next start for the same problems; the league's own places pass."""
    await migrate(settings.database_path)
    async with running_bot(settings, sync=False) as bot:
        await night_setup.change(bot.db, world.guild, venue="Pinball Pub", group_threads=True,
                                 division_roles=True)  # fmt: skip
        setup = checks.legacy_setup(settings)
        assert setup is not None
        found = await checks.at_start(bot, [setup], bot.db)
        assert checks.problems(found[world.guild]) == []  # channels and role are fine
        (alert,) = standin.channel_messages(world.approvals)
        text = alert["content"]
        assert text.startswith(f"<@&{world.commissioner_role}> Heads-up from the league bot")
        assert (
            "- League nights in the server's Events: the bot's role lacks Manage Events "
            "(Server Settings → Roles). Until that is fixed, league nights do not show in the "
            "server's Events."
        ) in text
        assert "- A thread per group: the bot's role lacks Create Public Threads" in text
        assert "- Division roles: the bot's role lacks Manage Roles" in text
        assert text.endswith(
            "The league's events, threads and division roles can also be turned off with "
            "/setup-night."
        )
        await checks.at_start(bot, [setup], bot.db)  # a restart: the same problems
        assert len(standin.channel_messages(world.approvals)) == 1
