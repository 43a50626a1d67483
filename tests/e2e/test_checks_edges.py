"""The start-up checks at their edges: the exact line of each problem as
`league-bot check` prints it and the alert quotes it, Discord not answering
(the gateway's cache is enough; what is unknown is said so, and a server that
could not be checked stops the bot as a failure, not as a wrong setting), and
where the commissioner's alert goes."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import discord
import pytest

from bot import checks
from bot.__main__ import point_at
from bot.checks import ANNOUNCEMENTS, APPROVALS, GUILD, ROLE
from bot.client import LeagueBot
from bot.config import Settings
from bot.lifecycle import EXIT_FAILED, StartupError
from bot.migrate import migrate
from bot.repositories import server_setups
from standin import DiscordStandIn
from tests.e2e.harness import TOKEN, World, running_bot
from tests.e2e.test_checks import change_channel, connect, lines

__all__ = ["connect"]  # test_checks's fixture: each case through the cache and over REST

UNANSWERED = (
    "could not be checked: Discord did not answer (503 Service Unavailable (error code: 0): "
)
NOT_IN_SERVER = (
    "the bot is not in this server: invite it (README, 'Running it in a real Discord server') "
    "or fix the id"
)
HEADS_UP = "Heads-up from the league bot: something in this server stops it doing its job.\n"
FIX = (
    "Fix it in the server's settings, or choose other channels or another role with /setup. "
    "The bot checks again when it restarts."
)


@pytest.fixture
async def rest_only(standin: DiscordStandIn) -> AsyncIterator[discord.Client]:
    """A client logged in over REST only, as `league-bot check` is."""
    point_at(standin.api_base)
    client = discord.Client(intents=discord.Intents(guilds=True))
    await client.login(TOKEN)
    yield client
    await client.close()


@pytest.fixture
async def league_bot(settings: Settings) -> AsyncIterator[LeagueBot]:
    """The running bot, its gateway cache filled."""
    await migrate(settings.database_path)
    async with running_bot(settings, sync=False) as bot:
        yield bot


async def test_a_stage_channel_is_named_in_words(
    standin: DiscordStandIn, world: World, settings: Settings, connect: object
) -> None:
    change_channel(standin, world.general, type=13, bitrate=64000, user_limit=0)
    wrong = dataclasses.replace(settings, announcement_channel_id=world.general)
    results = await checks.run_checks(await connect(wrong), checks.legacy_setup(wrong))  # type: ignore[operator]
    assert results[ANNOUNCEMENTS].line() == (
        f"{ANNOUNCEMENTS} {world.general}: #general is a stage voice channel, not a text channel"
    )


async def test_a_channel_that_does_not_exist_is_named_by_its_setting_and_id(
    world: World, settings: Settings, connect: object
) -> None:
    wrong = dataclasses.replace(settings, approvals_channel_id=123456789123456789)
    results = await checks.run_checks(await connect(wrong), checks.legacy_setup(wrong))  # type: ignore[operator]
    assert results[APPROVALS].line() == (
        f"{APPROVALS} 123456789123456789: there is no such channel in Koi's Pinball"
    )


async def test_a_direct_message_channel_is_no_channel_of_the_server(
    standin: DiscordStandIn, world: World, settings: Settings, connect: object
) -> None:
    """The commissioner copied the id of their DM with the bot."""
    dm = standin.dm_channel(world.commissioner).id
    wrong = dataclasses.replace(settings, announcement_channel_id=dm)
    results = await checks.run_checks(await connect(wrong), checks.legacy_setup(wrong))  # type: ignore[operator]
    assert results[ANNOUNCEMENTS].line() == (
        f"{ANNOUNCEMENTS} {dm}: there is no such channel in Koi's Pinball"
    )
    assert results[APPROVALS].ok


async def test_a_server_the_bot_is_not_in_is_one_line_with_how_to_fix_it(
    settings: Settings, rest_only: discord.Client
) -> None:
    wrong = dataclasses.replace(settings, guild_id=123456789012345678)
    results = await checks.run_checks(rest_only, checks.legacy_setup(wrong))
    assert lines(results) == {GUILD: f"{GUILD} 123456789012345678: {NOT_IN_SERVER}"}


async def test_a_server_the_bot_is_not_in_names_every_server_it_is_in(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    other = standin.add_guild("Other Pinball")
    wrong = dataclasses.replace(settings, guild_id=123456789012345678)
    await migrate(wrong.database_path)
    async with running_bot(wrong, sync=False) as bot:
        results = await checks.run_checks(bot, checks.legacy_setup(wrong))
    where = f"(it is in: Koi's Pinball ({world.guild}), Other Pinball ({other}))"
    assert results[GUILD].problem == NOT_IN_SERVER.replace(": invite", f" {where}: invite")


async def test_a_server_discord_did_not_answer_for_stops_the_bot_as_a_failure(
    standin: DiscordStandIn, world: World, settings: Settings, rest_only: discord.Client
) -> None:
    """Not a wrong setting (exit 2) but Discord's outage (exit 1): the operator
    should try again, not edit .env."""
    standin.fail_next("GET /guilds/*", status=503, times=2)
    with pytest.raises(StartupError) as stopped:
        await checks.at_start(rest_only, [checks.legacy_setup(settings)])
    assert stopped.value.exit_code == EXIT_FAILED
    assert str(stopped.value).startswith(f"{GUILD} {world.guild}: {UNANSWERED}")


async def test_when_the_bots_membership_cannot_be_read_each_channel_says_so(
    standin: DiscordStandIn, world: World, settings: Settings, rest_only: discord.Client
) -> None:
    standin.fail_next("GET /guilds/*/members/*", status=503)
    results = await checks.run_checks(rest_only, checks.legacy_setup(settings))
    assert lines(results) == {
        GUILD: f"{GUILD} {world.guild}: ok (Koi's Pinball)",
        ANNOUNCEMENTS: f"{ANNOUNCEMENTS} {world.announcements}: "
        "#league-announcements: the bot's own membership could not be read",
        APPROVALS: f"{APPROVALS} {world.approvals}: "
        "#score-approvals: the bot's own membership could not be read",
        ROLE: f"{ROLE} {world.commissioner_role}: ok (@Commissioner)",
    }


async def test_a_channel_discord_did_not_answer_for_is_not_called_missing(
    standin: DiscordStandIn, settings: Settings, rest_only: discord.Client
) -> None:
    wrong = dataclasses.replace(settings, approvals_channel_id=123456789123456789)
    standin.fail_next("GET /channels/123456789123456789", status=503)
    results = await checks.run_checks(rest_only, checks.legacy_setup(wrong))
    problem = results[APPROVALS].problem
    assert problem is not None and problem.startswith(UNANSWERED)
    assert not results[APPROVALS].answered


async def test_with_the_gateways_cache_the_checks_need_no_answer_from_discords_api(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    """The running bot checks what the gateway told it: an API that does not
    answer at that moment changes nothing, a channel in another server included."""
    other = standin.add_guild("Other Pinball")
    elsewhere = standin.add_channel(other, "elsewhere")
    wrong = dataclasses.replace(settings, announcement_channel_id=elsewhere)
    await migrate(wrong.database_path)
    async with running_bot(wrong, sync=False) as bot:
        standin.fail_next("GET /*", status=503, times=20)
        results = await checks.run_checks(bot, checks.legacy_setup(wrong))
    assert lines(results) == {
        GUILD: f"{GUILD} {world.guild}: ok (Koi's Pinball)",
        ANNOUNCEMENTS: f"{ANNOUNCEMENTS} {elsewhere}: "
        "#elsewhere is in another server (Other Pinball)",
        APPROVALS: f"{APPROVALS} {world.approvals}: ok (#score-approvals)",
        ROLE: f"{ROLE} {world.commissioner_role}: ok (@Commissioner)",
    }


async def test_without_a_commissioner_role_the_alert_pings_nobody(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    """Two problems, one line each, in the approvals channel; no role to mention.
    Discord's API not answering reads meanwhile changes nothing: the channel is known."""
    wrong = dataclasses.replace(
        settings, commissioner_role_id=987654321987654321, announcement_channel_id=world.general
    )
    change_channel(standin, world.general, type=2, bitrate=64000, user_limit=0)
    await migrate(wrong.database_path)
    async with running_bot(wrong, sync=False) as bot:
        standin.fail_next("GET /channels/*", status=503, times=5)
        await checks.at_start(bot, [checks.legacy_setup(wrong)])
    [alert] = standin.channel_messages(world.approvals)
    assert alert["content"] == (
        f"{HEADS_UP}- The announcements channel: #general is a voice channel, not a text "
        "channel. Until that is fixed, the groupings, reminders, results and standings are not "
        "posted.\n- The commissioner role: there is no such role in Koi's Pinball: nobody can "
        "use the /league commands. Until that is fixed, nobody can use the commissioner "
        f"commands.\n{FIX}"
    )  # in plain words: no setting names, no ids
    assert "987654321987654321" not in alert["content"] and ANNOUNCEMENTS not in alert["content"]
    [post] = [r for r in standin.requests if r.method == "POST" and "/messages" in r.path]
    assert post.body["allowed_mentions"] == {"parse": []}
    assert standin.channel_messages(world.announcements) == []


