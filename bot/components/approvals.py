"""The Approve and Reject buttons of the per-score approval posts the bot made
before the scorecards (discord.ui.DynamicItem, custom ids `score:approve:42`,
`premakeup:reject:7`). Scores are decided on the cards now: an old post's
button decides nothing and says, privately, where to decide instead."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.replies import report, require_league_guild

TEMPLATE = r"(?P<kind>score|premakeup):(?P<action>approve|reject):(?P<id>[0-9]{1,18})"
REPLACED = {
    "score": "This post is replaced by the group's scorecard in this channel; "
    "approve or reject the score there.",
    "premakeup": "This post is replaced by the player's pre-makeup card in this channel; "
    "approve or reject the score there.",
}


class DecisionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """One Approve or Reject button of an old per-score post."""

    def __init__(self, kind: str, action: str, record_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Approve" if action == "approve" else "Reject",
                custom_id=f"{kind}:{action}:{record_id}",
            )
        )
        self.kind = kind

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DecisionButton:
        return cls(match["kind"], match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            require_league_guild(interaction)
            await interaction.response.send_message(REPLACED[self.kind], ephemeral=True)
        except Exception as error:  # one error path for views too
            await report(interaction, error)
