"""/league night …: running the night: picks, games, approvals, attendance, finalizing."""

from __future__ import annotations

from typing import Literal

from discord import Interaction, app_commands

from bot.components import paging
from bot.components.interactions import deliver, now_of
from bot.parsing import parse_date
from bot.services import approvals, attendance, finalize, picks
from bot.ui import render
from bot.ui.replies import respond
from cogs.attendance import attendance_text
from cogs.league.group import LeagueCommands


class NightCommands(LeagueCommands):
    """The night's running: picks, games, approvals, attendance, finalizing."""

    night = app_commands.Group(
        name="night", description="Run the night: picks, games, approvals, finalizing"
    )

    @night.command(name="lock")
    @app_commands.describe(week="Which week (default: tonight)")
    async def lock(
        self, interaction: Interaction, week: app_commands.Range[int, 1, 52] | None = None
    ) -> None:
        """Lock the picks and set the games."""
        bot, guild = await self._ack(interaction)
        locked = await picks.lock_picks(bot.db, guild, week=week, now=now_of(interaction))
        text = render.locked(locked, locked[0].week) if locked else "No groups."
        if locked and not locked[0].newly_locked:
            await respond(interaction, f"Already locked; nothing changed.\n{text}")
        else:
            await respond(interaction, text)
        # The 19:15 job's post, through its path: one key, claimed once and owed to
        # the outbox, so it is never posted twice (a refused one: /league admin resend).
        scheduler = bot.scheduler_of(guild)
        if locked and scheduler is not None:
            await scheduler.lock_post(locked, now_of(interaction))

    @night.command(name="waiting")
    async def waiting(self, interaction: Interaction) -> None:
        """Scores waiting for approval."""
        await self._ack(interaction)
        await paging.show(interaction, "waiting", "", ephemeral=True)

    @night.command(name="games")
    @app_commands.describe(
        group="Group, e.g. 1 or A2", machines="The games in order, comma-separated"
    )
    async def games(
        self,
        interaction: Interaction,
        group: app_commands.Range[str, 1, 3],
        machines: app_commands.Range[str, 1, 400],
    ) -> None:
        """Override one group's games."""
        bot, guild = await self._ack(interaction)
        names = [m.strip() for m in machines.split(",") if m.strip()]
        done = await picks.set_games(bot.db, guild, group, names, now=now_of(interaction))
        await respond(
            interaction,
            f"{done.label}: " + ", ".join(f"{n}. {m}" for n, m in enumerate(done.games, 1)),
        )

    @night.command(name="approve-all")
    @app_commands.describe(group="Group, e.g. 1 or A2")
    async def approve_all(
        self, interaction: Interaction, group: app_commands.Range[str, 1, 3]
    ) -> None:
        """Approve every pending score of one group."""
        bot, guild = await self._ack(interaction)
        approved = await approvals.approve_all(
            bot.db, guild, group, by=interaction.user.id, now=now_of(interaction)
        )
        deliver(interaction)  # their approval posts are brought up to date
        await respond(
            interaction, f"Approved {approved} score(s) of group {group.strip().upper()}."
        )

    @night.command(name="mark")
    @app_commands.describe(
        player="Player's name",
        status="Late (misses some games) or absent",
        date="Night (default: next)",
    )
    async def mark(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 64],
        status: Literal["late", "absent"],
        date: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        """Mark a player late or absent."""
        day = parse_date(date) if date else None
        bot, guild = await self._ack(interaction)
        given = await attendance.mark(
            bot.db, guild, player, status, by=interaction.user.id, day=day, now=now_of(interaction)
        )
        await respond(interaction, attendance_text.notice(given))

    @night.command(name="finalize")
    @app_commands.describe(week="Which week (default: tonight)")
    async def finalize(
        self, interaction: Interaction, week: app_commands.Range[int, 1, 52] | None = None
    ) -> None:
        """Finalize the night's results."""
        bot, guild = await self._ack(interaction)
        summary = await finalize.finalize(
            bot.db, guild, week=week, by=interaction.user.id, now=now_of(interaction)
        )
        if not summary.newly_finalized:
            await respond(
                interaction, f"Week {summary.night.week} was already final; nothing changed."
            )
            return
        deliver(interaction)  # results, standings (and prizes), owed with the finalizing
        await respond(interaction, f"Week {summary.night.week} is final.")
