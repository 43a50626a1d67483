"""/late and /absent: late notices and absences (R2), and what an absence costs (R3)."""

from __future__ import annotations

from typing import Any

from discord import Interaction, app_commands
from discord.ext import commands

from bot.components.interactions import deliver, league_bot, now_of
from bot.parsing import parse_date
from bot.services import attendance
from bot.ui.replies import guild_of, respond
from cogs.attendance import attendance_text
from cogs.attendance.attendance_views import ATTENDANCE_ITEMS


class Attendance(commands.Cog):
    @app_commands.command(name="late")
    @app_commands.guild_only()
    @app_commands.describe(
        minutes="How late you expect to be",
        note="Anything the commissioner should know",
        cancel="True: take back your late notice instead",
    )
    async def late(
        self,
        interaction: Interaction,
        minutes: app_commands.Range[int, 1, 240] | None = None,
        note: app_commands.Range[str, 0, 200] = "",
        cancel: bool = False,
    ) -> None:
        """Tell the commissioner you will be late tonight."""
        if cancel:
            await _withdraw(interaction, "late")
        else:
            await _notify(interaction, "late", minutes=minutes, note=note)

    @app_commands.command(name="absent")
    @app_commands.guild_only()
    @app_commands.describe(
        date="The night you will miss, e.g. 2026-03-11 (default: the next one)",
        note="Anything the commissioner should know",
        cancel="True: take back your absence for that night instead",
    )
    async def absent(
        self,
        interaction: Interaction,
        date: app_commands.Range[str, 1, 20] | None = None,
        note: app_commands.Range[str, 0, 200] = "",
        cancel: bool = False,
    ) -> None:
        """Tell the commissioner you will miss a league night."""
        day = parse_date(date) if date is not None else None
        if cancel:
            await _withdraw(interaction, "absent", day=day)
        else:
            await _notify(interaction, "absent", day=day, note=note)


async def _notify(interaction: Interaction, kind: str, **details: Any) -> None:
    """R2: record the notice, tell the player which rule applies, tell the commissioner."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = league_bot(interaction)
    given = await attendance.notify(
        bot.db,
        guild_of(interaction),
        interaction.user.id,
        kind,
        now=now_of(interaction),
        **details,
    )
    deliver(interaction)  # the commissioner's copy, owed with the notice
    await respond(interaction, attendance_text.notice(given))


async def _withdraw(interaction: Interaction, kind: str, **details: Any) -> None:
    """R2: the player takes back their own notice; the commissioner is told."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = league_bot(interaction)
    taken = await attendance.withdraw(
        bot.db, guild_of(interaction), interaction.user.id, kind, now=now_of(interaction),
        **details,
    )  # fmt: skip
    deliver(interaction)
    await respond(interaction, attendance_text.withdrawn(taken))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Attendance())
    bot.add_dynamic_items(*ATTENDANCE_ITEMS)  # the groupings post's and /me's buttons
