"""/league player …, /league machine …: adding and removing players, skill,
pre-makeup grants; machines, par, out of order (R3, R6, R8)."""

from __future__ import annotations

import discord
from discord import Interaction, app_commands

from bot.components.interactions import now_of
from bot.parsing import parse_score
from bot.services import machine_list, membership, roster
from bot.ui.machines import par_reply
from bot.ui.replies import respond
from cogs.exports.exports_text import imported
from cogs.league.group import LeagueCommands


class RosterCommands(LeagueCommands):
    """Players and machines: adding, removing, skill, pre-makeup grants, par."""

    player = app_commands.Group(name="player", description="Players, skill, pre-makeup nights")
    machine = app_commands.Group(name="machine", description="Machines: add, par, out of order")

    @player.command(name="add")
    @app_commands.describe(
        member="The Discord member",
        skill="Skill 1-10, 10 = expert",
        name="Standings name (default: display name)",
    )
    async def player_add(
        self,
        interaction: Interaction,
        member: discord.Member,
        skill: app_commands.Range[float, 1, 10] | None = None,
        name: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Add a league player."""
        bot, guild = await self._ack(interaction)
        added = await membership.add_player(
            bot.db,
            guild,
            name or member.display_name,
            discord_id=member.id,
            skill=skill,
            now=now_of(interaction),
        )
        again = " (welcome back: their history is kept)" if added.restored else ""
        await respond(interaction, f"{added.player.name} joined the league{again}.")

    @player.command(name="remove")
    @app_commands.describe(name="The player's name")
    async def player_remove(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 64]
    ) -> None:
        """Remove a player; their history stays."""
        bot, guild = await self._ack(interaction)
        done = await membership.remove_player(bot.db, guild, name, now=now_of(interaction))
        text = f"{done.player.name} was removed; their results stay in the history."
        if done.playing_week is not None:
            text += (
                f"\nThey are in week {done.playing_week}, which is being played: that night "
                "still counts for them. Before finalizing, enter their missing scores with "
                f"/league score change or mark them absent with /league night mark "
                f"(player: {done.player.name})."
            )
        await respond(interaction, text)

    @player.command(name="skill")
    @app_commands.describe(name="The player's name", value="Skill 1-10, 10 = expert")
    async def skill(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        value: app_commands.Range[float, 1, 10],
    ) -> None:
        """Set a player's skill rating."""
        bot, guild = await self._ack(interaction)
        player = await membership.set_skill(bot.db, guild, name, value)
        await respond(interaction, f"{player.name}'s skill is now {player.skill:g}.")

    @player.command(name="grant")
    @app_commands.describe(name="The player's name", nights="Extra pre-makeup nights")
    async def grant(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        nights: app_commands.Range[int, 1, 10],
    ) -> None:
        """Grant a player more pre-makeup nights."""
        bot, guild = await self._ack(interaction)
        player = await membership.grant_pre_makeup_nights(bot.db, guild, name, nights)
        await respond(
            interaction,
            f"{player.name} has {player.extra_pre_makeup_nights} extra pre-makeup night(s).",
        )

    @player.command(name="ifpa")
    @app_commands.describe(name="The player's name", number="IFPA number, or 'none'")
    async def ifpa(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        number: app_commands.Range[str, 1, 20],
    ) -> None:
        """Set a player's IFPA number."""
        bot, guild = await self._ack(interaction)
        player = await membership.set_ifpa(bot.db, guild, name, number)
        shown = f"is {player.ifpa_number}" if player.ifpa_number else "was cleared"
        await respond(interaction, f"{player.name}'s IFPA number {shown}.")

    @player.command(name="import")
    @app_commands.describe(file="CSV: name,discord,skill")
    async def import_players(self, interaction: Interaction, file: discord.Attachment) -> None:
        """Add players from a CSV file."""
        bot, guild = await self._ack(interaction)
        if file.size > roster.MAX_BYTES:  # refused before it is downloaded
            raise roster.BadRoster(
                f"The file is {file.size:,} bytes; a roster file is at most "
                f"{roster.MAX_BYTES:,} bytes."
            )
        try:
            data = await file.read()
        except discord.HTTPException:
            raise roster.BadRoster("Discord did not hand over the file; upload it again.") from None
        done = await roster.import_roster(bot.db, guild, data, now=now_of(interaction))
        await respond(interaction, imported(done))

    @machine.command(name="add")
    @app_commands.describe(name="The machine's name", par="Raw score worth 1,000,000 normalized")
    async def machine_add(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        par: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Add a machine (last in the machine order)."""
        value = parse_score(par) if par is not None else None
        bot, guild = await self._ack(interaction)
        machine = await machine_list.add_machine(
            bot.db, guild, name, par=value, now=now_of(interaction)
        )
        await respond(
            interaction, f"{machine.name} added. Every player owes a pre-makeup score on it."
        )

    @machine.command(name="par")
    @app_commands.describe(machine="The machine", value="Par, or 'median' of the pre-makeups")
    async def par(
        self,
        interaction: Interaction,
        machine: app_commands.Range[str, 1, 64],
        value: app_commands.Range[str, 1, 40],
    ) -> None:
        """Set a machine's par."""
        par = None if value.strip().lower() == "median" else parse_score(value)
        bot, guild = await self._ack(interaction)
        result = await machine_list.set_par(bot.db, guild, machine, par)
        await respond(interaction, par_reply(result))

    @machine.command(name="working")
    @app_commands.describe(machine="The machine", working="Is it working?")
    async def working(
        self, interaction: Interaction, machine: app_commands.Range[str, 1, 64], working: bool
    ) -> None:
        """Mark a machine working or out of order."""
        bot, guild = await self._ack(interaction)
        found = await machine_list.set_working(bot.db, guild, machine, working)
        await respond(
            interaction, f"{found.name} is {'working' if found.working else 'out of order'}."
        )
