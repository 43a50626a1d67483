"""What the e2e tests share: the league's Discord server in the stand-in, and
the real LeagueBot started against it and closed completely (`bot.demo.running_bot`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.demo import running_bot
from standin import MANAGE_GUILD, DiscordStandIn

TOKEN = "standin-e2e.token.0123456789abcdefghij"
__all__ = ["TOKEN", "World", "build_world", "running_bot"]


@dataclass(frozen=True)
class World:
    """The league's Discord server as the stand-in holds it."""

    guild: int
    commissioner_role: int
    general: int
    announcements: int
    approvals: int
    commissioner: int  # has the commissioner role (which carries Manage Server)
    moderator: int  # Manage Server through another role, but not the commissioner
    players: tuple[int, ...]


def build_world(standin: DiscordStandIn) -> World:
    guild = standin.add_guild("Koi's Pinball")
    commissioner_role = standin.add_role(guild, "Commissioner", permissions=MANAGE_GUILD)
    moderator_role = standin.add_role(guild, "Moderator", permissions=MANAGE_GUILD)
    general = standin.add_channel(guild, "general")
    announcements = standin.add_channel(guild, "league-announcements")
    approvals = standin.add_channel(guild, "score-approvals")
    commissioner = standin.add_member(guild, "Koi", roles=[commissioner_role])
    moderator = standin.add_member(guild, "Mo", roles=[moderator_role])
    players = tuple(standin.add_member(guild, f"Player {n}") for n in range(1, 8))
    return World(
        guild,
        commissioner_role,
        general,
        announcements,
        approvals,
        commissioner,
        moderator,
        players,
    )
