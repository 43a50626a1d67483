"""◀ ▶ buttons that page a long list, and survive a restart (discord.ui.DynamicItem).

The custom id carries which list, which page and what was asked
(`page:standings:2:A:7`: division A of season 7, page 3), so a button posted
before a restart still works; the list is read afresh at each click. A click on
a public post answers the clicker alone with that page (the post stays as
everyone sees it); a click on a private reply turns that reply's page. Lists
that are the commissioner's (the audit trail, the scores waiting) check the
commissioner role at each click.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.components.interactions import check_commissioner, league_bot, note_commissioner, now_of
from bot.services import approvals, audit, groups, standings
from bot.services.errors import BadInput
from bot.ui import embeds
from bot.ui.audit import entry_lines
from bot.ui.render import keep_whole
from bot.ui.replies import guild_of, release, report, require_league_guild

if TYPE_CHECKING:
    from bot.league_client import LeagueClient

TEMPLATE = r"page:(?P<list>standings|groups|audit|waiting):(?P<page>[0-9]{1,4}):(?P<arg>.*)"
COMMISSIONERS = ("audit", "waiting")  # lists only the commissioner may page
# What each list is asked with, as the bot writes it; anything else is a forged
# or broken custom id, refused like any other stale click (no traceback logged).
ARGS = {
    "standings": re.compile(r"(?:A|B)?:[0-9]{1,9}"),  # division, season id
    "groups": re.compile(r"[0-9]{1,2}"),  # week
    "audit": re.compile(r"(?:[0-9]{1,2})?:.{0,64}", re.DOTALL),  # week, player name
    "waiting": re.compile(r""),
}
STALE = "That button no longer works; use the command again."
AUDIT_PAGE = 12  # lines: an audit entry takes three or four


@dataclass(frozen=True)
class Shown:
    """A list as read now: its title, pages and legend."""

    title: str
    pages: list[list[embeds.Entry]]
    legend: str = ""
    empty: str = "Nothing to show."

    def embed(self, page: int) -> discord.Embed:
        return embeds.page_embed(self.title, self.pages, page, legend=self.legend, empty=self.empty)


def _optional(text: str) -> str | None:
    return text or None


async def standings_list(bot: LeagueClient, guild: int, arg: str, _: Any) -> Shown:
    """arg: "<division>:<season id>"."""
    division, _, season_id = arg.partition(":")
    name = await standings.season_name(bot.db, guild, int(season_id or 0))
    rows = await standings.standings(bot.db, guild, _optional(division), name)
    title = f"Division {division} standings" if division else "Standings"
    entries = embeds.standing_entries(rows, headings=not division)
    podium = await standings.playoff_podium(bot.db, guild, name)  # R13.6: the champions first
    shown = {d: names for d, names in podium.items() if not division or d == division}
    if shown:
        entries = [embeds.Entry("Playoffs", embeds.podium_lines(shown)), *entries]
    return Shown(f"{title} · {name}", embeds.pages(entries), embeds.STANDINGS_LEGEND,
                 "No players yet.")  # fmt: skip


async def groups_list(bot: LeagueClient, guild: int, arg: str, now: Any) -> Shown:
    """arg: the week."""
    view = await groups.week_view(bot.db, guild, week=int(arg or 1), now=now)
    return Shown(embeds.week_title(view), embeds.pages(embeds.week_entries(view)),
                 empty="No groups yet.")  # fmt: skip


async def audit_list(bot: LeagueClient, guild: int, arg: str, _: Any) -> Shown:
    """arg: "<week>:<player name>", either empty."""
    week, _, player = arg.partition(":")
    trail = await audit.trail(
        bot.db, guild, week=int(week) if week else None, player=_optional(player)
    )
    entries = [embeds.Entry("", entry_lines(item, trail)) for item in trail.entries]
    return Shown("Score changes, newest first", embeds.pages(entries, AUDIT_PAGE))


async def waiting_list(bot: LeagueClient, guild: int, arg: str, _: Any) -> Shown:
    """Tonight's scores still waiting for the commissioner, group by group."""
    waiting = sorted(
        await approvals.pending(bot.db, guild),
        key=lambda v: (v.group_label, v.game.number, v.player.name),
    )
    entries = [embeds.Entry(v.group_label, [f"{keep_whole(v.player.name)} · {v.score.score:,}",
                                            f"  Game {v.game.number} · {v.game.machine}"])
               for v in waiting]  # fmt: skip
    title = f"Week {waiting[0].night.week}: scores waiting" if waiting else "Scores waiting"
    return Shown(title, embeds.pages(entries), empty="No scores are waiting for approval.")


