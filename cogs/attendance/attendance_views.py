"""Attendance in one tap: the buttons under the day's groupings post and a
player's /me. "Running late…" opens a form (minutes and a note) and then does
exactly what /late does, the cutoff included; "Can't make it" does what
/absent does; "Cancel my notice" takes back whichever the player gave. Each
acts for the player who taps it only, on the night the buttons were made for
(its id is in the custom id: persistent across a restart), and answers them
privately."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

import discord

from bot.components.interactions import (
    check_commissioner,
    deliver,
    league_bot,
    note_commissioner,
    now_of,
)
from bot.services import attendance, attendance_board
from bot.services.errors import BadInput, NotFound
from bot.services.outcomes.notices import AttendanceBoard, BoardLine
from bot.ui.replies import guild_of, report, require_league_guild, respond
from cogs.attendance import attendance_text

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

ID = r"(?P<id>[0-9]{1,18})"
FORM_LIFE = 900  # seconds a private form is kept in memory


async def _night_day(interaction: discord.Interaction, night_id: int) -> tuple[int, date]:
    """The server and day of the night the buttons were made for: in a server,
    its own league's night; in a reminder DM, the night's own league."""
    bot = league_bot(interaction)
    if interaction.guild_id is None:  # a league-day reminder's buttons
        guild = await attendance.guild_of_night(bot.db, night_id)
        if bot.setup_of(guild) is None:  # the server no longer runs its league here
            raise NotFound("That league is not run by this bot any more.")
    else:
        require_league_guild(interaction)
        guild = guild_of(interaction)
    return guild, await attendance.night_of_post(bot.db, guild, night_id, now=now_of(interaction))


async def _tapped(
    interaction: discord.Interaction,
    night_id: int,
    act: Callable[[LeagueClient, int, date], Awaitable[str]],
) -> None:
    """A tap that acts at once: acknowledge (private), find the night's server
    and day, act for the tapper, have the outbox send what it owed, answer."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild, day = await _night_day(interaction, night_id)
        answer = await act(league_bot(interaction), guild, day)
        deliver(interaction)  # the commissioner's copy and the board, owed with it
        await respond(interaction, answer)
    except Exception as error:
        await report(interaction, error)


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
            minutes = _minutes(str(self.minutes.value))  # refused before anything is done
        except BadInput as error:
            await report(interaction, error)
            return
        note = str(self.note.value)

        async def late(bot: LeagueClient, guild: int, day: date) -> str:
            given = await attendance.notify(
                bot.db, guild, interaction.user.id, "late", day=day, minutes=minutes, note=note,
                now=now_of(interaction),
            )  # fmt: skip
            return attendance_text.notice(given)

        await _tapped(interaction, self.night_id, late)

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
        async def absent(bot: LeagueClient, guild: int, day: date) -> str:
            given = await attendance.notify(bot.db, guild, interaction.user.id, "absent",
                                            day=day, now=now_of(interaction))  # fmt: skip
            return attendance_text.notice(given)

        await _tapped(interaction, self.night_id, absent)


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
        async def cancel(bot: LeagueClient, guild: int, day: date) -> str:
            taken = await attendance.withdraw(bot.db, guild, interaction.user.id, None, day=day,
                                              now=now_of(interaction))  # fmt: skip
            return attendance_text.withdrawn(taken)

        await _tapped(interaction, self.night_id, cancel)


def attendance_view(night_id: int) -> discord.ui.View:
    """The three buttons of a night, for the groupings post and /me."""
    view = discord.ui.View(timeout=None)
    for item in (LateButton, AbsentButton, CancelButton):
        view.add_item(item(night_id))
    return view


MENU_SIZE = 25  # Discord: the options of one select menu
CHECK_IN_MENUS = 3  # with the undo menu, 4 of a message's 5 rows: 75 players to check in


def _picked(interaction: discord.Interaction) -> list[str]:
    data: Mapping[str, Any] = interaction.data or {}
    return [str(v) for v in data.get("values") or []]


class _BoardMenu:
    """A board's menu rebuilt after a restart from its custom id (the night's id)."""

    undo = False
    night_id: int

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        part = int(match.groupdict().get("part") or 1)
        return cls(int(match["id"]), part)  # type: ignore[call-arg]  # each menu takes these

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            require_league_guild(interaction)
            await check_commissioner(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await note_commissioner(interaction)
            bot = league_bot(interaction)
            done = await attendance_board.check_in(
                bot.db, guild_of(interaction), self.night_id, _picked(interaction),
                undo=self.undo, by=interaction.user.id, now=now_of(interaction),
            )  # fmt: skip
            deliver(interaction)  # the board, edited
            await respond(interaction, attendance_text.checked_in(done))
        except Exception as error:
            await report(interaction, error)


def _select(custom_id: str, placeholder: str, lines: Sequence[BoardLine]) -> Any:
    """A menu of players (a placeholder option when rebuilt from a click)."""
    options = [_option(line) for line in lines[:MENU_SIZE]]
    options = options or [discord.SelectOption(label="-", value="-")]
    return discord.ui.Select(custom_id=custom_id, placeholder=placeholder, options=options,
                             min_values=1, max_values=len(options))  # fmt: skip


def _option(line: BoardLine) -> discord.SelectOption:
    """A player, with their group (Discord: 100 characters each)."""
    return discord.SelectOption(label=line.name[:100], value=str(line.player_id),
                                description=line.group[:100])  # fmt: skip


class CheckInSelect(
    _BoardMenu,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"attend:in:{ID}:(?P<part>[1-9])",
):
    """R2: the commissioner checks in the players who came (several at once)."""

    def __init__(self, night_id: int, part: int = 1, options: Sequence[BoardLine] = ()) -> None:
        placeholder = "Check in…" if part == 1 else f"Check in… (more, {part})"
        super().__init__(_select(f"attend:in:{night_id}:{part}", placeholder, options))
        self.night_id = night_id


class UndoSelect(
    _BoardMenu, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"attend:undo:{ID}"
):
    """A check-in made by mistake, taken back (a player with a score stays in)."""

    undo = True

    def __init__(self, night_id: int, part: int = 1, options: Sequence[BoardLine] = ()) -> None:
        super().__init__(_select(f"attend:undo:{night_id}", "Undo a check-in…", options))
        self.night_id = night_id


def board_view(shown: AttendanceBoard) -> discord.ui.View | None:
    """The board's menus while its night is open: who may be checked in (in
    menus of 25), and whose check-in may be undone."""
    if not shown.open:
        return None
    view = discord.ui.View(timeout=None)
    checkable = shown.checkable
    for part in range(min(CHECK_IN_MENUS, -(-len(checkable) // MENU_SIZE))):
        chunk = checkable[part * MENU_SIZE : (part + 1) * MENU_SIZE]
        view.add_item(CheckInSelect(shown.night.id, part + 1, chunk))
    if shown.undoable:
        view.add_item(UndoSelect(shown.night.id, 1, shown.undoable))
    return view if view.children else None


ATTENDANCE_ITEMS = (LateButton, AbsentButton, CancelButton, CheckInSelect, UndoSelect)
