"""Where discord.py connects: Discord itself, or a Discord stand-in
(DISCORD_API_BASE: the demo, the e2e tests, the benchmark's floor bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import discord


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
