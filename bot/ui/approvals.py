"""Who may press the Approve / Reject buttons: the commissioner role, checked
when a button is clicked (the buttons themselves are `bot/components/approvals.py`)."""

from __future__ import annotations

import discord

from bot.ui.replies import NotCommissioner


def is_commissioner(interaction: discord.Interaction) -> bool:
    role_id = interaction.client.settings.commissioner_role_id  # type: ignore[attr-defined]  # our LeagueBot's
    roles = getattr(interaction.user, "roles", [])
    return any(role.id == role_id for role in roles)


def require_commissioner(interaction: discord.Interaction) -> None:
    if not is_commissioner(interaction):
        raise NotCommissioner("Only the commissioner can do that.")
