"""The Discord client: resources opened in `setup_hook`, closed in `close()`."""

from __future__ import annotations

import ast
import asyncio
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypedDict
from zoneinfo import ZoneInfo

import aiohttp
import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from discord import app_commands
from discord.ext import commands

from bot.checks import ChannelCheck, legacy_setup
from bot.config import Settings
from bot.database import Database
from bot.delivery import Sender
from bot.delivery.division_roles import DivisionRoles
from bot.delivery.night_events import NightEvents
from bot.keeping import daily_name, prune
from bot.league_client import LeagueClient, reschedules
from bot.lifecycle import Patience, bound_requests
from bot.migrate import migrate
from bot.models import ServerSetup
from bot.scheduler import Clock, LeagueScheduler
from bot.services import server_setup
from bot.ui.replies import LeagueTree

log = logging.getLogger(__name__)


def extensions() -> list[str]:
    """The cogs to load, found rather than listed: every module under `cogs/` (a
    feature's package included) with an `async def setup(bot)` of its own; a
    private `_module` never. Read, not imported, so a module that fails to import
    fails in `load_extension`, logged, and the others still load."""
    import cogs

    root = Path(cogs.__file__).resolve().parent
    found = []
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":  # a package's own setup(), as python-discord's
            parts = parts[:-1]
        if any(part.startswith("_") for part in parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.AsyncFunctionDef) and n.name == "setup" for n in tree.body):
            found.append(".".join(("cogs", *parts)))
    return sorted(found)


CLOSE_WITHIN = 3.0  # seconds for the gateway and HTTP session to close at a stop
# Answers that carry a file (the standings picture) sent at once. aiohttp copies a
# file into each request as it is made, so 400 /standings at once held 400 copies
# of a 110 kB picture (45 MB); the others wait their turn, holding the one picture.
UPLOADS_AT_ONCE = 4
CONNECTIONS = 100  # to Discord's REST API at once (aiohttp's default; discord.py sets none)


def league_intents() -> discord.Intents:
    """Only the guilds intent: channels and roles. Everything the bot acts on
    comes as an interaction, so it neither needs nor parses the server's
    messages, typing or presence (a busy server's chatter would cost it time)."""
    return discord.Intents(guilds=True)


# After these commands what a league shows in its server (events, roles) is kept
# in line: they close a season, or play or correct its playoff night.
KEEPS = ("season ", "playoffs ")


class _SchedulerClock(TypedDict, total=False):
    """The scheduler's clock when the bot was given one (else the scheduler's own)."""

    clock: Clock


