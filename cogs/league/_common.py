"""What every /league command shares: the role check, the acknowledgement,
the announcement channel, and the choices Discord shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from discord import Interaction

from bot.services import money, standings
from bot.services.outcomes import NightSummary
from bot.services.setup import SETTINGS
from bot.ui import money as money_text
from bot.ui import render
from bot.ui.approvals import require_commissioner
from cogs._base import league_bot, post

if TYPE_CHECKING:
    from bot.client import LeagueBot

# Discord's choices for `/league season setting`: exactly the settings the service accepts.
Setting = Literal[SETTINGS]  # type: ignore[valid-type]
ChangeKind = Literal[
    "correction", "penalty", "malfunction_replay", "slam_tilt_replay", "tilt_replay"
]


class LeagueCommands:
    """The base of the /league command groups (`cogs.commissioner` joins them)."""

    async def interaction_check(self, interaction: Interaction) -> bool:
        require_commissioner(interaction)
        return True

    async def _ack(self, interaction: Interaction) -> tuple[LeagueBot, int]:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        return bot, bot.settings.guild_id


async def announce(bot: LeagueBot, text: str) -> None:
    """Post to the announcement channel, split within Discord's limits."""
    for piece in render.chunks(text):
        await post(bot, bot.settings.announcement_channel_id, piece)


async def announce_results(bot: LeagueBot, guild: int, summary: NightSummary) -> None:
    """A finalized (or recomputed) night's results, then the standings they make,
    then, after the last regular-season night, each player's prize (R10.4)."""
    await announce(bot, render.results(summary))
    await announce(bot, render.standings(await standings.standings(bot.db, guild)))
    prizes = await money.season_end_prizes(bot.db, guild, summary.night.week)
    if prizes is not None:
        await announce(bot, money_text.season_prizes(prizes))
