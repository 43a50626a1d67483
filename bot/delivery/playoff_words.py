"""The playoffs' posts, worded from what was frozen when they were owed."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

import discord

from bot.delivery.outgoing import Outgoing, in_embeds, nothing, post_or_edit, renders
from bot.models import OutboxItem
from bot.outbox_kinds import MATCH_CARD, NIGHT, Kind, ref_id
from bot.services import bracket_cards, playoffs
from bot.services.outcomes.bracket import BracketResult, GameRecorded
from bot.services.outcomes.playoffs import (
    FinalGroupResult,
    PlayoffNightShown,
    PlayoffPreview,
    PlayoffStarted,
)
from bot.ui import bracket
from bot.ui.playoffs import called_off, format_changed, night_announcement, result, started
from bot.ui.render import chunks
from cogs.playoffs.playoffs_views import match_view

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@renders(Kind.PLAYOFF_FORMAT)
async def format_change_post(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    return Outgoing(chunks(format_changed(PlayoffPreview.from_data(data))))


@renders(Kind.PLAYOFF_NIGHT)
async def playoff_night_post(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    """Playoff night announced (its field, its date moved), or called off."""
    if "called_off" in data:
        return Outgoing([called_off(date.fromisoformat(data["called_off"]), int(data["nights"]))])
    if not await playoffs.still_set(bot.db, ref_id(item.ref, NIGHT) or 0):
        return nothing("playoff night was called off before this went out")
    shown = PlayoffNightShown.from_data(data)
    told = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(i) for i in shown.pings]
    )
    return Outgoing(chunks(night_announcement(shown)), mentions=told)


@renders(Kind.PLAYOFF_STARTED)
async def started_post(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    play = PlayoffStarted.from_data(data)
    if play.bracket is not None:
        return Outgoing(chunks(bracket.started(play, play.bracket)))
    return Outgoing(chunks(started(play)))


@renders(Kind.PLAYOFF_RESULT)
async def result_post(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    if data.get("bracket"):
        return Outgoing(chunks(bracket.bracket_result(BracketResult.from_data(data))))
    return Outgoing(chunks(result(FinalGroupResult.from_data(data))))


@renders(Kind.PLAYOFF_MATCH)
async def match_post(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    """A bracket match decided (or corrected), with the bracket as it stands
    (an embed a phone's width: one line per match)."""
    recorded = GameRecorded.from_data(data)
    board = discord.Embed(title=f"Playoff bracket · best of {recorded.bracket.best_of}")
    for name, value in bracket.bracket_fields(recorded.bracket):
        board.add_field(name=name, value=value, inline=False)
    return Outgoing([bracket.decided_post(recorded)], embeds=[[board]])


@renders(Kind.MATCH_CARD, Kind.MATCH_CARD_UPDATE)
async def match_card(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    """R13.3: a bracket match's card, posted or edited as the match stands when sent."""
    found = await bracket_cards.shown(bot.db, item.guild_id, ref_id(item.ref, MATCH_CARD) or 0)
    if found is None:
        return nothing(f"{item.ref} does not exist")
    title, text = bracket.card_text(found)
    shown = in_embeds([[discord.Embed(title=title, description=text)]], view=match_view(found))
    edit = item.kind == Kind.MATCH_CARD_UPDATE
    return post_or_edit(shown, edit, found.message_id, "the match as it stands")
