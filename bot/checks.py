"""Start-up checks: for each server set up (/setup, or an older .env's ids),
the places its league names in Discord, checked (`bot/components/places.py`),
logged, and told to its commissioner when something is wrong."""

from __future__ import annotations

import logging

import discord

from bot.components.places import (
    ANNOUNCEMENTS,
    APPROVALS,
    GUILD,
    NEEDED,
    ROLE,
    UNANSWERED,
    ChannelCheck,
    problems,
    run_checks,
    short,
)
from bot.config import Settings
from bot.models import ServerSetup

__all__ = [
    "ANNOUNCEMENTS", "APPROVALS", "GUILD", "NEEDED", "ROLE", "ChannelCheck", "alert_commissioner",
    "alert_text", "at_start", "legacy_setup", "log_results", "problems", "run_checks", "short",
]  # fmt: skip

log = logging.getLogger(__name__)


def legacy_setup(settings: Settings) -> ServerSetup | None:
    """An older `.env`'s league places (all four ids), to be stored for its server once."""
    ids = (settings.guild_id, settings.announcement_channel_id, settings.approvals_channel_id,
           settings.commissioner_role_id)  # fmt: skip
    if any(i is None for i in ids):
        return None
    guild, announcements, approvals, role = (int(i or 0) for i in ids)
    return ServerSetup(guild, announcements, approvals, role, None, "from .env")


def log_results(checks: dict[str, ChannelCheck]) -> None:
    """One log line per check: INFO when it passed, ERROR naming the problem when not."""
    for check in checks.values():
        if check.ok:
            log.info("start-up check %s", check.line())
        else:
            log.error("start-up check %s", check.line())


def alert_text(failed: list[ChannelCheck]) -> str:
    listed = "\n".join(f"- {c.line()}" for c in failed)
    return (
        "Heads-up from the league bot's start-up check: scheduled posts may fail until "
        f"this is fixed in the server's settings (the bot checks again when it restarts).\n{listed}"
    )


async def alert_commissioner(
    client: discord.Client, checks: dict[str, ChannelCheck], text: str
) -> bool:
    """Tell the commissioner: one post in the approvals channel, or in the
    announcement channel when that is the one that works; mentions the
    commissioner role if it exists. False when no channel could take it.

    Every start-up alert goes through here (redirect it to the outbox)."""
    role = checks.get(ROLE)
    mention = discord.AllowedMentions.none()
    if role is not None and role.ok:
        text = f"<@&{role.id}> {text}"
        mention = discord.AllowedMentions(
            everyone=False, users=False, roles=[discord.Object(role.id)], replied_user=False
        )
    for name in (APPROVALS, ANNOUNCEMENTS):
        check = checks.get(name)
        if check is None or not check.ok:
            continue
        try:
            channel = client.get_channel(check.id) or await client.fetch_channel(check.id)
            await channel.send(text[:2000], allowed_mentions=mention)  # type: ignore[union-attr]  # ok: a text channel
        except (discord.HTTPException, *UNANSWERED) as error:
            log.warning("could not post the start-up alert in %s: %s", name, short(error))
            continue
        return True
    log.warning("the start-up alert could not be posted anywhere; the log above has it")
    return False


async def at_start(
    client: discord.Client, setups: list[ServerSetup]
) -> dict[int, dict[str, ChannelCheck]]:
    """The checks once per process start, after the first READY, for each league
    set up: one log line each, an alert to its commissioner when something is
    wrong. A bot with one league, not in that league's server, stops
    (StartupError, exit 2): nothing it could do there would reach the league;
    with several, the others go on."""
    from bot.lifecycle import EXIT_FAILED, EXIT_SETTINGS, StartupError

    found: dict[int, dict[str, ChannelCheck]] = {}
    for setup in setups:
        checks = await run_checks(client, setup)
        found[setup.guild_id] = checks
        guild = checks[GUILD]
        if not guild.ok and len(setups) == 1:  # the one line league-bot prints as it stops
            raise StartupError(guild.line(), EXIT_SETTINGS if guild.answered else EXIT_FAILED)
        log_results(checks)
        failed = problems(checks)
        if failed and guild.ok:
            await alert_commissioner(client, checks, alert_text(failed))
        elif not failed:
            log.info("start-up checks passed for server %d", setup.guild_id)
    if not setups:
        log.info("no server is set up yet: a server administrator runs /setup there")
    return found
