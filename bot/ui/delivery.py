"""Message text for the outbox: a pre-makeup score as submitted, a player's
notice (or its withdrawal) as the commissioner reads it, the commissioner's
alerts about refused posts, `/league admin resend` and `/league admin status`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.models import OutboxItem
from bot.services.outcomes.admin import DeliveryStatus, NightShown, Resent
from bot.services.outcomes.notices import NoticeGiven, NoticeRecord, NoticeWithdrawn
from bot.services.outcomes.scores import PreMakeupView
from bot.ui.calendar import NOTICE_KINDS, night_name

WHAT = {  # each kind of outbox item (bot.outbox_kinds.Kind), in words
    "approval": "approval post",
    "approval_update": "update of an approval post",
    "photo": "score photo",
    "score_rejected": "rejected-score notice",
    "results": "results",
    "standings": "standings",
    "prizes": "prize shares",
    "season_summary": "season summary",
    "notice": "notice for the commissioner",
    "skip": "skipped-date announcement",
    "post": "post",
    "alert": "alert to the commissioner",
    "playoff_format": "playoff format announcement",
    "playoff_night": "playoff night announcement",
    "playoff_started": "playoff games",
    "playoff_result": "playoff result",
    "playoff_match": "playoff match",
    "season_closed": "season closed",
    "match_card": "playoff match card",
    "match_card_update": "update of a playoff match card",
    "attendance": "attendance board",
    "attendance_update": "update of the attendance board",
    "reminder": "reminder",
    "group_thread": "group's thread",
    "thread_score": "score in a group's thread",
}
WHERE = {"announcements": "#announcements", "approvals": "#approvals", "commissioners": "DM"}
LISTED = 10  # failed posts listed by name in an alert or the status


def _pre_makeup(view: PreMakeupView) -> str:
    present = ", ".join(w.name for w in view.witnesses)
    return (f"Pre-makeup · {view.machine.name}\n**{view.player.name}**: "
            f"{view.pre_makeup.score:,} (with {present})")  # fmt: skip


def pre_makeup_pending(view: PreMakeupView) -> str:
    """A pre-makeup score as submitted, waiting for its card's decision."""
    return f"{_pre_makeup(view)}\nWaiting for the commissioner."


def notice(record: NoticeRecord, event: str) -> str:
    """The commissioner's copy of a late notice or absence given or taken back."""
    if event == "withdrawn":
        taken = NoticeWithdrawn(record.player, record.night, record.notice.kind)
        return withdrawn_for_commissioner(taken)
    return late_for_commissioner(record)


def what(item: OutboxItem, weeks: Mapping[int, str] | None = None) -> str:
    """'results of week 5 to #announcements', in words (no ids)."""
    about = ""
    head, _, tail = item.ref.partition(":")
    if head == "night" and tail.isdigit() and int(tail) in (weeks or {}):
        about = f" of {(weeks or {})[int(tail)]}"
    where = f"to {WHERE.get(item.target, item.target)}"
    if item.target == "commissioners":
        where = "by DM"
    elif item.target.startswith("dm:"):
        where = f"by DM to <@{item.target[3:]}>"
    return f"{WHAT.get(item.kind, 'post')}{about} {where}"


# What Discord's refusal means, for the commissioner (the status code starts `last_error`).
REFUSALS = {
    "403": "the bot is not allowed to post there",
    "404": "Discord cannot find the channel",
    "400": "Discord refused its content",
}


def why_refused(error: str | None) -> str:
    """A stored refusal ("403 Missing Permissions") in plain words."""
    if not error:
        return "refused"
    if error.startswith("not tried:"):
        return "not tried, as the channel refused an earlier post"
    return REFUSALS.get(error[:3], error)


def _listed(items: Sequence[OutboxItem], weeks: Mapping[int, str] | None = None) -> list[str]:
    lines = [f"- {what(i, weeks)}: {why_refused(i.last_error)}" for i in items[:LISTED]]
    if len(items) > LISTED:
        lines.append(f"- … and {len(items) - LISTED} more")
    return lines


def alert(failed: Sequence[OutboxItem], weeks: Mapping[int, str] | None = None) -> str:
    """To the commissioner: posts Discord refused for good, kept to be sent again."""
    count = len(failed)
    lines = [
        f"Heads-up: Discord refused {count} post{'s' if count != 1 else ''} of the bot. "
        "Nothing is lost: each is kept. Check the bot's permissions in the channel "
        "(View Channel, Send Messages), then use /league admin resend.",
        *_listed(failed, weeks),
    ]
    return "\n".join(lines)


def resent(done: Resent) -> str:
    """The commissioner's reply to /league admin resend."""
    parts = []
    count = len(done.requeued)
    if count:
        parts.append(f"{count} failed post{'s' if count != 1 else ''} will be sent again.")
    if done.night is not None:
        parts.append(f"Week {done.night.week}'s results and standings will be posted again.")
    if not parts:
        return "No failed posts to send again. Name a week to post its results again."
    return " ".join(parts) + " No score, result or audit entry changed."


def status(
    *,
    version: str,
    database: str,
    delivery: DeliveryStatus,
    next_posts: Sequence[tuple[str, datetime | None]],
    checks: Mapping[str, str | None],
) -> str:
    """/league admin status: the bot, its database, the outbox, the schedule, the channels."""
    waiting = len(delivery.waiting)
    retrying = sum(1 for i in delivery.waiting if i.attempts > 0)
    lines = [
        f"**League bot {version}**",
        f"Database: {database} (schema version {delivery.schema})",
        f"Posts waiting: {waiting}"
        + (f" ({retrying} being retried)" if retrying else "")
        + f" · failed: {len(delivery.failed)} · sent: {delivery.delivered}",
        *_listed(delivery.failed, delivery.weeks),
        "Next scheduled posts:",
    ]
    shown = [(name, when) for name, when in next_posts if when is not None]
    lines += [f"- {name}: <t:{int(when.timestamp())}:F>" for name, when in sorted(
        shown, key=lambda item: item[1])] or ["- none scheduled"]  # fmt: skip
    lines.append("Channels:")
    for role, result in checks.items():
        lines.append(f"- {role}: {result if result is not None else 'not checked yet'}")
    return "\n".join(lines)


def with_nights(status: str, night: NightShown | None, checks: Sequence[str]) -> str:
    """The status, the league's weekday and times, and what the league's nights
    ask of the bot in Discord (/setup-night)."""
    lines = [status]
    if night is not None and night.league is not None:
        league = night.league
        weekday = night.season_weekday or night.weekday
        lines.append(
            f"League nights: {weekday}s · groupings {league.groupings_time:%H:%M} · late "
            f"notices by {league.late_cutoff:%H:%M} · play {league.play_time:%H:%M}"
        )
    if checks:
        lines += ["League nights in Discord:", *(f"- {c}" for c in checks)]
    return "\n".join(lines)


def withdrawn_for_commissioner(taken: NoticeWithdrawn) -> str:
    """The approvals channel, where the notice itself was posted."""
    what = NOTICE_KINDS[taken.kind]
    return f"{taken.player.name}: took back their {what} for {night_name(taken.night)}"


def late_for_commissioner(given: NoticeGiven | NoticeRecord) -> str:
    what = "late" if given.notice.kind == "late" else "absent"
    minutes = f", about {given.notice.minutes} min" if given.notice.minutes else ""
    note = f" — “{given.notice.note}”" if given.notice.note else ""
    timing = given.notice.timing.replace("_", " ")
    when = night_name(given.night)
    return f"{given.player.name}: {what} for {when}{minutes} ({timing}){note}"
