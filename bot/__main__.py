"""The `league-bot` console script.

league-bot run [--sync]   start the Discord bot (settings from the environment / .env)
league-bot example        print a worked league night scored by the rules
league-bot restore BACKUP --database FILE
                          put a backup back while the bot is stopped
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.config import ConfigError, Settings, load_settings
from bot.database import DatabaseError
from bot.migrate import migrate

log = logging.getLogger("bot")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="league-bot", description="The pinball league's bot.")
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("run", help="start the Discord bot")
    run.add_argument("--sync", action="store_true", help="register the slash commands first")
    run.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    commands.add_parser("example", help="print a worked league night scored by the rules")
    demo = commands.add_parser(
        "demo", help="play a league night on a loopback Discord stand-in (no account needed)"
    )
    demo.add_argument("--folder", default="demo", help="where the demo's database is kept")
    add_restore_command(commands)
    return parser


def add_restore_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    restore = commands.add_parser(
        "restore",
        help="put a backup back as the league's database (the bot must be stopped)",
        description="Check BACKUP (integrity, schema version), keep the current FILE as "
        "FILE.before-restore-<UTC time>, and copy BACKUP into FILE with SQLite's backup API.",
    )
    restore.add_argument("backup", help="the backup, e.g. backups/league-20260311-230000.sqlite3")
    restore.add_argument("--database", required=True, help="the league's database (DATABASE_PATH)")


def restore_command(backup: str, database: str) -> int:
    """`league-bot restore`: one line saying what was done, or why not (exit 1)."""
    from datetime import UTC, datetime

    from bot.database import restore
    from bot.migrate import load_migrations

    try:
        migrations = load_migrations()
        kept = restore(
            backup,
            database,
            latest_version=migrations[-1].version if migrations else 0,
            now=datetime.now(UTC),
        )
    except (DatabaseError, OSError) as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return 1
    before = f"; the previous file is kept as {kept}" if kept is not None else ""
    print(f"Restored {database} from {backup}{before}. Start the bot again.")
    return 0


def point_at(api_base: str) -> None:
    """Send discord.py's REST calls and gateway to a Discord stand-in (DISCORD_API_BASE)."""
    import discord
    import yarl

    base = api_base.rstrip("/")
    discord.http.Route.BASE = base
    root = base.split("/api/")[0]
    ws = root.replace("https://", "wss://").replace("http://", "ws://")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/gateway")


async def run_bot(settings: Settings, *, sync: bool) -> None:
    from bot.client import LeagueBot

    await migrate(settings.database_path)  # a bad database stops us before we log in
    if settings.api_base:
        point_at(settings.api_base)
    async with LeagueBot(settings, sync_commands=sync) as client:
        await client.start(settings.token.reveal())


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "restore":
        return restore_command(args.backup, args.database)
    if args.command == "demo":
        from bot.demo import main as demo

        demo(args.folder)
        return 0
    if args.command in (None, "example"):
        from bot.example import main as example

        example()
        return 0
    try:
        settings = load_settings(env_file=args.env_file)
    except ConfigError as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(run_bot(settings, sync=args.sync))
    except DatabaseError as error:
        print(f"league-bot: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
