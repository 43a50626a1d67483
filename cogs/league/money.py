"""/league money …: dues, the season prize fund and its shares (R10)."""

from __future__ import annotations

from discord import Interaction, app_commands

from bot.parsing import parse_money
from bot.services import money
from bot.ui import money as money_text
from bot.ui import render
from bot.ui.replies import respond
from cogs._base import deliver, now_of
from cogs.league._common import LeagueCommands


class MoneyCommands(LeagueCommands):
    """Dues and the season prize fund."""

    money = app_commands.Group(name="money", description="Dues and the season prize fund")

    @money.command(name="dues")
    @app_commands.describe(
        player="Player's name", week="Week", amount="Dollars (default: the season's dues)"
    )
    async def dues(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 64],
        week: app_commands.Range[int, 1, 52],
        amount: app_commands.Range[str, 1, 12] | None = None,
    ) -> None:
        """Record dues paid."""
        cents = parse_money(amount) if amount else None
        bot, guild = await self._ack(interaction)
        pot = await money.record_dues(
            bot.db,
            guild,
            player,
            week,
            cents=cents,
            by=interaction.user.id,
            now=now_of(interaction),
        )
        again = " The week was final: its payout was recomputed." if pot.recomputed else ""
        deliver(interaction)  # a recomputed week's results are posted again
        await respond(
            interaction,
            f"Week {week}: dues {render.money(pot.dues_cents)}, pot {render.money(pot.pot_cents)}."
            + again,
        )

    @money.command(name="fund")
    @app_commands.describe(amount="Dollars to add to the season prize fund", note="What it is")
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
