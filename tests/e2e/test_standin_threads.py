"""The stand-in's threads are Discord's (the league's nights may run in threads):
discord.py's own client starts them from a message or without one, posts,
renames, archives, locks, lists and deletes them, and is refused as Discord
refuses it; its gateway cache follows; a slash command and a button click in a
thread reach it as a `discord.Thread` with the parent's permissions."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import discord
import pytest
from discord import app_commands

from bot.endpoints import point_at, use_gateway_of
from standin import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    DiscordStandIn,
)
from tests.e2e.harness import World
from tests.e2e.test_standin_limits import client  # noqa: F401 (fixture)

THREADS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
HAS_THREAD = 1 << 5


@contextlib.asynccontextmanager
async def gateway_client(standin: DiscordStandIn) -> AsyncIterator[discord.Client]:
    """discord.py connected to the stand-in's gateway (members intent), READY."""
    point_at(standin.api_base)
    intents = discord.Intents.default()
    intents.members = True
    bot = discord.Client(intents=intents, guild_ready_timeout=0.1)
    await bot.login(standin.token)
    await use_gateway_of(bot)
    connecting = asyncio.create_task(bot.connect(reconnect=False))
    try:
        async with asyncio.timeout(10):
            await bot.wait_until_ready()
        yield bot
    finally:
        await standin.drained()
        await bot.close()
        await asyncio.gather(connecting, return_exceptions=True)


@pytest.fixture
async def connected(standin: DiscordStandIn, world: World) -> AsyncIterator[discord.Client]:
    async with gateway_client(standin) as bot:
        yield bot


async def eventually(check: Callable[[], object], seconds: float = 5.0) -> None:
    """Until the gateway's events have reached discord.py's cache."""
    async with asyncio.timeout(seconds):
        while True:
            if check():
                return
            await asyncio.sleep(0.02)


def general(bot: discord.Client, world: World) -> discord.TextChannel:
    channel = bot.get_channel(world.general)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def fetched(bot: discord.Client, channel_id: int) -> discord.TextChannel:
    channel = await bot.fetch_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# -- starting ------------------------------------------------------------------------
async def test_a_thread_from_a_message_has_its_id_and_reaches_the_cache(
    standin: DiscordStandIn, world: World, connected: discord.Client
) -> None:
    standin.grant_bot(world.guild, THREADS)
    message = await general(connected, world).send("Week 3 groupings")
    thread = await message.create_thread(name="Week 3", auto_archive_duration=1440)

    assert thread.id == message.id and thread.parent_id == world.general
    assert thread.type is discord.ChannelType.public_thread
    assert thread.owner_id == standin.application_id and not thread.archived
    guild = connected.get_guild(world.guild)
    assert guild is not None
    await eventually(lambda: guild.get_thread(thread.id) is not None)
    cached = guild.get_thread(thread.id)
    assert cached is not None and cached in guild.threads and cached.me is not None
    marked = standin.message(message.id)
    assert marked is not None and marked["flags"] & HAS_THREAD
    assert marked["thread"]["id"] == str(thread.id)
    (starter,) = standin.channel_messages(thread.id)  # THREAD_STARTER_MESSAGE, not counted
    assert starter["type"] == 21 and starter["message_reference"]["message_id"] == str(message.id)
    assert standin.thread(thread.id)["message_count"] == 0
    assert [m.type async for m in thread.history()] == [discord.MessageType.thread_starter_message]
    fetched_thread = await connected.fetch_channel(thread.id)
    assert isinstance(fetched_thread, discord.Thread) and fetched_thread.me is not None
    [listed] = standin.threads(world.general)
    assert listed["thread_metadata"]["auto_archive_duration"] == 1440

    with pytest.raises(discord.HTTPException) as again:
        await message.create_thread(name="Week 3, again")
    assert (again.value.status, again.value.code) == (400, 160004)


