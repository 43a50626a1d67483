"""The ◀ ▶ arrows of every long list the bot shows (standings, groups, the
audit trail, the waiting scores: bot/components/paging.py). Registered as
discord.py's dynamic items, so the arrows of a list shown before a restart
still turn its pages."""

from __future__ import annotations

from bot.components.paging import PageButton
from bot.league_client import LeagueClient


async def setup(bot: LeagueClient) -> None:
    bot.add_dynamic_items(PageButton)
