"""The `league-bot` console script.

league-bot run [--sync]   start the Discord bot (settings from the environment / .env)
league-bot example        print a worked league night scored by the rules
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import TYPE_CHECKING

from bot.config import ConfigError, Settings, load_settings
from bot.database import DatabaseError
from bot.migrate import migrate

if TYPE_CHECKING:
    import discord

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
    """Send discord.py's REST calls to a Discord stand-in (DISCORD_API_BASE); after
    login, `use_gateway_of` asks it where its gateway is."""
    import discord

    discord.http.Route.BASE = api_base.rstrip("/")


async def use_gateway_of(client: discord.Client) -> None:
    """Connect to the gateway that GET /gateway/bot names (the stand-in's own),
    rather than discord.py's built-in wss://gateway.discord.gg."""
    import discord
    import yarl

    _shards, url, _session_start_limit = await client.http.get_bot_gateway()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


async def run_bot(settings: Settings, *, sync: bool) -> None:
    from bot.client import LeagueBot

    await migrate(settings.database_path)  # a bad database stops us before we log in
    if settings.api_base:
        point_at(settings.api_base)
    async with LeagueBot(settings, sync_commands=sync) as client:
        await client.login(settings.token.reveal())
        if settings.api_base:
            await use_gateway_of(client)
        await client.connect()


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
