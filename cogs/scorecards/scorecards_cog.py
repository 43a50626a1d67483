"""The approvals channel's persistent buttons and menus: each group's scorecard
(scorecards_views.py), and the Approve and Reject of the per-score posts made
before the cards, which now point to the card (bot/components/approvals.py).
Registered as discord.py's dynamic items, so a click on a card posted before a
restart still works."""

from __future__ import annotations

from bot.components.approvals import DecisionButton
from bot.league_client import LeagueClient
from cogs.scorecards.scorecards_views import CARD_ITEMS


async def setup(bot: LeagueClient) -> None:
    bot.add_dynamic_items(DecisionButton, *CARD_ITEMS)
