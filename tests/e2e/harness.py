"""What the e2e tests share: the league's Discord server in the stand-in, and
the real LeagueBot started against it and closed completely (`bot.demo.running_bot`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.config import Settings, load_settings
from bot.demo import running_bot
from standin import MANAGE_GUILD, DiscordStandIn

TOKEN = "standin-e2e.token.0123456789abcdefghij"
__all__ = ["TOKEN", "Server", "World", "bot_settings", "build_world", "running_bot", "small_server"]


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


@dataclass(frozen=True)
class Server:
    """A small league server for one fault test: four channels and members."""

    guild: int
    role: int  # the commissioner role
    general: int
    announcements: int
    approvals: int
    koi: int  # the commissioner
    players: tuple[int, ...]


def small_server(
    standin: DiscordStandIn, name: str, players: int, *, announcements_open: bool = True
) -> Server:
    """`name`'s server: general, announcements, approvals, Koi the commissioner,
    P1 … P`players`; with `announcements_open=False` the bot may not post there."""
    guild = standin.add_guild(name)
    role = standin.add_role(guild, "Commissioner", permissions=MANAGE_GUILD)
    general = standin.add_channel(guild, "general")
    announcements = standin.add_channel(guild, "announcements", bot_can_post=announcements_open)
    approvals = standin.add_channel(guild, "approvals")
    koi = standin.add_member(guild, "Koi", roles=[role])
    members = tuple(standin.add_member(guild, f"P{n}") for n in range(1, players + 1))
    return Server(guild, role, general, announcements, approvals, koi, members)


def bot_settings(
    standin: DiscordStandIn, server: Server, token: str, database: Path, backups: Path
) -> Settings:
    """The settings (as the bot reads its .env) of a bot for `server`."""
    return load_settings(
        env={
            "DISCORD_TOKEN": token,
            "LEAGUE_GUILD_ID": str(server.guild),
            "COMMISSIONER_ROLE_ID": str(server.role),
            "ANNOUNCEMENT_CHANNEL_ID": str(server.announcements),
            "APPROVALS_CHANNEL_ID": str(server.approvals),
            "DATABASE_PATH": str(database),
            "DISCORD_API_BASE": standin.api_base,
            "BACKUP_DIR": str(backups),
        }
    )
