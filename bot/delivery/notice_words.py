"""Posts worded from what was frozen when they were owed, or for the
commissioner: a late notice's or absence's copy, a skipped date's announcement,
the scheduler's posts, and the alert of posts Discord refused."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.delivery.outgoing import Outgoing, in_embeds, nothing, post_or_edit, renders
from bot.models import OutboxItem
from bot.outbox_kinds import BOARD, NOTICE, Kind, ref_id
from bot.services import attendance, attendance_board, outbox, reminders
from bot.services.skips import skip_from_data
from bot.ui import calendar, delivery, render
from cogs.attendance import attendance_text
from cogs.attendance.attendance_views import attendance_view, board_view
from cogs.reminders import reminders_text

if TYPE_CHECKING:
    from bot.league_client import LeagueClient


@renders(Kind.NOTICE)
async def notice(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    record = await attendance.notice_record(bot.db, ref_id(item.ref, NOTICE) or 0)
    if record is None:
        return nothing(f"{item.ref} does not exist")
    return Outgoing([delivery.notice(record, data.get("event", "given"))])


@renders(Kind.SKIP)
async def skip(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    skipped = skip_from_data(data)
    return Outgoing(calendar.skip_announcement(skipped), mentions=calendar.pings(skipped))


@renders(Kind.POST)
async def post(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    # A groupings post carries its night's attendance buttons (on its last message).
    view = attendance_view(int(data["attendance"])) if "attendance" in data else None
    if "embeds" in data:  # frozen when it was owed: a re-send is the same post
        return in_embeds([[discord.Embed.from_dict(e) for e in message]
                          for message in data["embeds"]], view=view)  # fmt: skip
    return Outgoing(render.chunks(data["text"]), view=view)


@renders(Kind.ATTENDANCE, Kind.ATTENDANCE_UPDATE)
async def attendance_board_post(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    """R2: a night's attendance board, posted or edited as the night stands when sent."""
    found = await attendance_board.shown(bot.db, item.guild_id, ref_id(item.ref, BOARD) or 0)
    if found is None:
        return nothing(f"{item.ref} does not exist")
    title, text = attendance_text.board(found)
    shown = in_embeds([[discord.Embed(title=title, description=text)]], view=board_view(found))
    edit = item.kind == Kind.ATTENDANCE_UPDATE
    return post_or_edit(shown, edit, found.message_id, "the night as it stands")


@renders(Kind.REMINDER)
async def reminder(bot: LeagueClient, item: OutboxItem, data: dict[str, Any]) -> Outgoing:
    """A reminder the member asked for (/remind), worded as it was owed; on league
    day with the buttons to say they are late or cannot come."""
    if not await reminders.still_due(bot.db, item.guild_id, int(item.target[3:]), data):
        return nothing("the reminder no longer holds")  # a notice given, a score in, …
    view = attendance_view(int(data["night"])) if data.get("kind") == "league_day" else None
    return Outgoing([reminders_text.reminder(data)], view=view)


@renders(Kind.ALERT)
async def alert(bot: LeagueClient, item: OutboxItem, _: dict[str, Any]) -> Outgoing:
    """The posts refused since the last alert: each told once."""
    failed, weeks = await outbox.untold(bot.db, item.guild_id)
    if not failed:
        return nothing("no refused post is left untold")
    return Outgoing(render.chunks(delivery.alert(failed, weeks)),
                    told=tuple(f.id for f in failed))  # fmt: skip