# Each list of a server's league: (bot, its server's id, arg, now).
LISTS: dict[str, Callable[[LeagueClient, int, str, Any], Awaitable[Shown]]] = {
    "standings": standings_list,
    "groups": groups_list,
    "audit": audit_list,
    "waiting": waiting_list,
}


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """◀ or ▶: show page `page` of list `name` (asked with `arg`)."""

    def __init__(self, name: str, page: int, arg: str, *, label: str = "▶",
                 disabled: bool = False) -> None:  # fmt: skip
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"page:{name}:{page}:{arg}",
                disabled=disabled,
            )
        )
        self.name, self.page, self.arg = name, page, arg

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PageButton:
        return cls(match["list"], int(match["page"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            require_league_guild(interaction)
            if self.name in COMMISSIONERS:
                await check_commissioner(interaction)
            if not ARGS[self.name].fullmatch(self.arg):
                raise BadInput(STALE)
            message = interaction.message
            private = message is not None and message.flags.ephemeral
            # Acknowledged first (Discord's 3 s), then the list is read afresh.
            if private:  # a private reply: its page turns in place
                await interaction.response.defer()
            else:  # a public post: this page for the clicker alone
                await interaction.response.defer(ephemeral=True, thinking=True)
            if self.name in COMMISSIONERS:
                await note_commissioner(interaction)
            shown = await LISTS[self.name](
                league_bot(interaction), guild_of(interaction), self.arg, now_of(interaction)
            )
            page = min(self.page, len(shown.pages) - 1)
            view = page_view(self.name, self.arg, page, len(shown.pages))
            if private:
                await interaction.edit_original_response(embed=shown.embed(page), view=view)
            else:
                extra: dict[str, Any] = {"view": view} if view is not None else {}
                await interaction.followup.send(embed=shown.embed(page), ephemeral=True, **extra)
        except Exception as error:  # one error path for views too
            await report(interaction, error)


def page_view(name: str, arg: str, page: int, count: int) -> discord.ui.View | None:
    """◀ ▶ for page `page` of `count`; none for a list of one page. The custom ids
    must fit Discord's 100 characters: a list asked with a longer `arg` has none."""
    if count < 2 or len(f"page:{name}:{count}:{arg}") > 100:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(name, max(0, page - 1), arg, label="◀", disabled=page == 0))
    view.add_item(PageButton(name, min(count - 1, page + 1), arg, disabled=page >= count - 1))
    return view


async def show(
    interaction: discord.Interaction,
    name: str,
    arg: str,
    *,
    ephemeral: bool,
    file: discord.File | None = None,
) -> None:
    """A command's answer: the list's first page, with ◀ ▶ when it has more."""
    bot = league_bot(interaction)
    shown = await LISTS[name](bot, guild_of(interaction), arg, now_of(interaction))
    view = page_view(name, arg, 0, len(shown.pages))
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    if file is not None:
        extra["file"] = file
    # An answer with a file waits for its turn to upload (`LeagueClient.uploads`).
    async with bot.uploads if file is not None else contextlib.nullcontext():
        try:
            if interaction.response.is_done():
                await interaction.followup.send(embed=shown.embed(0), ephemeral=ephemeral, **extra)
            else:
                await interaction.response.send_message(
                    embed=shown.embed(0), ephemeral=ephemeral, **extra
                )
        finally:
            if file is not None:
                release(file)
