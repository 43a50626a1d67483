"""Message text about the calendar: a skipped date (R1.2)."""

from __future__ import annotations

import discord

from bot.models import Night
from bot.services.outcomes.notices import DateSkipped, WithdrawnNotice
from bot.ui.render import chunks

NOTICE_KINDS = {"late": "late notice", "absent": "absence"}  # a notice, as a person says it


def night_name(night: Night) -> str:
    """'week 3', or 'playoff night' (R13.4)."""
    return "playoff night" if night.kind == "playoff" else f"week {night.week}"


def who(notice: WithdrawnNotice) -> str:
    """A mention when the player has a Discord account, else their name."""
    player = notice.player
    return f"<@{player.discord_id}>" if player.discord_id is not None else f"**{player.name}**"


def skip_announcement(skipped: DateSkipped) -> list[str]:
    """The announcement, one post unless very many players are told: no league
    night on the date, and each player whose notice for it is withdrawn,
    mentioned (R1.2)."""
    reason = f": {skipped.reason}" if skipped.reason else ""
    lines = [f"No league night on {skipped.day:%A %d %B}{reason}."]
    for notice in skipped.withdrawn:
        lines.append(
            f"{who(notice)}, your {NOTICE_KINDS[notice.kind]} for that date is withdrawn; "
            "nothing to do."
        )
    for notice in skipped.stranded:
        lines.append(
            f"{who(notice)}, {notice.day:%A %d %B} is no longer a league night, so your "
            f"{NOTICE_KINDS[notice.kind]} for it is withdrawn; nothing to do."
        )
    if skipped.kept:
        lines.append("Late notices and absences given for later dates stay with their dates.")
    return chunks("\n".join(lines))


def skip_reply(skipped: DateSkipped) -> str:
    """The commissioner's reply: the new calendar and what happened to notices."""
    listed = ", ".join(f"{n.week}: {n.date:%d %b}" for n in skipped.nights)
    text = f"{skipped.day:%d %B} is skipped. Nights now: {listed}."
    withdrawn = len(skipped.withdrawn) + len(skipped.stranded)
    if withdrawn:
        text += (
            f"\n{_count(withdrawn)} withdrawn (the players are told in the announcements channel)."
        )
    if skipped.kept:
        text += f"\n{_count(skipped.kept)} for later dates kept with their dates."
    return text


def pings(skipped: DateSkipped) -> discord.AllowedMentions:
    """The announcement pings the players it tells, and nobody else (the bot's
    mentions are otherwise off)."""
    ids = [n.player.discord_id for n in [*skipped.withdrawn, *skipped.stranded]]
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(i) for i in dict.fromkeys(ids) if i is not None],
    )


def _count(number: int) -> str:
    plural = "s" if number != 1 else ""
    return f"{number} late notice{plural} or absence{plural}"
