"""The suggestions Discord shows while a name is typed (autocomplete), shared by
the commands that take a season, a player or a machine."""

from __future__ import annotations

from discord import Interaction, app_commands

from bot.components.interactions import league_bot
from bot.services.context import season_names
from bot.services.errors import LeagueError
from bot.ui.replies import guild_of

CHOICES = 25  # Discord shows at most 25 suggestions


def suggest(names: list[str], typed: str) -> list[app_commands.Choice[str]]:
    """Names containing what is typed (those starting with it first), at most 25."""
    wanted = typed.strip().casefold()
    found = [n for n in names if wanted in n.casefold()]
    found.sort(key=lambda n: not n.casefold().startswith(wanted))
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in found[:CHOICES]]


async def season_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The league's seasons, newest first."""
    bot = league_bot(interaction)
    try:
        return suggest(await season_names(bot.db, guild_of(interaction)), current)
    except LeagueError:
        return []
