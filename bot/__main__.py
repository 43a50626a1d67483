"""The `league-bot` console script.

league-bot run [--sync]   start the Discord bot (settings from the environment / .env)
league-bot example        print a worked league night scored by the rules
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
    return parser


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
