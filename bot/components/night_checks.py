"""May the bot do in Discord what a league's night setup asks (/setup-night)?

- Scheduled events for the nights (a venue is set): Manage Events or Create
  Events in the server.
- A thread per group: Create Public Threads and Send Messages in Threads in
  the announcements channel.
- Division roles: Manage Roles in the server (the roles it makes sit below its
  own, as Discord requires).

Each is checked only when it is asked for, from what the gateway cached, at
/setup-night, at start and in the status command; what it stops is said in
plain words. Nothing else of the league depends on them."""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from bot.components.places import ChannelCheck
from bot.models import NightSetup, ServerSetup

EVENTS, THREADS, ROLES = "events", "threads", "roles"
# discord.py's names of the permissions these use (the invite asks for them all).
ASKED = ("manage_events", "create_public_threads", "send_messages_in_threads", "manage_roles")
# Each check in plain words, and what stops working while it fails.
IN_WORDS = {
    EVENTS: "League nights in the server's Events",
    THREADS: "A thread per group",
    ROLES: "Division roles",
}
STOPS = {
    EVENTS: "league nights do not show in the server's Events",
    THREADS: "groups get no thread on league night",
    ROLES: "players get no Division A or Division B role",
}
LACKS = {
    EVENTS: "the bot's role lacks Manage Events (Server Settings → Roles)",
    THREADS: "the bot's role lacks Create Public Threads or Send Messages in Threads in "
    "the announcements channel",
    ROLES: "the bot's role lacks Manage Roles (Server Settings → Roles)",
}


def asked(night: NightSetup) -> list[str]:
    """What the night setup asks of the bot in Discord."""
    return [name for name, on in ((EVENTS, night.venue is not None),
            (THREADS, night.group_threads), (ROLES, night.division_roles)) if on]  # fmt: skip


def run_night_checks(
    client: discord.Client, setup: ServerSetup, night: NightSetup | None
) -> dict[str, ChannelCheck]:
    """One result per feature asked for (none when nothing is asked, or when the
    server is not in the gateway's cache: `league-bot check` logs in over REST only)."""
    guild = client.get_guild(setup.guild_id)
    if night is None or guild is None:  # nothing asked, or no gateway cache to tell
        return {}
    found = {}
    for name in asked(night):
        may = _may(name, guild, guild.me, setup)
        problem = None if may else LACKS[name]
        found[name] = ChannelCheck(name, setup.guild_id, may, problem, datetime.now(UTC),
                                   IN_WORDS[name])  # fmt: skip
    return found


def _may(name: str, guild: discord.Guild, me: discord.Member, setup: ServerSetup) -> bool:
    server = me.guild_permissions
    if name == EVENTS:
        return server.manage_events or server.create_events
    if name == ROLES:
        return server.manage_roles
    channel = guild.get_channel(setup.announcements_channel_id)
    if channel is None:
        return False
    here = channel.permissions_for(me)
    return here.create_public_threads and here.send_messages_in_threads


def line(check: ChannelCheck, refused: str | None = None) -> str:
    """A check for the commissioner: what, and what stops while it fails
    (`refused`: why Discord refused the bot's last try, when the check passed)."""
    if check.ok and refused:
        return f"{IN_WORDS[check.name]}: {refused}. Until then, {STOPS[check.name]}."
    if check.ok:
        return f"{IN_WORDS[check.name]}: ok"
    return f"{IN_WORDS[check.name]}: {check.problem}. Until then, {STOPS[check.name]}."
