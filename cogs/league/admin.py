"""/league admin …: backups, the season's export, registering the
slash commands, the bot's status and sending again what Discord refused (the
outbox, bot/delivery)."""

from __future__ import annotations

import asyncio
import io
from datetime import datetime, timedelta
from importlib import metadata
from typing import TYPE_CHECKING

import discord
from discord import Interaction, app_commands

from bot.components.choices import season_choices
from bot.components.interactions import deliver, now_of
from bot.components.night_checks import EVENTS, ROLES, line, run_night_checks
from bot.services import backup, night_setup, outbox, photos
from bot.ui import delivery
from bot.ui.replies import respond
from cogs.exports import exports
from cogs.exports.exports_text import (
    csv_bytes,
    export_note,
    file_stem,
    photos_size,
    too_big,
    zip_bytes,
)
from cogs.league.group import LeagueCommands

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

FILE_LIMIT = 10 * 1024 * 1024  # what a bot may attach in a server without boosts
CHANNELS = ("announcements", "approvals")  # the configured channels, as the outbox names them


COOLDOWN = timedelta(minutes=10)
# One database file and one set of commands serve every league on this bot: with
# several leagues, only the bot's operator (the application's owner) acts on them.
OPERATOR_BACKUP = (
    "This bot keeps several leagues in one file, so only the person who runs the bot "
    "can back it up. It is backed up every day by itself."
)
OPERATOR_SYNC = (
    "The commands are shared by every league on this bot, so only the person who runs "
    "the bot can register them again."
)


async def _operator_or_only_league(bot: LeagueClient, interaction: Interaction) -> bool:
    """Whether the user may act on what every league on this bot shares: anyone
    who got here when the bot serves one league, else only the bot's owner."""
    return len(bot.setups) <= 1 or await bot.is_owner(interaction.user)


def _too_soon(last: dict[tuple[str, int], datetime], key: tuple[str, int], now: datetime) -> int:
    """Minutes to wait before doing it again (0: now, and it is noted as done now)."""
    before = last.get(key)
    if before is not None and now - before < COOLDOWN:
        return max(1, -(-int((COOLDOWN - (now - before)).total_seconds()) // 60))
    last[key] = now
    return 0


def version() -> str:
    try:
        return metadata.version("league-bot")
    except metadata.PackageNotFoundError:
        return "(not installed)"


class AdminCommands(LeagueCommands):
    """Backups and registering the slash commands."""

    admin = app_commands.Group(name="admin", description="Backups, sync, status, resend")

    @admin.command(name="backup")
    async def backup(self, interaction: Interaction) -> None:
        """Back up the league's database."""
        bot, guild = await self._ack(interaction)
        if not await _operator_or_only_league(bot, interaction):
            await respond(interaction, OPERATOR_BACKUP)
            return
        # One file holds every server's league: one server's commissioner may not
        # fill the host's disk with copies of it.
        wait = _too_soon(bot.recent, ("backup", guild), now_of(interaction))
        if wait:
            await respond(interaction, f"A backup was made a moment ago; the next can be made "
                                       f"in {wait} minute(s).")  # fmt: skip
            return
        folder = bot.settings.backup_dir
        await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
        path = await backup.backup(bot.db, folder, now=now_of(interaction))
        await respond(interaction, f"Backed up to {path.name}.")

    @admin.command(name="export")
    @app_commands.describe(season="Default: the running one", final="Final standings + IFPA only")
    @app_commands.autocomplete(season=season_choices)
    async def export(
        self,
        interaction: Interaction,
        season: app_commands.Range[str, 1, 100] | None = None,
        final: bool = False,
    ) -> None:
        """The season as CSV files."""
        bot, guild = await self._ack(interaction)
        done = await exports.export_season(bot.db, guild, season)
        stem = file_stem(done)
        left_out = False
        if final:
            data, name = csv_bytes(done.table("final_standings")), f"{stem}-final-standings.csv"
        else:
            data, name = zip_bytes(done), f"{stem}.zip"
            left_out = len(data) + photos_size(done) > FILE_LIMIT  # the photos as well?
            if done.photos and not left_out:
                data = zip_bytes(done, await photos.photo_files(bot.db, done))
        if len(data) > FILE_LIMIT:
            await respond(interaction, too_big(len(data), FILE_LIMIT))
            return
        file = discord.File(io.BytesIO(data), filename=name)
        note = export_note(done, final=final, photos_left_out=left_out)
        await respond(interaction, note, file=file)

    @admin.command(name="sync")
    async def sync(self, interaction: Interaction) -> None:
        """Register the slash commands with Discord again."""
        bot, _ = await self._ack(interaction)
        if not await _operator_or_only_league(bot, interaction):
            await respond(interaction, OPERATOR_SYNC)
            return
        wait = _too_soon(bot.recent, ("sync", 0), now_of(interaction))  # every server's at once
        if wait:
            await respond(interaction, f"The commands were registered a moment ago; again in "
                                       f"{wait} minute(s).")  # fmt: skip
            return
        count = await bot.sync_guild_commands()
        await respond(interaction, f"Synced {count} commands.")

    @admin.command(name="resend")
    @app_commands.describe(week="Also re-post this week's results")
    async def resend(
        self, interaction: Interaction, week: app_commands.Range[int, 1, 52] | None = None
    ) -> None:
        """Re-send refused posts."""
        bot, guild = await self._ack(interaction)
        done = await outbox.resend(bot.db, guild, week=week, now=now_of(interaction))
        deliver(interaction)
        await respond(interaction, delivery.resent(done))

    @admin.command(name="status")
    async def status(self, interaction: Interaction) -> None:
        """Bot, database, posts, channels."""
        bot, guild = await self._ack(interaction)
        report = await outbox.status(bot.db, guild)
        scheduler = bot.scheduler_of(guild)
        jobs = scheduler.jobs() if scheduler is not None else {}
        checks = getattr(bot, "channel_checks", {}).get(guild, {})
        text = delivery.status(
            version=version(),
            database=bot.settings.database_path.name,  # the host's folders are its operator's
            delivery=report,
            next_posts=[
                (getattr(job, "name", key), getattr(job, "next_run_time", None))
                for key, job in jobs.items()
            ],
            checks={
                name: f"{'ok' if c.ok else c.problem}{f' ({c.found})' if c.ok and c.found else ''}"
                f", checked <t:{int(c.checked_at.timestamp())}:R>"
                for name, c in checks.items()
            }
            or dict.fromkeys(CHANNELS),
        )
        night = await night_setup.shown(bot.db, guild)
        setup = bot.setup_of(guild)
        found = run_night_checks(bot, setup, night.setup if night else None) if setup else {}
        refused = {EVENTS: bot.night_events, ROLES: bot.division_roles}
        lines = [line(c, getattr(refused.get(c.name), "refused", {}).get(guild))
                 for c in found.values()]  # fmt: skip
        await respond(interaction, delivery.with_nights(text, night, lines))
