"""What every /league command shares: the role check, the acknowledgement,
and the choices Discord shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from discord import Interaction

from bot.components.interactions import check_commissioner, league_bot, note_commissioner
from bot.ui.replies import guild_of

if TYPE_CHECKING:
    # The groups are mixins that only ever run joined into `Commissioner`, a
    # GroupCog; the checker is told so, so that discord.py's decorators (whose
    # `self` must be a Group or a Cog) accept their commands. At run time the
    # base stays `object`: the cog metaclass sees only `Commissioner`.
    from discord.ext.commands import GroupCog as _CommandsBase

    from bot.league_client import LeagueClient
else:
    _CommandsBase = object

ChangeKind = Literal[
    "correction", "penalty", "malfunction_replay", "slam_tilt_replay", "tilt_replay"
]


class LeagueCommands(_CommandsBase):
    """The base of the /league command groups (`cogs.commissioner` joins them)."""

    async def interaction_check(self, interaction: Interaction) -> bool:
        await check_commissioner(interaction)
        return True

    async def _ack(self, interaction: Interaction) -> tuple[LeagueClient, int]:
        """Acknowledge (Discord's 3 s), then record the commissioner (best effort)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await note_commissioner(interaction)
        bot = league_bot(interaction)
        return bot, guild_of(interaction)
