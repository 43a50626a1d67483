"""Start-up checks: for each server set up (/setup, or an older .env's ids),
the places its league names in Discord, checked (`bot/components/places.py`),
logged, and told to its commissioner when something is wrong."""

from __future__ import annotations

import logging

import discord

from bot.components.night_checks import IN_WORDS as NIGHT_IN_WORDS
from bot.components.night_checks import STOPS as NIGHT_STOPS
from bot.components.night_checks import run_night_checks
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
from bot.database import Database
from bot.models import ServerSetup
from bot.services import night_setup, server_setup

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


# Each place in plain words, and what stops working while it is wrong.
IN_WORDS = {
    GUILD: "The league's server",
    ANNOUNCEMENTS: "The announcements channel",
    APPROVALS: "The approvals channel",
    ROLE: "The commissioner role",
    **NIGHT_IN_WORDS,
}
STOPS = {
    GUILD: "nothing of the league can be posted",
    ANNOUNCEMENTS: "the groupings, reminders, results and standings are not posted",
    APPROVALS: "the scorecards are not posted, so no score can be approved",
    ROLE: "nobody can use the commissioner commands",
    **NIGHT_STOPS,
}


def alert_text(failed: list[ChannelCheck]) -> str:
    """The commissioner's alert: each problem in plain words (no setting names,
    no ids) and what it stops, then how to fix it."""
    lines = [f"- {IN_WORDS[c.name]}: {c.problem}. Until that is fixed, {STOPS[c.name]}."
             for c in failed]  # fmt: skip
    return "\n".join([
        "Heads-up from the league bot: something in this server stops it doing its job.",
        *lines,
        "Fix it in the server's settings, or choose other channels or another role with "
        "/setup. The bot checks again when it restarts.",
        *(["The league's events, threads and division roles can also be turned off with "
           "/setup-night."] if any(c.name in NIGHT_IN_WORDS for c in failed) else []),
    ])  # fmt: skip


async def alert_commissioner(
    client: discord.Client, checks: dict[str, ChannelCheck], text: str
) -> bool:
    """Tell the commissioner where only they read it: a post in the approvals
    channel (mentioning the commissioner role, if it exists), or, when that is
    the broken one (or refuses the post), a DM to the server's owner. False
    when neither could take it.

    Every start-up alert goes through here."""
    role = checks.get(ROLE)
    approvals = checks.get(APPROVALS)
    if approvals is not None and approvals.ok:
        mention = discord.AllowedMentions.none()
        posted = text
        if role is not None and role.ok:
            posted = f"<@&{role.id}> {text}"
            mention = discord.AllowedMentions(
                everyone=False, users=False, roles=[discord.Object(role.id)], replied_user=False
            )
        try:
            channel = client.get_channel(approvals.id) or await client.fetch_channel(approvals.id)
            await channel.send(posted[:2000], allowed_mentions=mention)  # type: ignore[union-attr]  # ok: a text channel
            return True
        except (discord.HTTPException, *UNANSWERED) as error:
            log.warning("could not post the start-up alert in the approvals channel: %s",
                        short(error))  # fmt: skip
    return await _tell_owner(client, checks, text)


async def _tell_owner(client: discord.Client, checks: dict[str, ChannelCheck], text: str) -> bool:
    server = checks.get(GUILD)
    guild = client.get_guild(server.id) if server is not None else None
    try:
        if guild is None and server is not None:
            guild = await client.fetch_guild(server.id)
        owner = guild.owner_id if guild is not None else None
        if owner is None:
            raise LookupError("the server's owner is not known")
        dm = await client.create_dm(discord.Object(owner))
        await dm.send(text[:2000])
        return True
    except (discord.HTTPException, LookupError, *UNANSWERED) as error:
        log.warning("the start-up alert could not be sent to the server's owner either (%s); "
                    "the log above has it", short(error))  # fmt: skip
        return False


async def at_start(
    client: discord.Client, setups: list[ServerSetup], db: Database | None = None
) -> dict[int, dict[str, ChannelCheck]]:
    """The checks once per process start, after the first READY, for each league
    set up: one log line each, an alert to its commissioner when something is
    wrong, but not again at the next start for the same problems (remembered in
    `db`). A bot whose one league is named by `.env` only, and is not in that
    server, stops (StartupError, exit 2): the setting must be fixed. A league
    set up with /setup whose server removed the bot is logged, and the bot
    goes on (other servers may still be set up)."""
    from bot.lifecycle import EXIT_FAILED, EXIT_SETTINGS, StartupError

    found: dict[int, dict[str, ChannelCheck]] = {}
    for setup in setups:
        checks = await run_checks(client, setup)
        found[setup.guild_id] = checks
        guild = checks[GUILD]
        if not guild.ok and len(setups) == 1 and setup.set_by is None:  # named by .env only:
            # the one line league-bot prints as it stops (a setting to fix)
            raise StartupError(guild.line(), EXIT_SETTINGS if guild.answered else EXIT_FAILED)
        log_results(checks)
        failed = problems(checks)
        if db is not None and guild.ok:  # what /setup-night asks of the bot, if anything
            night = await night_setup.setup_of(db, setup.guild_id)
            asked = run_night_checks(client, setup, night)
            log_results(asked)
            failed += problems(asked)
        text = alert_text(failed) if failed and guild.ok else None
        if db is not None and not await server_setup.alert_is_new(db, setup.guild_id, text):
            if text is not None:
                log.info("the commissioner of server %d was told of these problems before",
                         setup.guild_id)  # fmt: skip
        elif text is not None and await alert_commissioner(client, checks, text) and db:
            await server_setup.alert_told(db, setup.guild_id, text)
        if not failed:
            log.info("start-up checks passed for server %d", setup.guild_id)
    if not setups:
        log.info("no server is set up yet: a server administrator runs /setup there")
    return found
