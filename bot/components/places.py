"""Is the bot where a league's setup says, and may it do its job there?

At READY (and in `league-bot check`, `bot/checks.py`) and when a server
administrator runs /setup, the bot checks each place a league's setup names in
Discord: the league's
server (LEAGUE_GUILD_ID), the two channels it posts in
(ANNOUNCEMENT_CHANNEL_ID, APPROVALS_CHANNEL_ID) and the commissioner role
(COMMISSIONER_ROLE_ID). A channel must be in the league's server, be a
text (or announcement) channel, and the bot needs View Channel, Send Messages,
Read Message History and Embed Links there (the README's invite asks for them).

What the gateway cached is used first; what it lacks (`league-bot check` logs in
over REST only) is fetched. Each result is a `ChannelCheck`; the running bot
keeps the last ones in `bot.channel_checks`, by server, keyed by setting name.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

import aiohttp
import discord

from bot.models import ServerSetup

log = logging.getLogger(__name__)

GUILD, ROLE = "LEAGUE_GUILD_ID", "COMMISSIONER_ROLE_ID"
ANNOUNCEMENTS, APPROVALS = "ANNOUNCEMENT_CHANNEL_ID", "APPROVALS_CHANNEL_ID"
# What the bot needs in each of its channels: discord.py's name, Discord's label,
# and what the bot cannot do without it.
NEEDED = (
    ("view_channel", "View Channel", "see it"),
    ("send_messages", "Send Messages", "send messages there"),
    ("read_message_history", "Read Message History", "read its message history"),
    ("embed_links", "Embed Links", "embed links there"),
    ("attach_files", "Attach Files", "attach files there (score photos, the standings picture)"),
)
# A check that Discord could not answer (network, 5xx) says so instead of failing.
UNANSWERED = (discord.DiscordServerError, aiohttp.ClientError, OSError, TimeoutError)
NOT_ANSWERED = "could not be checked"


@dataclass(frozen=True)
class ChannelCheck:
    """The last check of one setting: `name` is the setting (e.g.
    ANNOUNCEMENT_CHANNEL_ID), `found` what it names (#channel, @role, server)."""

    name: str
    id: int
    ok: bool
    problem: str | None
    checked_at: datetime
    found: str = ""
    answered: bool = True  # False: Discord did not answer, so nothing is known

    def line(self) -> str:
        """One line: "ANNOUNCEMENT_CHANNEL_ID 123: ok (#league-announcements)"."""
        if self.ok:
            return f"{self.name} {self.id}: ok ({self.found})"
        return f"{self.name} {self.id}: {self.problem}"


def _check(name: str, id_: int, problem: str | None, found: str = "") -> ChannelCheck:
    answered = problem is None or not problem.startswith(NOT_ANSWERED)
    return ChannelCheck(name, id_, problem is None, problem, datetime.now(UTC), found, answered)


async def run_checks(client: discord.Client, setup: ServerSetup) -> dict[str, ChannelCheck]:
    """Check a league's server, channels and role; one result per setting.
    When the bot is not in the server only that result is given (nothing else
    can be checked)."""
    guild, problem = await _league_guild(client, setup.guild_id)
    if guild is None:
        return {GUILD: _check(GUILD, setup.guild_id, problem)}
    results = {GUILD: _check(GUILD, guild.id, None, guild.name)}
    me = await _bot_member(client, guild)
    listed: list[discord.abc.GuildChannel] | None = None
    for name, channel_id in (
        (ANNOUNCEMENTS, setup.announcements_channel_id),
        (APPROVALS, setup.approvals_channel_id),
    ):
        channel: discord.abc.GuildChannel | None = guild.get_channel(channel_id)
        if channel is None and listed is None:
            listed = await _guild_channels(guild)
        if channel is None and listed:
            channel = next((c for c in listed if c.id == channel_id), None)
        results[name] = await _channel_check(client, guild, me, name, channel_id, channel)
    role = guild.get_role(setup.commissioner_role_id)
    results[ROLE] = _check(
        ROLE,
        setup.commissioner_role_id,
        None
        if role is not None
        else f"there is no such role in {guild.name}: nobody can use the /league commands",
        f"@{role.name}" if role is not None else "",
    )
    return results


async def _league_guild(
    client: discord.Client, guild_id: int
) -> tuple[discord.Guild | None, str | None]:
    guild = client.get_guild(guild_id)
    if guild is not None and not guild.unavailable:
        return guild, None
    try:  # no gateway cache (REST only), or the server is in an outage
        return await client.fetch_guild(guild_id), None
    except (discord.NotFound, discord.Forbidden):
        elsewhere = ", ".join(f"{g.name} ({g.id})" for g in client.guilds if g.id != guild_id)
        where = f" (it is in: {elsewhere})" if elsewhere else ""
        return None, (
            f"the bot is not in this server{where}: invite it (README, 'Running it in a "
            "real Discord server') or fix the id"
        )
    except UNANSWERED as error:
        return None, f"{NOT_ANSWERED}: Discord did not answer ({short(error)})"


async def _bot_member(client: discord.Client, guild: discord.Guild) -> discord.Member | None:
    if guild.me is not None:
        return guild.me
    assert client.user is not None
    try:
        return await guild.fetch_member(client.user.id)
    except (discord.HTTPException, *UNANSWERED):
        return None


async def _guild_channels(guild: discord.Guild) -> list[discord.abc.GuildChannel]:
    try:
        return list(await guild.fetch_channels())
    except (discord.HTTPException, *UNANSWERED):
        return []


async def _channel_check(
    client: discord.Client,
    guild: discord.Guild,
    me: discord.Member | None,
    name: str,
    channel_id: int,
    channel: discord.abc.GuildChannel | None,
) -> ChannelCheck:
    if channel is None:
        return _check(name, channel_id, await _missing_channel(client, guild, channel_id))
    shown = f"#{channel.name}"
    if not isinstance(channel, discord.TextChannel):
        kind = str(channel.type).replace("_", " ")
        return _check(name, channel_id, f"{shown} is a {kind} channel, not a text channel")
    if me is None:
        return _check(name, channel_id, f"{shown}: the bot's own membership could not be read")
    allowed = channel.permissions_for(me)
    missing = [(label, cannot) for attr, label, cannot in NEEDED if not getattr(allowed, attr)]
    if not missing:
        return _check(name, channel_id, None, shown)
    labels = ", ".join(label for label, _ in missing)
    return _check(name, channel_id, f"{shown}: the bot cannot {missing[0][1]} (missing {labels})")


async def _missing_channel(client: discord.Client, guild: discord.Guild, channel_id: int) -> str:
    """Why a channel is not among the league's server's channels."""
    try:
        found = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
    except discord.NotFound:
        return f"there is no such channel in {guild.name}"
    except discord.Forbidden:
        return f"the bot cannot see a channel with this id in {guild.name}"
    except (discord.HTTPException, *UNANSWERED) as error:
        return f"{NOT_ANSWERED}: Discord did not answer ({short(error)})"
    if isinstance(found, discord.Thread):
        return f"#{found.name} is a thread, not a text channel"
    other = getattr(found, "guild", None)
    if other is not None and other.id != guild.id:
        where = getattr(other, "name", "") or await _guild_name(client, other.id)
        return f"#{getattr(found, 'name', channel_id)} is in another server ({where})"
    return f"there is no such channel in {guild.name}"


async def _guild_name(client: discord.Client, guild_id: int) -> str:
    try:  # a channel fetched over REST knows only its server's id
        return (await client.fetch_guild(guild_id, with_counts=False)).name
    except (discord.HTTPException, *UNANSWERED):
        return f"server {guild_id}"


def short(error: BaseException) -> str:
    return str(error) or type(error).__name__


def problems(checks: dict[str, ChannelCheck]) -> list[ChannelCheck]:
    return [c for c in checks.values() if not c.ok]
