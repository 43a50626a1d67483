"""A loopback Discord: enough of REST API v10 and the gateway for discord.py 2.7.

The real bot connects to it over 127.0.0.1 (see `bot.endpoints.point_at`), and
tests (or the demo) act as members: run slash commands, click buttons, read
what the bot answered, posted and edited.
"""

from standin.commands import CommandNotPermitted, InvalidInvocation
from standin.exchange import Edit, Exchange
from standin.limits import Limits
from standin.server import DEFAULT_TOKEN, DiscordStandIn
from standin.state import RecordedRequest
from standin.world import (
    ADMINISTRATOR,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_GUILD,
    MANAGE_ROLES,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    snowflake_time,
)

__all__ = [
    "ADMINISTRATOR",
    "CREATE_PRIVATE_THREADS",
    "CREATE_PUBLIC_THREADS",
    "DEFAULT_TOKEN",
    "MANAGE_GUILD",
    "MANAGE_ROLES",
    "MANAGE_THREADS",
    "SEND_MESSAGES_IN_THREADS",
    "CommandNotPermitted",
    "DiscordStandIn",
    "Edit",
    "Exchange",
    "InvalidInvocation",
    "Limits",
    "RecordedRequest",
    "snowflake_time",
]