async def test_a_thread_from_a_message_needs_create_public_threads_and_history(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    message = await (await fetched(client, world.general)).send("Week 3 groupings")
    with pytest.raises(discord.Forbidden) as refused:
        await message.create_thread(name="Week 3")
    assert refused.value.code == 50013
    standin.grant_bot(world.guild, CREATE_PUBLIC_THREADS)
    standin.deny(world.general, "history")
    with pytest.raises(discord.Forbidden) as refused:
        await message.create_thread(name="Week 3")
    assert refused.value.code == 50013
    standin.allow(world.general, "history")
    standin.deny(world.general, "threads")  # an overwrite in the channel takes it back
    with pytest.raises(discord.Forbidden):
        await message.create_thread(name="Week 3")
    standin.allow(world.general)
    assert (await message.create_thread(name="Week 3")).id == message.id


async def test_without_a_message_public_posts_thread_created_private_needs_its_own_right(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, CREATE_PUBLIC_THREADS)
    channel = await fetched(client, world.general)
    public = await channel.create_thread(name="Scores", type=discord.ChannelType.public_thread)
    (created,) = standin.channel_messages(world.general)
    assert (created["type"], created["content"]) == (18, "Scores")  # THREAD_CREATED
    assert created["message_reference"]["channel_id"] == str(public.id)

    with pytest.raises(discord.Forbidden) as refused:  # discord.py's default: private
        await channel.create_thread(name="Commissioners")
    assert refused.value.code == 50013
    standin.grant_bot(world.guild, CREATE_PRIVATE_THREADS)
    private = await channel.create_thread(name="Commissioners", invitable=False)
    assert private.type is discord.ChannelType.private_thread and not private.invitable
    assert len(standin.channel_messages(world.general)) == 1  # no THREAD_CREATED for it
    assert [t["name"] for t in standin.threads(world.guild)] == ["Scores", "Commissioners"]


async def test_a_thread_is_started_only_in_a_servers_text_channel(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, CREATE_PUBLIC_THREADS)
    thread = await (await fetched(client, world.general)).create_thread(
        name="Scores", type=discord.ChannelType.public_thread
    )
    dm = await client.http.start_private_message(world.players[0])
    for parent, code in ((thread.id, 50024), (int(dm["id"]), 50003)):
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.start_thread_without_message(
                parent, name="Inner", auto_archive_duration=60, type=11
            )
        assert (refused.value.status, refused.value.code) == (400, code)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        pytest.param({"name": ""}, "name", id="an empty name"),
        pytest.param({"name": "n" * 101}, "name", id="a name too long"),
        pytest.param({"auto_archive_duration": 30}, "auto_archive_duration", id="30 minutes"),
        pytest.param({"rate_limit_per_user": 21601}, "rate_limit_per_user", id="slowmode"),
        pytest.param({"type": 0}, "type", id="not a thread type"),
    ],
)
async def test_a_thread_discord_would_refuse_is_400_50035(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
    changes: dict[str, object],
    field: str,
) -> None:
    standin.grant_bot(world.guild, CREATE_PUBLIC_THREADS)
    body: dict[str, object] = {"name": "Scores", "auto_archive_duration": 60, "type": 11}
    body.update(changes)
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.start_thread_without_message(world.general, **body)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert field in str(refused.value)
    assert standin.threads(world.guild) == []


# -- posting -------------------------------------------------------------------------
async def test_posting_in_a_thread_needs_send_messages_in_threads_not_send_messages(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, CREATE_PUBLIC_THREADS)
    thread = await (await fetched(client, world.general)).create_thread(
        name="Scores", type=discord.ChannelType.public_thread
    )
    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("Table 1: 1.2B")
    assert refused.value.code == 50013
    standin.grant_bot(world.guild, SEND_MESSAGES_IN_THREADS)
    standin.deny(world.general, "send")  # Send Messages has no say in a thread
    sent = await thread.send("Table 1: 1.2B")
    assert sent.channel.id == thread.id
    assert [m["content"] for m in standin.channel_messages(thread.id)] == ["Table 1: 1.2B"]
    assert [m.content async for m in thread.history()] == ["Table 1: 1.2B"]
    assert standin.thread(thread.id)["message_count"] == 1
    standin.deny(world.general, "send_in_threads")  # the parent's overwrite rules the thread
    with pytest.raises(discord.Forbidden):
        await thread.send("Table 2: 900M")
    standin.deny(world.general, "view")
    with pytest.raises(discord.Forbidden) as hidden:
        await thread.send("Table 2: 900M")
    assert hidden.value.code == 50001


