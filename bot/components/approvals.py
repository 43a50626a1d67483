"""Approve / Reject buttons that survive a restart (discord.ui.DynamicItem).

The custom id carries what is decided (`score:approve:42`,
`premakeup:reject:7`), so a button posted before a restart still works. The
commissioner role is checked when the button is clicked. A click is a command:
like the slash commands it calls a service, then `bot.ui` words the answer.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord

from bot.components.interactions import check_commissioner, league_bot, note_commissioner
from bot.services import approvals
from bot.ui import delivery, render
from bot.ui.replies import report, require_league_guild

TEMPLATE = r"(?P<kind>score|premakeup):(?P<action>approve|reject):(?P<id>[0-9]{1,18})"


class DecisionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """One Approve or Reject button for a pending score or pre-makeup."""

    def __init__(self, kind: str, action: str, record_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Approve" if action == "approve" else "Reject",
                style=discord.ButtonStyle.success
                if action == "approve"
                else discord.ButtonStyle.danger,
                custom_id=f"{kind}:{action}:{record_id}",
            )
        )
        self.kind, self.action, self.record_id = kind, action, record_id

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
            await check_commissioner(interaction)
            # Acknowledge at once (the message will be edited), then decide.
            await interaction.response.defer()
            await note_commissioner(interaction)
            await self._decide(interaction)
        except Exception as error:  # one error path for views too
            await report(interaction, error)

    async def _decide(self, interaction: discord.Interaction) -> None:
        bot = league_bot(interaction)
        approve = self.action == "approve"
        now = interaction.created_at
        decider = interaction.user.display_name
        # The click's own answer edits the message, so no edit is owed (update_post).
        if self.kind == "score":
            view = await approvals.decide_score(
                bot.db, bot.settings.guild_id, self.record_id, approve,
                by=interaction.user.id, now=now, update_post=False,
            )  # fmt: skip
            text = render.score_decided(view, decider)
        else:
            await approvals.decide_pre_makeup(
                bot.db, bot.settings.guild_id, self.record_id, approve,
                by=interaction.user.id, now=now, update_post=False,
            )  # fmt: skip
            found = await approvals.pre_makeup_approval(bot.db, self.record_id)
            assert found is not None
            text = delivery.approval(replace(found, decider=decider))
        await interaction.edit_original_response(content=text, view=None)


def decision_view(kind: str, record_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DecisionButton(kind, "approve", record_id))
    view.add_item(DecisionButton(kind, "reject", record_id))
    return view
