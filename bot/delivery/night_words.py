"""A night's end in the announcements channel, worded when sent from the night
as it stands: its results, the standings with their picture, and after the
last regular night the prize shares and the season summary (R7-R10)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.components import paging, picture
from bot.delivery.outgoing import Outgoing, in_embeds, nothing, renders
from bot.models import OutboxItem
from bot.outbox_kinds import NIGHT, Kind, ref_id
from bot.services import finalize, standings
from bot.ui import embeds, render
from cogs.money import money
from cogs.money.money_text import season_prizes
from cogs.stats import stats
from cogs.stats.stats_text import season_summary

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@renders(Kind.RESULTS, Kind.PRIZES)
async def results(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    guild = item.guild_id
    summary = await finalize.night_summary(bot.db, guild, ref_id(item.ref, NIGHT) or 0)
    if summary is None:
        return nothing(f"{item.ref} is not final")
    if item.kind == Kind.RESULTS:
        return in_embeds(embeds.results(summary))
    prizes = await money.season_end_prizes(bot.db, guild, summary.night)
    if prizes is None:
        return nothing("the season is not over")
    return Outgoing(render.chunks(season_prizes(prizes)))


@renders(Kind.SEASON_SUMMARY)
async def summary(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    ended = await stats.season_summary(bot.db, item.guild_id, ref_id(item.ref, NIGHT) or 0)
    if ended is None:
        return nothing("the season is not over")
    return Outgoing(render.chunks(season_summary(ended)))


@renders(Kind.STANDINGS)
async def standings_post(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    guild = item.guild_id
    season = await standings.season_of_night(bot.db, guild, ref_id(item.ref, NIGHT) or 0)
    if season is None:
        return nothing(f"{item.ref} is no night of this league")
    png = await picture.standings_png(bot.db, guild, "Standings", season=season[1])
    arg = f":{season[0]}"  # the night's own season: one closed since too
    listed = await paging.standings_list(bot, guild, arg, None)
    return in_embeds([[listed.embed(0)]], view=paging.page_view("standings", arg, 0,
                     len(listed.pages)), files=[(picture.FILENAME, png)])  # fmt: skip