async def test_a_post_unarchives_a_thread_unless_a_moderator_locked_it(
    standin: DiscordStandIn, world: World, connected: discord.Client
) -> None:
    standin.grant_bot(world.guild, THREADS)
    thread = await general(connected, world).create_thread(
        name="Scores", type=discord.ChannelType.public_thread
    )
    guild = connected.get_guild(world.guild)
    assert guild is not None
    standin.archive_thread(thread.id)
    await eventually(lambda: guild.get_thread(thread.id) is None)  # archived: out of the cache
    await thread.send("Table 1: 1.2B")
    assert not standin.thread(thread.id)["thread_metadata"]["archived"]
    await eventually(lambda: guild.get_thread(thread.id) is not None)  # THREAD_UPDATE

    standin.archive_thread(thread.id, locked=True)
    with pytest.raises(discord.HTTPException) as refused:
        await thread.send("Table 2: 900M")
    assert (refused.value.status, refused.value.code, refused.value.text) == (
        400,
        50083,
        "Thread is archived",
    )
    standin.grant_bot(world.guild, MANAGE_THREADS)
    await thread.send("Table 2: 900M")
    metadata = standin.thread(thread.id)["thread_metadata"]
    assert (metadata["archived"], metadata["locked"]) == (False, True)


async def test_a_message_in_an_archived_thread_is_neither_edited_nor_deleted(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, THREADS)
    message = await (await fetched(client, world.general)).send("Week 3 groupings")
    thread = await message.create_thread(name="Week 3")
    sent = await thread.send("Table 1: 1.2B")
    standin.archive_thread(thread.id)
    for attempt in (sent.edit(content="Table 1: 1.3B"), sent.delete()):
        with pytest.raises(discord.HTTPException) as refused:
            await attempt
        assert (refused.value.status, refused.value.code) == (400, 50083)
    standin.moderate_thread(thread.id, archived=False)
    await sent.edit(content="Table 1: 1.3B")
    await sent.delete()
    assert standin.thread(thread.id)["message_count"] == 0
    (starter,) = standin.channel_messages(thread.id)
    with pytest.raises(discord.HTTPException) as system:
        await thread.get_partial_message(int(starter["id"])).delete()
    assert (system.value.status, system.value.code) == (400, 50021)


# -- changing, listing, deleting --------------------------------------------------
async def test_the_creator_renames_and_archives_its_thread_but_locking_needs_manage_threads(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, CREATE_PUBLIC_THREADS)
    thread = await (await fetched(client, world.general)).create_thread(
        name="Scores", type=discord.ChannelType.public_thread
    )
    opened = standin.thread(thread.id)["thread_metadata"]["archive_timestamp"]
    renamed = await thread.edit(name="Week 3 scores")
    archived = await renamed.edit(archived=True)
    assert archived.name == "Week 3 scores" and archived.archived
    assert standin.thread(thread.id)["thread_metadata"]["archive_timestamp"] > opened
    with pytest.raises(discord.HTTPException) as still_archived:
        await archived.edit(name="Week 4 scores")
    assert (still_archived.value.status, still_archived.value.code) == (400, 50083)
    reopened = await archived.edit(archived=False)
    assert not reopened.archived
    with pytest.raises(discord.Forbidden) as refused:
        await reopened.edit(locked=True)
    assert refused.value.code == 50013
    standin.grant_bot(world.guild, MANAGE_THREADS)
    assert (await reopened.edit(locked=True, archived=True)).locked


