"""The approvals channel's posts as they stand when sent: a group's or a day's
approval card (and its edits), a score's photo, and the private notice of a
rejected score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.delivery.outgoing import Outgoing, in_embeds, nothing, post_or_edit, renders
from bot.models import OutboxItem
from bot.outbox_kinds import CARD, PHOTO, PRE_MAKEUP, SCORE, Kind, ref_id
from bot.services import approvals, photos
from bot.services.outcomes.scores import Approval
from cogs.scorecards import scorecards
from cogs.scorecards.scorecards_text import card_embeds, photo_caption, rejected_notice
from cogs.scorecards.scorecards_views import card_view

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@renders(Kind.APPROVAL, Kind.APPROVAL_UPDATE)
async def card(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    """A card posted, or edited as it stands. An item naming one score's own
    post ('score:12', owed by a bot from before the cards) is not sent: the
    score is on its card."""
    card_id = ref_id(item.ref, CARD)
    if card_id is None:
        return nothing(f"{item.ref}: its post is replaced by its card")
    found = await scorecards.card(bot.db, card_id)
    if found is None:
        return nothing(f"{item.ref} does not exist")
    setup = bot.setup_of(item.guild_id)
    if setup is None:
        return nothing("the server has no league set up")
    where = (item.guild_id, setup.approvals_channel_id)  # photos link there
    shown = in_embeds([card_embeds(found, *where)], view=card_view(found))
    edit = item.kind == Kind.APPROVAL_UPDATE
    return post_or_edit(shown, edit, found.message_id, "the decisions")


@renders(Kind.PHOTO)
async def photo_post(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    """A score's photo, the league's cleaned copy, posted in the approvals channel
    (the card links to this post, whose link never expires)."""
    score_id = ref_id(item.ref, PHOTO) or 0
    found = await approvals.score_approval(bot.db, score_id)
    post = await photos.photo_post(bot.db, score_id, found.score) if found and found.score else None
    if post is None:
        return nothing(f"{item.ref} has no photo")
    return Outgoing([photo_caption(post)], files=[(post.file_name, post.data)],
                    mentions=discord.AllowedMentions.none())  # fmt: skip


@renders(Kind.SCORE_REJECTED)
async def rejected(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    found = await approval_of(bot, item.ref)
    if found is None:
        return nothing(f"{item.ref} does not exist")
    return Outgoing([rejected_notice(found)])


async def approval_of(bot: LeagueClient, ref: str) -> Approval | None:
    """The score or pre-makeup score a ref names ('score:12', 'premakeup:3')."""
    if (score_id := ref_id(ref, SCORE)) is not None:
        return await approvals.score_approval(bot.db, score_id)
    if (pre_makeup_id := ref_id(ref, PRE_MAKEUP)) is not None:
        return await approvals.pre_makeup_approval(bot.db, pre_makeup_id)
    return None
