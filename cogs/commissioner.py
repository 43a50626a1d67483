"""/league …: the commissioner's commands, refused for everyone else at run time.

One GroupCog joins the subcommand groups (season, player, machine, night, score,
money, admin): a feature's own (money: `cogs/money/money_cog.py`), the others by
subject in `cogs/league/`. Discord allows 25
entries per level, so every command sits in a group (command → group → subcommand).
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from cogs.league.admin import AdminCommands
from cogs.league.corrections import CorrectionCommands
from cogs.league.night import NightCommands
from cogs.league.roster import RosterCommands
from cogs.league.season import SeasonCommands
from cogs.money.money_cog import MoneyCommands


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)  # a hint; the role is checked at run time
class Commissioner(  # discord.py lists the groups of the last base first
    AdminCommands,
    MoneyCommands,
    CorrectionCommands,
    NightCommands,
    RosterCommands,
    SeasonCommands,
    commands.GroupCog,
    group_name="league",
):
    """The commissioner's tools."""


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Commissioner())
