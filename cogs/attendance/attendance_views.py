"""Attendance in one tap: the buttons under the day's groupings post and a
player's /me. "Running late…" opens a form (minutes and a note) and then does
exactly what /late does, the cutoff included; "Can't make it" does what
/absent does; "Cancel my notice" takes back whichever the player gave. Each
acts for the player who taps it only, on the night the buttons were made for
(its id is in the custom id: persistent across a restart), and answers them
privately."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import discord

from bot.components.interactions import deliver, league_bot, now_of
from bot.services import attendance
from bot.services.errors import BadInput
from bot.ui.replies import guild_of, report, require_league_guild, respond
from cogs.attendance import attendance_text

ID = r"(?P<id>[0-9]{1,18})"
FORM_LIFE = 900  # seconds a private form is kept in memory


async def _night_day(interaction: discord.Interaction, night_id: int) -> date:
    require_league_guild(interaction)
    bot = league_bot(interaction)
    return await attendance.night_of_post(
        bot.db, guild_of(interaction), night_id, now=now_of(interaction)
    )


class _OfNight:
    """A button rebuilt after a restart from its custom id (the night's id)."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        return cls(int(match["id"]))  # type: ignore[call-arg]  # each subclass takes the night id


def _button(label: str, style: discord.ButtonStyle, custom_id: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id)


class LateButton(
    _OfNight, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"attend:late:{ID}"
):
    """R2.1: "Running late…": a form for the minutes and a note."""

    def __init__(self, night_id: int) -> None:
        super().__init__(
            _button("Running late…", discord.ButtonStyle.primary, f"attend:late:{night_id}")
        )
        self.night_id = night_id

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _night_day(interaction, self.night_id)  # a form must be the first answer
            await interaction.response.send_modal(LateForm(self.night_id))
        except Exception as error:
            await report(interaction, error)


class LateForm(discord.ui.Modal):
    """How late, and a note for the commissioner; then what /late does."""

    def __init__(self, night_id: int) -> None:
        super().__init__(title="Running late", timeout=FORM_LIFE)
        self.night_id = night_id
        self.minutes: discord.ui.TextInput[Any] = discord.ui.TextInput(
            placeholder="e.g. 20", max_length=3, required=False
        )
        self.note: discord.ui.TextInput[Any] = discord.ui.TextInput(
            placeholder="Anything the commissioner should know",
            max_length=200,
            required=False,
            style=discord.TextStyle.paragraph,
        )
        self.add_item(discord.ui.Label(text="About how many minutes late?", component=self.minutes))
        self.add_item(discord.ui.Label(text="Note (optional)", component=self.note))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            minutes = _minutes(str(self.minutes.value))
            await interaction.response.defer(ephemeral=True, thinking=True)
            day = await _night_day(interaction, self.night_id)
            bot = league_bot(interaction)
            given = await attendance.notify(
                bot.db, guild_of(interaction), interaction.user.id, "late", day=day,
                minutes=minutes, note=str(self.note.value), now=now_of(interaction),
            )  # fmt: skip
            deliver(interaction)  # the commissioner's copy, owed with the notice
            await respond(interaction, attendance_text.notice(given))
        except Exception as error:
            await report(interaction, error)

    async def on_error(  # type: ignore[override]  # discord.py: Modal's drops BaseView's `item`
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        await report(interaction, error)


def _minutes(text: str) -> int | None:
    """The form's minutes: blank, or a whole number from 1 to 240."""
    text = text.strip()
    if not text:
        return None
    if not text.isdecimal() or not 1 <= int(text) <= 240:
        raise BadInput("Say how late you will be in minutes, from 1 to 240 (e.g. 20).")
    return int(text)


class AbsentButton(
    _OfNight, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"attend:absent:{ID}"
):
    """R2, R3: "Can't make it": what /absent does, with what each game scores."""

    def __init__(self, night_id: int) -> None:
        super().__init__(
            _button("Can't make it", discord.ButtonStyle.secondary, f"attend:absent:{night_id}")
        )
        self.night_id = night_id

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            day = await _night_day(interaction, self.night_id)
            bot = league_bot(interaction)
            given = await attendance.notify(
                bot.db, guild_of(interaction), interaction.user.id, "absent", day=day,
                now=now_of(interaction),
            )  # fmt: skip
            deliver(interaction)
            await respond(interaction, attendance_text.notice(given))
        except Exception as error:
            await report(interaction, error)


class CancelButton(
    _OfNight, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"attend:cancel:{ID}"
):
    """R2: "Cancel my notice": takes back the player's late notice or absence."""

    def __init__(self, night_id: int) -> None:
        super().__init__(
            _button("Cancel my notice", discord.ButtonStyle.secondary, f"attend:cancel:{night_id}")
        )
        self.night_id = night_id

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            day = await _night_day(interaction, self.night_id)
            bot = league_bot(interaction)
            taken = await attendance.withdraw(
                bot.db, guild_of(interaction), interaction.user.id, None, day=day,
                now=now_of(interaction),
            )  # fmt: skip
            deliver(interaction)
            await respond(interaction, attendance_text.withdrawn(taken))
        except Exception as error:
            await report(interaction, error)


def attendance_view(night_id: int) -> discord.ui.View:
    """The three buttons of a night, for the groupings post and /me."""
    view = discord.ui.View(timeout=None)
    for item in (LateButton, AbsentButton, CancelButton):
        view.add_item(item(night_id))
    return view


ATTENDANCE_ITEMS = (LateButton, AbsentButton, CancelButton)
