"""The `league-bot` console script.

league-bot run [--sync]   start the Discord bot (settings from the environment / .env)
league-bot check          check the server, channels and role the settings name; exit 0 or 1
league-bot example        print a worked league night scored by the rules
league-bot restore BACKUP --database FILE [--other-server]
                          put a league's backup back while the bot is stopped
league-bot export --database FILE --out DIR [--season NAME]
                          write a season's CSV files and their zip (no Discord needed)

Exit codes: 0 done (or stopped by SIGTERM/SIGINT), 1 failed (Discord unreachable,
the database), 2 a setting must be fixed first (a missing setting, a refused token,
a server the bot is not in, another bot already running on the database).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import TYPE_CHECKING

from bot.config import ConfigError, Settings, load_settings
from bot.database_errors import DatabaseError
from bot.database_files import AlreadyRunning, OneBot
from bot.endpoints import point_at, use_gateway_of
from bot.lifecycle import (
    EXIT_SETTINGS,
    NoVoiceWarnings,
    OneLineNetworkErrors,
    Patience,
    StartupError,
    Stop,
)
from bot.migrate import migrate
from bot.models import ServerSetup

if TYPE_CHECKING:
    pass

log = logging.getLogger("bot")


ENV_FILE = "settings file (default: .env; relative paths in it are from its folder)"


def version() -> str:
    from importlib import metadata

    try:
        return metadata.version("league-bot")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="league-bot", description="The pinball league's bot.")
    parser.add_argument("--version", action="version", version=f"league-bot {version()}")
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("run", help="start the Discord bot")
    run.add_argument("--sync", action="store_true", help="register the slash commands first")
    run.add_argument("--env-file", help=ENV_FILE)
    run.add_argument(
        "--sharded", action="store_true", help="several gateway connections (thousands of servers)"
    )
    check = commands.add_parser(
        "check", help="check each server's setup: its channels and role (exit 0 or 1)"
    )
    check.add_argument("--env-file", help=ENV_FILE)
    backup = commands.add_parser(
        "backup", help="copy the database into BACKUP_DIR now (consistent; the bot may run)"
    )
    backup.add_argument("--env-file", help=ENV_FILE)
    health = commands.add_parser(
        "health", help="exit 0 when a bot runs on the database and it reads well (containers)"
    )
    health.add_argument("--env-file", help=ENV_FILE)
    invite = commands.add_parser(
        "invite", help="print the link that adds the bot to a server, with every permission"
    )
    invite.add_argument(
        "--application-id", type=int, required=True, help="the application's id (developer portal)"
    )
    commands.add_parser("example", help="print a worked league night scored by the rules")
    demo = commands.add_parser(
        "demo", help="play a league night on a loopback Discord stand-in (no account needed)"
    )
    demo.add_argument("--folder", default="demo", help="where the demo's database is kept")
    demo.add_argument(
        "--playoffs", action="store_true", help="then play the season's playoff night"
    )
    add_restore_command(commands)
    add_export_command(commands)
    return parser


def add_export_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = commands.add_parser(
        "export",
        help="write a season's CSV files and their zip (no Discord needed)",
        description="Read the league's database (read-only; the bot may be running) and write "
        "one CSV file per table and a zip of them into DIR, as /league admin export does.",
    )
    export.add_argument("--database", required=True, help="the league's database (DATABASE_PATH)")
    export.add_argument("--out", required=True, help="the folder to write (made if missing)")
    export.add_argument("--season", help="a season by name (default: the running one)")
    export.add_argument("--guild", type=int, help="the Discord server id, if the file has several")


def export_command(database: str, out: str, season: str | None, guild: int | None) -> int:
    """`league-bot export`: one line saying what was written, or why not (exit 1)."""
    from pathlib import Path

    from bot.migrate import load_migrations
    from bot.services.errors import LeagueError
    from bot.services.photos import photos_of_file
    from cogs.exports.exports import export_of_file
    from cogs.exports.exports_text import FolderExport, written_note

    migrations = load_migrations()
    latest = migrations[-1].version if migrations else 0

    async def write() -> tuple[str, FolderExport]:
        done = await export_of_file(database, latest_version=latest, season=season,
                                    guild_id=guild)  # fmt: skip
        with FolderExport(done, Path(out)) as folder:  # photos one at a time
            async for name, data in photos_of_file(database, latest_version=latest, export=done):
                folder.add_photo(name, data)
        return done.season, folder

    try:
        name, folder = asyncio.run(write())
    except (DatabaseError, LeagueError, OSError) as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return 1
    print(written_note(name, folder, out))
    return 0


def add_restore_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    restore = commands.add_parser(
        "restore",
        help="put a backup back as the league's database (the bot must be stopped)",
        description="Check that BACKUP is a league database this bot made (integrity, schema, "
        "its record of migrations, a league in it), keep the current FILE as "
        "FILE.before-restore-<UTC time>, and copy BACKUP into FILE with SQLite's backup API.",
    )
    restore.add_argument("backup", help="the backup, e.g. backups/league-20260311-230000.sqlite3")
    restore.add_argument("--database", required=True, help="the league's database (DATABASE_PATH)")
    restore.add_argument(
        "--other-server",
        action="store_true",
        help="put back a backup of another Discord server's league than FILE holds",
    )


def restore_command(backup: str, database: str, *, other_server: bool = False) -> int:
    """`league-bot restore`: one line saying what was done, or why not (exit 1)."""
    from datetime import UTC, datetime

    from bot.restore import restore

    try:
        done = restore(backup, database, now=datetime.now(UTC), other_server=other_server)
    except (DatabaseError, OSError) as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return 1
    before = f"; the previous file is kept as {done.kept}" if done.kept is not None else ""
    print(
        f"Restored {database} from {backup}: {done.backup.named()}, schema version "
        f"{done.backup.version}{before}. Start the bot again."
    )
    return 0


async def run_bot(settings: Settings, *, sync: bool, sharded: bool = False) -> None:
    """Run until SIGTERM or SIGINT (then stop cleanly) or a StartupError."""
    from bot import checks, lifecycle
    from bot.client import LeagueBot, ShardedLeagueBot

    held = OneBot.hold(settings.database_path)  # before anything else: one bot only
    stop = Stop()
    stop.install()
    try:
        from datetime import UTC, datetime

        from bot import keeping

        empty = keeping.empty_beside_backups(settings.database_path, settings.backup_dir)
        if empty is not None:
            log.error(empty)
        keeping.copy_before_migrating(settings.database_path, settings.backup_dir,
                                      now=datetime.now(UTC))  # fmt: skip
        await migrate(settings.database_path)  # a bad database stops us before we log in
        if stop.is_set():
            return
        if settings.api_base:
            point_at(settings.api_base)
        kind = ShardedLeagueBot if sharded else LeagueBot
        async with kind(settings, sync_commands=sync) as client:

            async def at_ready() -> None:
                setups = list(client.setups.values())
                client.channel_checks = await checks.at_start(client, setups, client.db)

            async def after_login() -> None:
                await use_gateway_of(client)

            await lifecycle.serve(
                client,
                settings.token.reveal(),
                stop=stop,
                at_ready=at_ready,
                after_login=after_login if settings.api_base else None,
            )
    finally:
        stop.uninstall()
        if held is not None:
            held.release()


async def check_discord(settings: Settings, patience: Patience | None = None) -> int:
    """`league-bot check`: log in over REST only, run the start-up checks, print
    one line per check; 0 when all passed, 1 otherwise."""
    import discord

    from bot import checks, lifecycle

    patience = patience or Patience()
    if settings.api_base:
        point_at(settings.api_base)
    client = discord.Client(intents=discord.Intents(guilds=True))  # REST only: never connects
    lifecycle.bound_requests(client.http, patience.timeout())
    database_ok, database_line = _database_line(settings)
    try:
        async with client, asyncio.timeout(patience.check):
            await lifecycle.log_in(client, settings.token.reveal(), Patience(attempts=1))
            commands_ok, commands_line = await _commands_line(client)
            results = []
            for setup in await _setups(settings):
                results += list((await checks.run_checks(client, setup)).values())
    except StartupError as error:
        print(error)
        return 1
    except TimeoutError:
        print(f"Discord did not answer the checks within {patience.check:g} s")
        return 1
    print(database_line)
    print(commands_line)
    if not results:
        print("no server is set up yet: after `league-bot run`, a server administrator runs "
              "/setup in the league's server")  # fmt: skip
        return 1
    for check in results:
        print(check.line())
    failed = sum(not c.ok for c in results) + (not database_ok) + (not commands_ok)
    total = len(results) + 2
    print(f"{failed} of {total} checks failed" if failed else "all checks passed")
    return 1 if failed else 0


def _database_line(settings: Settings) -> tuple[bool, str]:
    """The database file: there, a SQLite file that passes the quick check."""
    import sqlite3

    path = settings.database_path
    if not path.is_file():
        return False, f"DATABASE_PATH {path}: there is no database (league-bot run makes one)"
    try:
        with sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True) as conn:
            result = conn.execute("PRAGMA quick_check").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as error:
        return False, f"DATABASE_PATH {path}: cannot be read ({error})"
    if result != "ok":
        return False, f"DATABASE_PATH {path}: fails SQLite's quick check ({result})"
    return True, f"DATABASE_PATH {path}: ok (schema version {version})"


async def _commands_line(client: object) -> tuple[bool, str]:
    """The slash commands Discord has for the bot (every server's)."""
    import discord

    assert isinstance(client, discord.Client) and client.application_id is not None
    try:
        registered = await client.http.get_global_commands(client.application_id)
    except discord.HTTPException as error:
        return False, f"commands: could not be read ({error.status})"
    if not registered:
        return False, "commands: none registered; run league-bot run --sync once"
    return True, f"commands: {len(registered)} registered"


async def _setups(settings: Settings) -> list[ServerSetup]:
    """Every server set up: from the database (read only, never made), and an
    older .env's ids not moved there yet."""
    from bot.repositories import server_setups

    found: dict[int, ServerSetup] = {}
    if settings.database_path.is_file():
        import aiosqlite

        uri = f"file:{settings.database_path.resolve()}?mode=ro"
        async with aiosqlite.connect(uri, uri=True) as conn:
            conn.row_factory = aiosqlite.Row
            try:
                found = {s.guild_id: s for s in await server_setups.every(conn)}
            except aiosqlite.OperationalError:  # a database from before /setup
                found = {}
    from bot.checks import legacy_setup

    legacy = legacy_setup(settings)
    if legacy is not None and legacy.guild_id not in found:
        found[legacy.guild_id] = legacy
    return list(found.values())


def keeping_command(command: str, settings: Settings) -> int:
    """`league-bot backup` and `league-bot health`: one line, exit 0 or 1."""
    from datetime import UTC, datetime

    from bot import keeping

    if command == "health":
        ok, said = keeping.health(settings.database_path)
        print(said)
        return 0 if ok else 1
    try:
        copy = asyncio.run(keeping.backup_file(settings.database_path, settings.backup_dir,
                                               now=datetime.now(UTC)))  # fmt: skip
    except (DatabaseError, OSError) as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return 1
    print(f"Backed up {settings.database_path} to {copy}.")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "restore":
        return restore_command(args.backup, args.database, other_server=args.other_server)
    if args.command == "export":
        return export_command(args.database, args.out, args.season, args.guild)
    if args.command == "demo":
        from bot.demo import main as demo

        demo(args.folder, playoffs=args.playoffs)
        return 0
    if args.command in (None, "example"):
        from bot.example import main as example

        example()
        return 0
    if args.command == "invite":
        from bot.keeping import invite_url

        print(invite_url(args.application_id))
        return 0
    try:
        named = args.env_file is not None
        settings = load_settings(env_file=args.env_file or ".env", required=named)
    except ConfigError as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    if args.command in ("backup", "health"):
        return keeping_command(args.command, settings)
    level = settings.log_level
    if args.command == "check" and level != "DEBUG":
        level = "WARNING"  # the check prints its own lines
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(OneLineNetworkErrors())
        handler.addFilter(NoVoiceWarnings())
    try:
        if args.command == "check":
            return asyncio.run(check_discord(settings))
        asyncio.run(run_bot(settings, sync=args.sync, sharded=args.sharded))
    except StartupError as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return error.exit_code
    except AlreadyRunning as error:  # a setting to fix: not a failure to retry
        print(f"league-bot: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    except DatabaseError as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
