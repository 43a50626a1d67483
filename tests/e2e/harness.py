"""What the e2e tests share, on top of what they share with the demo
(`bot/stage.py`: a league's server in the stand-in, the bot's settings for it,
the real LeagueBot started against it and closed completely): the e2e league's
server, with a moderator, a small server for one fault test, a locked night."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bot.config import Settings
from bot.database import Database
from bot.migrate import migrate
from bot.services import machine_list, membership, picks, setup
from bot.stage import build_stage, running_bot, settings_for
from standin import MANAGE_GUILD, DiscordStandIn
from tests.moments import SETTING_AT

TOKEN = "standin-e2e.token.0123456789abcdefghij"
__all__ = [
    "TOKEN", "Server", "World", "bot_settings", "build_world", "locked_night", "running_bot",
    "small_server",
]  # fmt: skip


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
    """Koi's Pinball: the league's server, seven players, and Mo, a moderator with
    Manage Server through a role of their own (not the commissioner)."""
    stage = build_stage(standin, "Koi's Pinball", [f"Player {n}" for n in range(1, 8)])
    moderator_role = standin.add_role(stage.guild, "Moderator", permissions=MANAGE_GUILD)
    moderator = standin.add_member(stage.guild, "Mo", roles=[moderator_role])
    return World(stage.guild, stage.commissioner_role, stage.general, stage.announcements,
                 stage.approvals, stage.commissioner, moderator,
                 tuple(stage.players.values()))  # fmt: skip


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

    @property
    def commissioner_role(self) -> int:
        return self.role


def small_server(
    standin: DiscordStandIn, name: str, players: int, *, announcements_open: bool = True
) -> Server:
    """`name`'s server: general, announcements, approvals, Koi the commissioner,
    P1 … P`players`; with `announcements_open=False` the bot may not post there."""
    stage = build_stage(standin, name, [f"P{n}" for n in range(1, players + 1)],
                        announcements="announcements", approvals="approvals",
                        announcements_open=announcements_open)  # fmt: skip
    return Server(stage.guild, stage.commissioner_role, stage.general, stage.announcements,
                  stage.approvals, stage.commissioner, tuple(stage.players.values()))  # fmt: skip


def bot_settings(
    standin: DiscordStandIn, server: Server, token: str, database: Path, backups: Path
) -> Settings:
    """The settings (as the bot reads its .env) of a bot for `server`."""
    return settings_for(standin, server, database, token, backups=backups)


@contextlib.asynccontextmanager
async def locked_night(
    database: Path,
    server: Server,
    name: str,
    tonight: datetime,
    *,
    player_name: Callable[[int], str] = lambda n: f"P{n}",
    skill: Callable[[int], int] = lambda n: n,
    machines: int = 6,
    machine_name: Callable[[int], str] = lambda n: f"Machine {n}",
    settings: Mapping[str, str] | None = None,
) -> AsyncIterator[Database]:
    """A new league file for `server`: the league `name`, a season whose first night
    is `tonight` (with the rule `settings` changed), the server's players
    (`player_name(n)`, `skill(n)` for the n-th), `machines` (six) at par 1B (named
    `machine_name(n)`, n from 0) and tonight's picks locked at 19:15. Yields the
    open database for more set-up, and closes it."""
    await migrate(database)
    db = await Database.open(database)
    now = datetime(2026, 1, 1, 10, tzinfo=tonight.tzinfo)
    try:
        await setup.create_league(db, server.guild, name, now=now)
        await setup.start_season(db, server.guild, "Winter", tonight.date(), now=now)
        for n, member in enumerate(server.players, start=1):
            await membership.add_player(db, server.guild, player_name(n), discord_id=member,
                                        skill=skill(n), now=now)  # fmt: skip
        for setting, value in (settings or {}).items():
            await setup.change_setting(db, server.guild, setting, value, now=SETTING_AT)
        for n in range(machines):
            await machine_list.add_machine(db, server.guild, machine_name(n), par=10**9, now=now)
        await picks.lock_picks(db, server.guild, now=tonight.replace(hour=19, minute=15))
        yield db
    finally:
        await db.close()
