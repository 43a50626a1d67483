"""/league score …: corrections, penalties and replays with a reason; tie orders;
the audit trail (R5.4, R12)."""

from __future__ import annotations

from discord import Interaction, app_commands

from bot.components import paging
from bot.components.interactions import deliver, now_of
from bot.parsing import parse_score
from bot.services import score_changes
from bot.ui.replies import respond
from cogs.league.group import ChangeKind, LeagueCommands


class CorrectionCommands(LeagueCommands):
    """Score corrections, penalties and replays with their reasons, and tie orders."""

    score = app_commands.Group(name="score", description="Score changes, ties, audit trail")

    @score.command(name="change")
    @app_commands.describe(
        kind="What happened",
        week="Week",
        player="Player's name",
        game="Game number",
        reason="Why (kept in the audit trail)",
        score="New score (not for a penalty)",
    )
    async def change(
        self,
        interaction: Interaction,
        kind: ChangeKind,
        week: app_commands.Range[int, 1, 52],
        player: app_commands.Range[str, 1, 64],
        game: app_commands.Range[int, 1, 10],
        reason: app_commands.Range[str, 1, 500],
        score: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Correct a score, or apply a penalty or replay."""
        value = parse_score(score) if score is not None else None
        bot, guild = await self._ack(interaction)
        changed = await score_changes.change(
            bot.db,
            guild,
            week=week,
            player_name=player,
            game_number=game,
            kind=kind,
            reason=reason,
            new_score=value,
            by=interaction.user.id,
            now=now_of(interaction),
        )
        c = changed.change
        old = f"{c.old_score:,}" if c.old_score is not None else "none"
        who = changed.view.player.name
        text = f"{who}, week {week} game {game}: {old} → {c.new_score:,} ({kind})."
        if changed.refinalized is not None:
            text += " Week results recomputed."
        deliver(interaction)  # recomputed results, an approval post brought up to date
        await respond(interaction, text)

    @score.command(name="tie")
    @app_commands.describe(
        week="Week",
        game="Game number",
        players="Tied players, highest first, comma-separated",
    )
    async def tie(
        self,
        interaction: Interaction,
        week: app_commands.Range[int, 1, 52],
        game: app_commands.Range[int, 1, 10],
        players: app_commands.Range[str, 1, 300],
    ) -> None:
        """Record the order of tied scores."""
        bot, guild = await self._ack(interaction)
        names = [p.strip() for p in players.split(",") if p.strip()]
        summary = await score_changes.record_tie_order(
            bot.db,
            guild,
            week=week,
            game_number=game,
            players=names,
            by=interaction.user.id,
            now=now_of(interaction),
        )
        text = f"Week {week} game {game}: {' > '.join(names)}."
        if summary is not None:
            text += " Week results recomputed."
            deliver(interaction)
        await respond(interaction, text)

    @score.command(name="audit")
    @app_commands.describe(week="Only this week", player="Only this player's scores")
    async def audit(
        self,
        interaction: Interaction,
        week: app_commands.Range[int, 1, 52] | None = None,
        player: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Who changed which score, when and why."""
        await self._ack(interaction)
        await paging.show(interaction, "audit", f"{week or ''}:{player or ''}", ephemeral=True)
