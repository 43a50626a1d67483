"""The keeper of each league's nights in its server's Events: after a command
that changes the season, a date, a time or the venue, after the groupings are
posted, at start and at every sweep of the scheduler, it makes Discord's events what
`bot.services.night_events.wanted` says, creating, editing or deleting only
what differs, and remembers what it sent.

It never stands in the way of the league: without Manage Events (or Create
Events) it does nothing and says so once in the log (the status command and
the start-up check say it to the commissioner, `bot.components.night_checks`);
a refusal or an error is logged with its league and night, and the next round
tries again. An event made just before a stop, but not recorded, is found
among the server's events by its name and start and taken over, not made
twice."""

from __future__ import annotations

import contextlib
import json
import logging
from datetime import datetime
from typing import Any

import discord

from bot.delivery.keeper import Keeper
from bot.services import night_events
from bot.ui.events import event_fields

log = logging.getLogger(__name__)
NO_PERMISSION = "the bot's role lacks Manage Events (Server Settings → Roles)"


class NightEvents(Keeper):
    what = "its league nights' events"

    async def keep(self, guild_id: int) -> None:
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return  # not known yet (before READY) or no longer its server: later
        now = self.clock()
        db = self.bot.db
        events, live = await night_events.wanted(db, guild_id, now)
        wanted = {w.night_id: event_fields(w) for w in events}
        made = await night_events.made(db, guild_id)
        stale = [night for night in made if night not in wanted]
        changed = [n for n in wanted if n not in made or made[n][1] != _shown(wanted[n])]
        if not stale and not changed:
            self.refused.pop(guild_id, None)
            return
        allowed = guild.me.guild_permissions
        if not (allowed.manage_events or allowed.create_events):
            self.refuse(guild_id, NO_PERMISSION)
            return
        for night in stale:  # started (left alone), cut from the season, or no venue
            event_id, shown = made[night]
            ahead = datetime.fromisoformat(json.loads(shown)["scheduled_start_time"]) > now
            if ahead and night not in live:
                with contextlib.suppress(discord.NotFound):  # deleted in Discord already
                    await self.bot.http.delete_scheduled_event(guild_id, event_id)
            await night_events.forget(db, guild_id, night)
        listed: list[dict[str, Any]] = []
        for night in changed:
            event: dict[str, Any] | None
            try:
                event = await self._event(guild_id, made.get(night), wanted[night], listed)
            except discord.HTTPException as error:
                if error.status == 429 or error.status >= 500:
                    raise  # the next round tries again
                # e.g. an event a moderator started or cancelled: kept as it is, said once
                log.warning("server %d: night %d's event is left as it is: %s", guild_id,
                            night, error)  # fmt: skip
                event = {"id": made[night][0]} if night in made else None
            if event is not None:
                await night_events.record(db, guild_id, night, int(event["id"]),
                                          _shown(wanted[night]))  # fmt: skip
        self.refused.pop(guild_id, None)

    async def _event(
        self,
        guild_id: int,
        made: tuple[int, str] | None,
        fields: dict[str, Any],
        listed: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """The night's event, edited (or made, if there is none)."""
        http = self.bot.http
        if made is not None:
            try:
                return dict(await http.edit_scheduled_event(guild_id, made[0], **fields))
            except discord.NotFound:
                pass  # deleted in Discord: made again
        if not listed:
            listed += [dict(e) for e in await http.get_scheduled_events(guild_id, False)]
        adopted = await self._adopted(guild_id, listed, fields)
        if adopted is not None:
            return adopted
        log.info("server %d: a league night is in its Events", guild_id)
        return dict(await http.create_guild_scheduled_event(guild_id, **fields))

    async def _adopted(
        self, guild_id: int, listed: list[dict[str, Any]], fields: dict[str, Any]
    ) -> dict[str, Any] | None:
        """An event the bot made for this night before a stop, not recorded: edited."""
        me = self.bot.user.id if self.bot.user is not None else None
        starts = datetime.fromisoformat(fields["scheduled_start_time"])
        for event in listed:
            same = (
                str(event.get("creator_id")) == str(me)
                and event.get("name") == fields["name"]
                and datetime.fromisoformat(event["scheduled_start_time"]) == starts
            )
            if same:
                listed.remove(event)
                return dict(
                    await self.bot.http.edit_scheduled_event(guild_id, event["id"], **fields)
                )
        return None


def _shown(fields: dict[str, Any]) -> str:
    return json.dumps(fields, sort_keys=True, ensure_ascii=False)
