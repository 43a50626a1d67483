"""Who may press the Approve / Reject buttons: the commissioner role, checked
when a button is clicked (the buttons themselves are `bot/components/approvals.py`)."""

from __future__ import annotations

import discord

from bot.ui.replies import NotCommissioner


def is_commissioner(interaction: discord.Interaction) -> bool:
    """Whether the member holds their server's league's commissioner role."""
    setup = getattr(interaction.client, "setups", {}).get(interaction.guild_id)
    roles = getattr(interaction.user, "roles", [])
    return setup is not None and any(role.id == setup.commissioner_role_id for role in roles)


def require_commissioner(interaction: discord.Interaction) -> None:
    if not is_commissioner(interaction):
        raise NotCommissioner("Only the commissioner can do that.")
