"""/league money …: dues, the season prize fund and its shares (R10)."""

from __future__ import annotations

from discord import Interaction, app_commands

from bot.components.interactions import deliver, league_bot, now_of
from bot.parsing import parse_money
from bot.services.errors import LeagueError
from bot.ui import render
from bot.ui.replies import guild_of, respond
from cogs.league.group import LeagueCommands
from cogs.money import money, money_text


class MoneyCommands(LeagueCommands):
    """Dues and the season prize fund."""

    money = app_commands.Group(name="money", description="Dues and the season prize fund")

    @money.command(name="dues")
    @app_commands.describe(
        players="Names, comma-separated", week="Week", amount="Dollars (default: season's dues)"
    )
    async def dues(
        self,
        interaction: Interaction,
        players: app_commands.Range[str, 1, 1000],
        week: app_commands.Range[int, 1, 52],
        amount: app_commands.Range[str, 1, 12] | None = None,
    ) -> None:
        """Record dues paid."""
        cents = parse_money(amount) if amount else None
        bot, guild = await self._ack(interaction)
        done = await money.record_dues_of(
            bot.db,
            guild,
            players.split(","),
            week,
            cents=cents,
            by=interaction.user.id,
            now=now_of(interaction),
        )
        deliver(interaction)  # a recomputed week's results are posted again
        await respond(interaction, money_text.dues_recorded(done))

    @dues.autocomplete("players")
    async def dues_players(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Completes the last name typed; the names before it are kept."""
        *done, last = current.split(",")
        head = ", ".join(n.strip() for n in done if n.strip())
        bot = league_bot(interaction)
        try:
            names = await money.player_names(bot.db, guild_of(interaction), last)
        except LeagueError:
            return []
        out = []
        for name in names:
            value = f"{head}, {name}" if head else name
            if len(value) <= 100:
                out.append(app_commands.Choice(name=value, value=value))
        return out[:25]

    @money.command(name="summary")
    @app_commands.describe(week="Week (default: the latest)")
    async def summary(
        self, interaction: Interaction, week: app_commands.Range[int, 1, 52] | None = None
    ) -> None:
        """Pot, prize fund, and dues paid and owed."""
        bot, guild = await self._ack(interaction)
        await respond(
            interaction, money_text.money_summary(await money.summary(bot.db, guild, week))
        )

    @money.command(name="fund")
    @app_commands.describe(amount="Dollars to add", note="What it is")
    async def fund(
        self,
        interaction: Interaction,
        amount: app_commands.Range[str, 1, 12],
        note: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        """Add to the season prize fund."""
        cents = parse_money(amount)
        bot, guild = await self._ack(interaction)
        total = await money.add_to_fund(
            bot.db, guild, cents, note, by=interaction.user.id, now=now_of(interaction)
        )
        await respond(interaction, f"The prize fund is now {render.money(total)}.")

    @money.command(name="prizes")
    async def prizes(self, interaction: Interaction) -> None:
        """Each player's share of the prize fund."""
        bot, guild = await self._ack(interaction)
        await respond(interaction, money_text.season_prizes(await money.prizes(bot.db, guild)))
