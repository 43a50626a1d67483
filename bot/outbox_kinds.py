"""The outbox's vocabulary: what an owed message is (its `Kind`) and what it is
about (its ref, 'card:4', 'night:5'). Services owe messages by these names;
the sender has exactly one renderer per kind (`bot/delivery/`), and a test
fails when a kind has none. Stored as text (migrations/0004_outbox.sql)."""

from __future__ import annotations

from datetime import date
from enum import StrEnum


class Kind(StrEnum):
    APPROVAL = "approval"  # an approval card posted: a group's, or a player's day of pre-makeups
    APPROVAL_UPDATE = "approval_update"  # that card edited as it stands (coalesced)
    PHOTO = "photo"  # a score's photo, the league's copy, which its card links to
    SCORE_REJECTED = "score_rejected"  # the player told privately why (a DM)
    RESULTS = "results"  # a finalized night's results
    STANDINGS = "standings"  # the standings after it, with the picture
    PRIZES = "prizes"  # the season's prize shares, after its last night
    SEASON_SUMMARY = "season_summary"  # champions, high scores, most improved
    NOTICE = "notice"  # the commissioner's copy of a late notice or absence
    SKIP = "skip"  # a skipped date announced, with the notices it withdrew
    POST = "post"  # a scheduled post (groupings, cutoff, lock, grace), frozen when owed
    ALERT = "alert"  # the commissioner told of posts Discord refused
    PLAYOFF_FORMAT = "playoff_format"  # the playoffs' format changed after it was made known
    PLAYOFF_NIGHT = "playoff_night"  # playoff night and its field announced, or its date moved
    PLAYOFF_STARTED = "playoff_started"  # playoff night under way: its groups and machines
    PLAYOFF_RESULT = "playoff_result"  # a division's playoff places, its champion first
    SEASON_CLOSED = "season_closed"  # a season closed before its end, or opened again
    PLAYOFF_MATCH = "playoff_match"  # a bracket match decided (or corrected), the bracket after it
    MATCH_CARD = "match_card"  # a bracket match's card posted, with its buttons
    MATCH_CARD_UPDATE = "match_card_update"  # that card edited as the match stands (coalesced)
    ATTENDANCE = "attendance"  # a league night's attendance board, for the commissioner
    ATTENDANCE_UPDATE = "attendance_update"  # that board edited as the night stands (coalesced)
    REMINDER = "reminder"  # a reminder a member asked for (/remind), by DM, never instead in public
    GROUP_THREAD = "group_thread"  # a group's thread on league night, made with its first message
    THREAD_SCORE = "thread_score"  # an approved score, posted in its group's thread


# The edits of a posted message: each message's edits have a lane of their own,
# after its post; a waiting edit is coalesced with a later one of the same message.
EDITS = (Kind.APPROVAL_UPDATE, Kind.MATCH_CARD_UPDATE, Kind.ATTENDANCE_UPDATE)


# What a ref names: '<prefix>:<id>'.
CARD, NIGHT, SCORE, PRE_MAKEUP, PHOTO, NOTICE, SKIP, MATCH_CARD, BOARD = (
    "card", "night", "score", "premakeup", "photo", "notice", "skip", "matchcard", "board",
)  # fmt: skip


def card_ref(card_id: int) -> str:
    return f"{CARD}:{card_id}"


def match_card_ref(card_id: int) -> str:
    return f"{MATCH_CARD}:{card_id}"


def board_ref(night_id: int) -> str:
    """A league night's attendance board."""
    return f"{BOARD}:{night_id}"


def night_ref(night_id: int) -> str:
    return f"{NIGHT}:{night_id}"


def score_ref(score_id: int) -> str:
    return f"{SCORE}:{score_id}"


def pre_makeup_ref(pre_makeup_id: int) -> str:
    return f"{PRE_MAKEUP}:{pre_makeup_id}"


def photo_ref(score_id: int) -> str:
    return f"{PHOTO}:{score_id}"


def notice_ref(notice_id: int) -> str:
    return f"{NOTICE}:{notice_id}"


def skip_ref(day: date) -> str:
    return f"{SKIP}:{day.isoformat()}"


def ref_id(ref: str, prefix: str) -> int | None:
    """The number in a ref of `prefix` ('card:4' -> 4), else None."""
    head, _, tail = ref.partition(":")
    return int(tail) if head == prefix and tail.isdigit() else None
