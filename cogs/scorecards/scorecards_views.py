"""The buttons and menus of an approval card, persistent across a
restart (discord.ui.DynamicItem: the card's id is in the custom id). Every
click checks the commissioner role, calls one service, answers the clicker in
a short ephemeral line; the card itself is edited through the outbox."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.components.interactions import (
    check_commissioner,
    deliver,
    league_bot,
    note_commissioner,
    now_of,
)
from bot.services.approvals import REASON_LIMIT
from bot.ui.replies import guild_of, report, require_league_guild, respond
from cogs.scorecards import scorecards_decisions, scorecards_text
from cogs.scorecards.scorecards_outcomes import CardDecision, CardView

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

ID = r"(?P<id>[0-9]{1,18})"


async def _check(interaction: discord.Interaction) -> None:
    """The role check; a commissioner's name is recorded as they act (the
    exports name who approved)."""
    require_league_guild(interaction)
    await check_commissioner(interaction)


def _chosen(interaction: discord.Interaction) -> str:
    data: Mapping[str, Any] = interaction.data or {}
    values = data.get("values") or []
    return str(values[0]) if values else ""


async def _decide(
    interaction: discord.Interaction, decide: Callable[[LeagueClient], Awaitable[CardDecision]]
) -> None:
    """A decision from the card: role check, acknowledge (Discord's 3 s), one
    service call, the clicker's short answer; errors answered, never raised."""
    try:
        await _check(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await note_commissioner(interaction)
        done = await decide(league_bot(interaction))
        deliver(interaction)
        await respond(interaction, scorecards_text.decided(done))
    except Exception as error:
        await report(interaction, error)


def _menu(custom_id: str, placeholder: str, options: list[discord.SelectOption] | None) -> Any:
    """A select menu (a placeholder option when rebuilt from a click's custom id)."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        options=options or [discord.SelectOption(label="-", value="-")],
    )


class _OfCard:
    """A card's item rebuilt after a restart from its custom id (the card's id)."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        return cls(int(match["id"]))  # type: ignore[call-arg]  # each subclass takes the card id


class ApproveCompleteButton(
    _OfCard, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"card:all:{ID}"
):
    """Approve every score of every game whose scores are all in."""

    def __init__(self, card_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Approve all complete",
                style=discord.ButtonStyle.success,
                custom_id=f"card:all:{card_id}",
            )
        )
        self.card_id = card_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await _decide(interaction, lambda bot: scorecards_decisions.approve_complete(
            bot.db, guild_of(interaction), self.card_id,
            by=interaction.user.id, now=now_of(interaction),
        ))  # fmt: skip


class ApproveGameSelect(
    _OfCard, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"card:game:{ID}"
):
    """A menu of the games with waiting scores: approve one game's."""

    def __init__(self, card_id: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(_menu(f"card:game:{card_id}", "Approve one game…", options))
        self.card_id = card_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await _decide(interaction, lambda bot: scorecards_decisions.approve_game(
            bot.db, guild_of(interaction), self.card_id, _chosen(interaction),
            by=interaction.user.id, now=now_of(interaction),
        ))  # fmt: skip


async def _reject_picked(interaction: discord.Interaction, card_id: int) -> None:
    """A pick in a reject menu: a score opens the reason's form (the click's first
    and only answer); a game, or "More scores…", answers privately with a menu of
    that game's waiting scores, or of the next ones."""
    try:
        await _check(interaction)
        value = _chosen(interaction)
        if value[:1] not in ("g", "m"):
            await interaction.response.send_modal(RejectModal(card_id, value))
            await note_commissioner(interaction)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await note_commissioner(interaction)
        card = await scorecards_decisions.card(
            league_bot(interaction).db, guild_of(interaction), card_id
        )
        options = [discord.SelectOption(label=label, value=v)
                   for label, v in scorecards_text.reject_choices(card, value)]  # fmt: skip
        if not options:
            await respond(interaction, "Nothing waits for approval there any more.")
            return
        view = discord.ui.View(timeout=None)
        view.add_item(RejectPickSelect(card_id, value, options))
        await respond(interaction, scorecards_text.reject_prompt(card, value), view=view)
    except Exception as error:
        await report(interaction, error)


class RejectSelect(
    _OfCard, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"card:reject:{ID}"
):
    """A menu of the waiting scores (or, when more wait than a menu holds, of the
    games with waiting scores, or a first page): the score picked is rejected,
    with a reason asked for in a modal. Cards posted before a menu could list
    games still answer: their options are scores."""

    def __init__(self, card_id: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(_menu(f"card:reject:{card_id}", "Reject a score…", options))
        self.card_id = card_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await _reject_picked(interaction, self.card_id)


class RejectPickSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"card:rejectpick:{ID}:(?P<within>[gm][0-9]{{1,18}})",
):
    """The second menu, sent privately: one game's waiting scores, or the next page."""

    def __init__(
        self, card_id: int, within: str, options: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(_menu(f"card:rejectpick:{card_id}:{within}", "Reject a score…", options))
        self.card_id, self.within = card_id, within

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RejectPickSelect:
        return cls(int(match["id"]), match["within"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _reject_picked(interaction, self.card_id)


class RejectModal(discord.ui.Modal):
    reason: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Reason (the player is told it)",
        style=discord.TextStyle.paragraph,
        min_length=1,
        max_length=REASON_LIMIT,
        required=True,
    )

    def __init__(self, card_id: int, value: str) -> None:
        super().__init__(title="Reject a score", custom_id=f"card:why:{card_id}:{value}"[:100])
        self.card_id, self.value = card_id, value

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await _decide(interaction, lambda bot: scorecards_decisions.reject(
            bot.db, guild_of(interaction), self.card_id, self.value, str(self.reason.value),
            by=interaction.user.id, now=now_of(interaction),
        ))  # fmt: skip

    async def on_error(  # type: ignore[override]  # discord.py: Modal's drops BaseView's `item`
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        await report(interaction, error)


def card_view(card: CardView) -> discord.ui.View | None:
    """The card's buttons and menus while something waits; None when all is decided."""
    if not card.waiting:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ApproveCompleteButton(card.id))
    games = [
        discord.SelectOption(label=scorecards_text.game_option(g.label), value=g.value)
        for g in card.games
        if g.waiting
    ][:25]
    view.add_item(ApproveGameSelect(card.id, games))
    waiting = [discord.SelectOption(label=label, value=value)
               for label, value in scorecards_text.reject_choices(card)]  # fmt: skip
    view.add_item(RejectSelect(card.id, waiting))
    return view


CARD_ITEMS = (ApproveCompleteButton, ApproveGameSelect, RejectSelect, RejectPickSelect)