async def test_an_alert_discord_refuses_in_approvals_goes_to_the_servers_owner(
    standin: DiscordStandIn, world: World, settings: Settings, league_bot: LeagueBot
) -> None:
    """Never to the announcements channel: the players read it."""
    wrong = dataclasses.replace(settings, commissioner_role_id=987654321987654321)
    standin.fail_next(f"POST /channels/{world.approvals}/messages", status=503)
    await checks.at_start(league_bot, [checks.legacy_setup(wrong)])
    [alert] = standin.dms(standin.guilds[world.guild].owner_id)
    assert alert["content"].startswith(HEADS_UP)
    assert standin.channel_messages(world.approvals) == []
    assert standin.channel_messages(world.announcements) == []


async def test_the_same_problems_are_not_told_again_at_the_next_start(
    standin: DiscordStandIn, world: World, settings: Settings, league_bot: LeagueBot
) -> None:
    wrong = dataclasses.replace(settings, commissioner_role_id=987654321987654321)
    setup = checks.legacy_setup(wrong)
    async with league_bot.db.transaction() as conn:
        await server_setups.set_places(conn, setup)
    await checks.at_start(league_bot, [setup], league_bot.db)
    await checks.at_start(league_bot, [setup], league_bot.db)  # restarted: the same problem
    assert len(standin.channel_messages(world.approvals)) == 1
    fixed = checks.legacy_setup(settings)
    async with league_bot.db.transaction() as conn:
        await server_setups.set_places(conn, fixed)
    await checks.at_start(league_bot, [fixed], league_bot.db)  # all well: forgotten
    await checks.at_start(league_bot, [setup], league_bot.db)  # wrong again: told again
    assert len(standin.channel_messages(world.approvals)) == 2


def test_an_error_with_no_words_is_named_by_its_kind() -> None:
    """A timeout has no message of its own: the line says "TimeoutError", not nothing."""
    assert checks.short(TimeoutError()) == "TimeoutError"
    assert checks.short(OSError("Connection reset by peer")) == "Connection reset by peer"
