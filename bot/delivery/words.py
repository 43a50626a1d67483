"""What an outbox item says when it is sent: read through the services (the
league as it stands now), worded by `bot.ui`. None: nothing to send any more."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.components import paging, picture
from bot.components.approvals import decision_view
from bot.components.cards import card_view
from bot.models import OutboxItem
from bot.services import approvals, attendance, cards, finalize, money, photos, standings, stats
from bot.services import outbox as owed
from bot.services.outcomes import Approval
from bot.services.skips import skip_from_data
from bot.ui import calendar, delivery, embeds, render
from bot.ui import money as money_text
from bot.ui import stats as stats_text
from bot.ui.cards import card_embeds, photo_caption, rejected_notice

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@dataclass
class Outgoing:
    """One item's messages: `pieces` in order (the view goes on the last), or an
    edit of message `edit_of` with the first piece."""

    pieces: list[str]
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions | None = None
    edit_of: int | None = None
    embeds: list[list[discord.Embed]] = field(default_factory=list)  # per piece, if any
    why_not: str = field(default="")  # when there is nothing to send: why
    # (filename, bytes) attached to the last piece; made afresh at each try (not stored)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    told: tuple[int, ...] = ()  # an alert: the failed posts it tells of, marked once sent


def nothing(why: str) -> Outgoing:
    return Outgoing([], why_not=why)


def in_embeds(messages: list[list[discord.Embed]], **extra: Any) -> Outgoing:
    """A post of embeds: one piece (with no text) per message."""
    return Outgoing([""] * len(messages), embeds=messages, **extra)


async def approval_of(bot: LeagueClient, ref: str) -> tuple[Approval | None, str, int]:
    """The approval a ref names, its button kind and record id."""
    if (score_id := owed.ref_id(ref, "score")) is not None:
        return await approvals.score_approval(bot.db, score_id), "score", score_id
    if (pre_makeup_id := owed.ref_id(ref, "premakeup")) is not None:
        return (
            await approvals.pre_makeup_approval(bot.db, pre_makeup_id),
            "premakeup",
            pre_makeup_id,
        )
    return None, "", 0


async def photo_post(bot: LeagueClient, item: OutboxItem) -> Outgoing:
    """A score's photo, the league's cleaned copy, posted in the approvals channel
    (the card links to this post, whose link never expires)."""
    score_id = owed.ref_id(item.ref, photos.PREFIX) or 0
    found = await approvals.score_approval(bot.db, score_id)
    post = await photos.photo_post(bot.db, score_id, found.score) if found and found.score else None
    if post is None:
        return nothing(f"{item.ref} has no photo")
    return Outgoing([photo_caption(post)], files=[(post.file_name, post.data)],
                    mentions=discord.AllowedMentions.none())  # fmt: skip


async def words(bot: LeagueClient, item: OutboxItem) -> Outgoing:
    guild = bot.settings.guild_id
    data = json.loads(item.data) if item.data else {}
    if (
        item.kind in ("approval", "approval_update")
        and (card_id := cards.card_id_of(item.ref)) is not None
    ):
        card = await cards.card(bot.db, card_id)
        if card is None:
            return nothing(f"{item.ref} does not exist")
        where = (guild, bot.settings.approvals_channel_id)  # photos link to their posts there
        shown = in_embeds([card_embeds(card, *where)], view=card_view(card))
        if item.kind == "approval":
            return shown
        if card.message_id is None:
            # Its post is still owed (or was refused): it is worded as it stands when sent.
            return nothing("the card was not sent; it shows the decisions when it is")
        shown.edit_of = card.message_id
        return shown
    if item.kind == photos.KIND:
        return await photo_post(bot, item)
    if item.kind == "score_rejected":
        found, _, _ = await approval_of(bot, item.ref)
        if found is None:
            return nothing(f"{item.ref} does not exist")
        return Outgoing([rejected_notice(found)])
    if item.kind in ("approval", "approval_update"):
        found, kind, record_id = await approval_of(bot, item.ref)
        if found is None:
            return nothing(f"{item.ref} does not exist")
        view = decision_view(kind, record_id) if found.pending else None
        text = delivery.approval(found)
        if item.kind == "approval":
            return Outgoing([text], view=view)
        record = found.score.score if found.score is not None else found.pre_makeup.pre_makeup  # type: ignore[union-attr]  # one of the two is set
        if record.approval_message_id is None:
            # Its post is still owed (or was refused): it is worded as it stands when sent.
            return nothing("the approval post was not sent; it shows the decision when it is")
        return Outgoing([text], view=view, edit_of=record.approval_message_id)
    if item.kind in ("results", "prizes"):
        night_id = owed.ref_id(item.ref, "night")
        summary = await finalize.night_summary(bot.db, guild, night_id or 0)
        if summary is None:
            return nothing(f"{item.ref} is not final")
        if item.kind == "results":
            return in_embeds(embeds.results(summary))
        prizes = await money.season_end_prizes(bot.db, guild, summary.night.week)
        if prizes is None:
            return nothing("the season is not over")
        return Outgoing(render.chunks(money_text.season_prizes(prizes)))
    if item.kind == "season_summary":
        ended = await stats.season_summary(bot.db, guild, owed.ref_id(item.ref, "night") or 0)
        if ended is None:
            return nothing("the season is not over")
        return Outgoing(render.chunks(stats_text.season_summary(ended)))
    if item.kind == "standings":
        png = await picture.standings_png(bot.db, guild, "Standings")
        arg = f":{await standings.season_id(bot.db, guild)}"
        listed = await paging.standings_list(bot, arg, None)
        return in_embeds([[listed.embed(0)]], view=paging.page_view("standings", arg, 0,
                         len(listed.pages)), files=[(picture.FILENAME, png)])  # fmt: skip
    if item.kind == "notice":
        record = await attendance.notice_record(bot.db, owed.ref_id(item.ref, "notice") or 0)
        if record is None:
            return nothing(f"{item.ref} does not exist")
        return Outgoing([delivery.notice(record, data.get("event", "given"))])
    if item.kind == "skip":
        skipped = skip_from_data(data)
        return Outgoing(calendar.skip_announcement(skipped), mentions=calendar.pings(skipped))
    if item.kind == "post":
        if "embeds" in data:  # frozen when it was owed: a re-send is the same post
            return in_embeds([[discord.Embed.from_dict(e) for e in message]
                              for message in data["embeds"]])  # fmt: skip
        return Outgoing(render.chunks(data["text"]))
    if item.kind == "alert":  # the posts refused since the last alert: each told once
        failed, weeks = await owed.untold(bot.db, guild)
        if not failed:
            return nothing("no refused post is left untold")
        return Outgoing(render.chunks(delivery.alert(failed, weeks)),
                        told=tuple(f.id for f in failed))  # fmt: skip
    raise ValueError(f"an outbox item of unknown kind {item.kind!r}")