async def test_another_members_thread_is_not_the_bots_to_rename_or_unlock(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    theirs = standin.add_thread(world.general, "Koi's notes", owner_id=world.commissioner)
    for change in ({"name": "Ours now"}, {"archived": True}, {"rate_limit_per_user": 5}):
        with pytest.raises(discord.Forbidden) as refused:
            await client.http.edit_channel(theirs, **change)
        assert refused.value.code == 50013
    standin.archive_thread(theirs, locked=True)
    standin.grant_bot(world.guild, SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden):  # a locked thread: only Manage Threads reopens it
        await client.http.edit_channel(theirs, archived=False)
    assert standin.thread(theirs)["name"] == "Koi's notes"


async def test_active_and_archived_threads_are_listed_as_discord_lists_them(
    standin: DiscordStandIn,
    world: World,
    client: discord.Client,  # noqa: F811
) -> None:
    standin.grant_bot(world.guild, THREADS)
    channel = await fetched(client, world.general)
    week3 = await channel.create_thread(name="Week 3", type=discord.ChannelType.public_thread)
    week4 = await channel.create_thread(name="Week 4", type=discord.ChannelType.public_thread)
    hidden = standin.add_thread(world.general, "Mods", owner_id=world.moderator, private=True)
    standin.archive_thread(week3.id)

    guild = await client.fetch_guild(world.guild)
    assert [t.id for t in await guild.active_threads()] == [week4.id]  # not Mo's private one
    assert [t.id async for t in channel.archived_threads()] == [week3.id]
    with pytest.raises(discord.Forbidden) as private:
        await client.fetch_channel(hidden)
    assert private.value.code == 50001
    standin.grant_bot(world.guild, MANAGE_THREADS)  # a moderator sees private threads
    assert {t.id for t in await guild.active_threads()} == {week4.id, hidden}
    standin.deny(world.general, "history")
    with pytest.raises(discord.Forbidden):
        _ = [t async for t in channel.archived_threads()]


async def test_guild_create_lists_the_active_threads_a_connecting_bot_may_see(
    standin: DiscordStandIn, world: World
) -> None:
    active = standin.add_thread(world.general, "Week 3", owner_id=world.commissioner)
    standin.archive_thread(standin.add_thread(world.general, "Week 2", owner_id=world.commissioner))
    standin.add_thread(world.general, "Mods", owner_id=world.moderator, private=True)
    async with gateway_client(standin) as bot:
        guild = bot.get_guild(world.guild)
        assert guild is not None
        assert [t.id for t in guild.threads] == [active]
        thread = guild.get_thread(active)
        assert thread is not None and thread.parent == bot.get_channel(world.general)


async def test_deleting_a_thread_needs_manage_threads(
    standin: DiscordStandIn, world: World, connected: discord.Client
) -> None:
    standin.grant_bot(world.guild, THREADS)
    thread = await general(connected, world).create_thread(
        name="Scores", type=discord.ChannelType.public_thread
    )
    await thread.send("Table 1: 1.2B")
    with pytest.raises(discord.Forbidden) as refused:
        await thread.delete()
    assert refused.value.code == 50013
    standin.grant_bot(world.guild, MANAGE_THREADS)
    guild = connected.get_guild(world.guild)
    assert guild is not None
    await eventually(lambda: guild.get_thread(thread.id) is not None)
    await thread.delete()
    assert standin.threads(world.guild) == [] and standin.channel_messages(thread.id) == []
    await eventually(lambda: guild.get_thread(thread.id) is None)  # THREAD_DELETE
    with pytest.raises(discord.NotFound) as gone:
        await connected.fetch_channel(thread.id)
    assert gone.value.code == 10003


# -- interactions in a thread ----------------------------------------------------------
async def test_a_slash_command_and_a_click_in_a_thread_see_a_thread_and_the_parents_rights(
    standin: DiscordStandIn, world: World, connected: discord.Client
) -> None:
    seen: list[tuple[str, int | None, bool]] = []
    tree = app_commands.CommandTree(connected)

    def note(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        parent = channel.parent_id if isinstance(channel, discord.Thread) else None
        rights = interaction.app_permissions.send_messages_in_threads
        seen.append((type(channel).__name__, parent, rights))

    class Confirm(discord.ui.View):
        @discord.ui.button(label="Confirm", custom_id="confirm")
        async def confirm(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
            note(interaction)
            await interaction.response.send_message("Confirmed.", ephemeral=True)

    @tree.command(name="where", description="Where am I?", guild=discord.Object(world.guild))
    async def where(interaction: discord.Interaction) -> None:
        note(interaction)
        await interaction.response.send_message("Here.", view=Confirm())

    assert [c.name for c in await tree.sync(guild=discord.Object(world.guild))] == ["where"]
    standin.grant_bot(world.guild, SEND_MESSAGES_IN_THREADS)
    thread = standin.add_thread(world.general, "Week 3", owner_id=world.commissioner)

    command = await standin.invoke(world.players[0], "where", channel_id=thread)
    await command.done(timeout=5)
    assert command.payload["channel_id"] == str(thread)
    assert command.payload["channel"]["type"] == 11
    reply = command.reply
    assert reply is not None and reply["channel_id"] == str(thread)
    assert standin.thread(thread)["message_count"] == 1
    standin.deny(world.general, "send_in_threads")
    click = await standin.click(world.players[0], int(reply["id"]), "confirm")
    await click.done(timeout=5)
    assert seen == [("Thread", world.general, True), ("Thread", world.general, False)]

    standin.archive_thread(thread, locked=True)  # a moderator locks it: the reply is refused
    await standin.invoke(world.players[0], "where", channel_id=thread)
    await eventually(lambda: any(r.status == 400 for r in standin.rejected))
    (refused,) = standin.rejected
    assert refused.path.endswith("/callback") and refused.error == "Thread is archived"
