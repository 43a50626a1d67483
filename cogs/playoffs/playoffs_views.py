"""The buttons of a bracket match's card (R13.3), persistent across a restart
(discord.ui.DynamicItem: the card's id, and the game's number, are in the
custom id). "Pick the machine" is for the player whose pick it is: a private
menu of the machines left. "Enter a game" is for a commissioner: a form with
both players' raw scores. Every click calls one service and answers the
clicker privately; the card itself is edited through the outbox."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.components.interactions import (
    check_commissioner,
    deliver,
    league_bot,
    note_commissioner,
    now_of,
)
from bot.parsing import parse_score
from bot.services import bracket_cards
from bot.services.outcomes.bracket import GameForm, MatchCardShown
from bot.ui.bracket import no_machine_left, pick_prompt, picked, recorded
from bot.ui.replies import guild_of, report, require_league_guild, respond

ID = r"(?P<id>[0-9]{1,18})"
GAME = r"(?P<n>[1-9])"
LABEL = 45  # Discord: a form field's label, and a form's title
MENU_LIFE = 900  # seconds a private menu or form is kept in memory
SCORE_HINT = "e.g. 1234567, 850M or 1.2B"


def _chosen(interaction: discord.Interaction) -> str:
    data: Mapping[str, Any] = interaction.data or {}
    values = data.get("values") or []
    return str(values[0]) if values else ""


class PickButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"match:pick:{ID}"):
    """The player whose pick it is gets a private menu of the machines left."""

    def __init__(self, card_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Pick the machine",
                style=discord.ButtonStyle.primary,
                custom_id=f"match:pick:{card_id}",
            )
        )
        self.card_id = card_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            require_league_guild(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            bot = league_bot(interaction)
            offer = await bracket_cards.choices(
                bot.db, guild_of(interaction), self.card_id, interaction.user.id
            )
            if not offer.machines:
                await respond(interaction, no_machine_left(offer))
                return
            options = [discord.SelectOption(label=name[:100], value=str(machine_id))
                       for machine_id, name in offer.machines][:25]  # fmt: skip
            view = discord.ui.View(timeout=MENU_LIFE)  # rebuilt from its custom id after that
            view.add_item(MachineSelect(self.card_id, offer.match_id, offer.number, options))
            await respond(interaction, pick_prompt(offer), view=view)
        except Exception as error:
            await report(interaction, error)


class MachineSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"match:machine:{ID}:(?P<match>[0-9]{{1,18}}):{GAME}",
):
    """The private menu: the machine picked for game `n` of the card's match
    (the match it was made for: a correction since makes it another)."""

    def __init__(
        self,
        card_id: int,
        match_id: int,
        number: int,
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"match:machine:{card_id}:{match_id}:{number}",
                placeholder="Pick a machine…",
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.card_id, self.match_id, self.number = card_id, match_id, number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MachineSelect:
        return cls(int(match["id"]), int(match["match"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            require_league_guild(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            bot = league_bot(interaction)
            done = await bracket_cards.pick(
                bot.db,
                guild_of(interaction),
                self.card_id,
                interaction.user.id,
                self.number,
                _chosen(interaction),
                match_id=self.match_id,
                now=now_of(interaction),
            )
            deliver(interaction)  # the card shows the pick
            await respond(interaction, picked(done))
        except Exception as error:
            await report(interaction, error)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"match:game:{ID}"):
    """A commissioner enters the next game's two raw scores in a form."""

    def __init__(self, card_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Enter a game",
                style=discord.ButtonStyle.secondary,
                custom_id=f"match:game:{card_id}",
            )
        )
        self.card_id = card_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            require_league_guild(interaction)
            await check_commissioner(interaction)
            bot = league_bot(interaction)
            form = await bracket_cards.form(bot.db, guild_of(interaction), self.card_id)
            await interaction.response.send_modal(GameModal(form))
            await note_commissioner(interaction)
        except Exception as error:
            await report(interaction, error)


def _label(name: str, what: str) -> str:
    """'Ann's score': a long name is shortened, never what the field is for."""
    room = LABEL - len(what)
    return (name if len(name) <= room else name[: room - 1] + "…") + what


class GameModal(discord.ui.Modal):
    """Both raw scores of the card's match's next game, the better seed's first;
    its machine too when none is picked yet."""

    def __init__(self, form: GameForm) -> None:
        super().__init__(
            title=form.title[:LABEL],
            custom_id=f"match:form:{form.card_id}:{form.match_id}:{form.number}",
            timeout=MENU_LIFE,
        )
        self.card_id, self.match_id, self.number = form.card_id, form.match_id, form.number
        self.high = self._box(_label(form.high, "'s score"), SCORE_HINT, 40)
        self.low = self._box(_label(form.low, "'s score"), SCORE_HINT, 40)
        self.machine = None
        if form.machine is None:
            self.machine = self._box(_label(f"Machine ({form.picker}", "'s pick)"), "Its name", 64)

    def _box(self, label: str, hint: str, longest: int) -> discord.ui.TextInput[Any]:
        box: discord.ui.TextInput[Any] = discord.ui.TextInput(placeholder=hint, max_length=longest)
        self.add_item(discord.ui.Label(text=label, component=box))
        return box

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            require_league_guild(interaction)
            await check_commissioner(interaction)
            high, low = parse_score(str(self.high.value)), parse_score(str(self.low.value))
            await interaction.response.defer(ephemeral=True, thinking=True)
            bot = league_bot(interaction)
            machine = str(self.machine.value) if self.machine is not None else None
            done = await bracket_cards.play(
                bot.db,
                guild_of(interaction),
                self.card_id,
                self.number,
                high,
                low,
                machine,
                match_id=self.match_id,
                now=now_of(interaction),
            )
            deliver(interaction)  # the card, and a decided match with the bracket
            await respond(interaction, recorded(done))
        except Exception as error:
            await report(interaction, error)

    async def on_error(  # type: ignore[override]  # discord.py: Modal's drops BaseView's `item`
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        await report(interaction, error)


def match_view(card: MatchCardShown) -> discord.ui.View | None:
    """The card's buttons while its match is open; None once decided (or off)."""
    if not card.open:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PickButton(card.card_id))
    view.add_item(GameButton(card.card_id))
    return view


MATCH_ITEMS = (PickButton, MachineSelect, GameButton)