class LeagueBot(LeagueClient):
    """The league's bot. The guilds intent only; mentions are off unless a
    message really must ping."""

    outbox: Sender

    def __init__(
        self,
        settings: Settings,
        *,
        sync_commands: bool = False,
        clock: Clock | None = None,
        **options: Any,
    ) -> None:
        """`clock` drives the scheduled posts (a stand-in's clock in tests and the
        demo); `options` go to discord.py's client (e.g. guild_ready_timeout)."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=league_intents(),
            tree_cls=LeagueTree,
            allowed_contexts=app_commands.AppCommandContext(guild=True),  # never in DMs
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,
        )
        self.clock = clock
        self.settings = settings
        self.sync_commands = sync_commands
        self._db: Database | None = None
        self.schedulers: dict[int, LeagueScheduler] = {}
        self.setups: dict[int, ServerSetup] = {}
        self.housekeeping: AsyncIOScheduler | None = None  # the daily backup
        self.failed_cogs: list[str] = []
        self.outbox = Sender(self)  # delivers every message the bot owes (bot/delivery)
        # Each league's nights in its server's Events, and its division roles.
        self.night_events = NightEvents(self, **({"clock": clock} if clock else {}))
        self.division_roles = DivisionRoles(self, **({"clock": clock} if clock else {}))
        self.uploads = asyncio.Semaphore(UPLOADS_AT_ONCE)  # answers with a file, at once
        self.recent: dict[tuple[str, int], datetime] = {}  # host-wide commands, when last
        # Each server's last start-up check of the places its league names in
        # Discord (bot.checks), shown by /league admin status.
        self.channel_checks: dict[int, dict[str, ChannelCheck]] = {}
        bound_requests(self.http, Patience().timeout())  # seconds, not aiohttp's 300

    @property
    def db(self) -> Database:
        if self._db is None:
            raise RuntimeError("the database is not open yet")
        return self._db

    async def login(self, token: str) -> None:
        """As discord.py's, over at most `CONNECTIONS` connections to Discord's API
        (discord.py's own has no limit: a burst of 2,000 interactions opened 2,000
        sockets, each with its buffers and, on Discord, a TLS handshake). The
        others wait for a connection, which is free again within milliseconds."""
        if self.http.connector is discord.utils.MISSING:  # a retried login sets it again
            self.http.connector = aiohttp.TCPConnector(limit=CONNECTIONS)
        await super().login(token)

    async def setup_hook(self) -> None:
        path = self.settings.database_path
        version = await migrate(path)
        self._db = await Database.open(path)
        log.info("database %s at schema version %d", path, version)
        legacy = legacy_setup(self.settings)
        await server_setup.move_from_env(self.db, legacy)
        if self.sync_commands and legacy is not None:
            await self._clear_old_guild_commands(legacy.guild_id)
        self.setups = await server_setup.every(self.db)
        self.outbox.start()
        for name in extensions():
            try:
                await self.load_extension(name)
            except Exception:
                self.failed_cogs.append(name)
                log.exception("cog %s failed to load; the other commands still work", name)
        if self.sync_commands:
            await self.sync_guild_commands()
        for setup in self.setups.values():
            await self.league_set_up(setup)
        if not self.setups:
            log.info("no server is set up yet: a server administrator runs /setup")
        self._start_daily_backup()

    def _start_daily_backup(self) -> None:
        """A copy of the database every day at BACKUP_HOUR (LEAGUE_TIME_ZONE), the
        BACKUP_KEEP newest kept (0: none is made)."""
        settings = self.settings
        if settings.backup_keep <= 0:
            return
        zone = ZoneInfo(settings.time_zone)
        self.housekeeping = AsyncIOScheduler(timezone=zone)
        self.housekeeping.add_job(
            self.daily_backup, CronTrigger(hour=settings.backup_hour, minute=17, timezone=zone),
            id="daily-backup", coalesce=True, misfire_grace_time=3600, max_instances=1,
        )  # fmt: skip
        self.housekeeping.start()

    async def daily_backup(self) -> Path | None:
        """The day's backup into BACKUP_DIR (made if missing), then the oldest
        past BACKUP_KEEP removed. A failure is logged; the bot goes on."""
        folder = self.settings.backup_dir
        try:
            await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
            now = datetime.now(UTC)
            copy = await self.db.backup(folder / daily_name(now))
            gone = await asyncio.to_thread(prune, folder, self.settings.backup_keep)
        except Exception:
            log.exception("the daily backup into %s failed", folder)
            return None
        log.info("daily backup %s (%d old one(s) removed)", copy, len(gone))
        return copy

    async def _clear_old_guild_commands(self, guild_id: int) -> None:
        """A bot set up by .env registered its commands in its one server; they are
        registered for every server now, so the server's own copies go (else each
        command shows twice there), whenever the commands are registered (`--sync`)
        while the .env still names that server."""
        server = discord.Object(guild_id)
        self.tree.clear_commands(guild=server)
        try:
            await self.tree.sync(guild=server)
        except (discord.HTTPException, aiohttp.ClientError,
                app_commands.MissingApplicationID) as error:  # fmt: skip
            log.warning("could not clear server %d's own copies of the commands: %s",
                        guild_id, error)  # fmt: skip

    async def league_set_up(self, setup: ServerSetup) -> None:
        """A server set up (or its places changed): kept, and its league's posts
        scheduled on its own clock (one scheduler per league)."""
        self.setups[setup.guild_id] = setup
        if setup.guild_id in self.schedulers:
            await self.schedulers[setup.guild_id].rebuild()
            return
        extra: _SchedulerClock = {"clock": self.clock} if self.clock is not None else {}
        guild_id = setup.guild_id
        scheduler = LeagueScheduler(
            self.db, guild_id, self.outbox.wake, keep=lambda: self.keep(guild_id), **extra
        )
        self.schedulers[setup.guild_id] = scheduler
        await scheduler.start()

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: its league's posts stop here (its
        data is kept; invited back, the same setup serves it again)."""
        scheduler = self.schedulers.pop(guild.id, None)
        if scheduler is not None:
            scheduler.shutdown()
        if self.setups.pop(guild.id, None) is not None:
            log.warning("removed from server %d (%s): its league's posts stop; its data is kept",
                        guild.id, guild.name)  # fmt: skip

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Invited to a server: its league again if it had one, else it waits for /setup."""
        setup = await server_setup.of(self.db, guild.id)
        if setup is not None:
            await self.league_set_up(setup)
            log.info("back in server %d (%s): its league's posts start again", guild.id,
                     guild.name)  # fmt: skip
        else:
            log.info("joined server %d (%s): a server administrator runs /setup there",
                     guild.id, guild.name)  # fmt: skip

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: object
    ) -> None:
        """After a command: rebuild the schedule when its basis changed; after a
        /league command, post what it made owed (a season started or a time
        changed after a post's time, last week finalized, players added). The
        outbox delivers them; it tells the commissioner of a post refused."""
        name = getattr(command, "qualified_name", "")
        scheduler = self.scheduler_of(interaction.guild_id)
        if scheduler is not None and reschedules(command):
            await scheduler.rebuild()
        if scheduler is not None and name.startswith("league "):
            await scheduler.catch_up()  # and what the league shows in its server (`keep`)
        elif scheduler is not None and (reschedules(command) or name.startswith(KEEPS)):
            self.keep(interaction.guild_id)

    def keep(self, guild_id: int | None) -> None:
        """What the league shows elsewhere in its server, brought in line soon."""
        self.night_events.soon(guild_id)
        self.division_roles.soon(guild_id)

    async def sync_guild_commands(self) -> int:
        """Register the slash commands with Discord, once for every server (they
        are guild-only: never offered in DMs)."""
        synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))
        return len(synced)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))
        for guild_id in self.setups:  # the servers are known now: their events and roles
            self.keep(guild_id)

    async def close(self) -> None:
        """Stop in reverse order: the scheduler, the gateway and HTTP, the database."""
        for scheduler in self.schedulers.values():
            scheduler.shutdown()
        if self.housekeeping is not None and self.housekeeping.running:
            self.housekeeping.shutdown(wait=False)
        await self.night_events.stop()  # kept again at the next start
        await self.division_roles.stop()
        await self.outbox.stop()  # what is not sent stays owed in the outbox
        try:  # a gateway that never answers our close frame must not keep the database open
            async with asyncio.timeout(CLOSE_WITHIN):  # not wait_for: see bot.delivery
                await asyncio.shield(super().close())
        except TimeoutError:
            log.warning("Discord's connection did not close within %g s; going on", CLOSE_WITHIN)
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()
        log.info("closed")


class ShardedLeagueBot(LeagueBot, commands.AutoShardedBot):
    """The league's bot over several gateway connections (shards), as Discord
    requires past 2,500 servers and recommends long before: `league-bot run
    --sharded` (discord.py's AutoShardedBot asks Discord how many)."""
