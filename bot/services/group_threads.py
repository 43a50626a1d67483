"""A thread per group on league night (a league setting, /setup-night): when
picks lock, each group's thread is owed to the outbox, opened with its games,
its play order (R11.2) and the pre-makeup scores its absent players stand on
(R3.2: "made available to players in the group"); each of the group's scores
is posted in it as it is approved. The outbox's sender makes the thread
(`bot.delivery.threads`) and records it here; a thread's items go out in the
announcements channel's lane (the channel that holds the threads), in order."""

from __future__ import annotations

import json
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import OutboxItem
from bot.outbox_kinds import Kind, ref_id, score_ref
from bot.repositories import group_threads, scores, server_setups
from bot.services.outbox import ANNOUNCEMENTS, owe
from bot.services.outcomes.scores import ScoreView
from bot.services.scores import score_view

THREAD = "thread"  # the ref of a group's thread: 'thread:<group id>'
THREAD_KINDS = (Kind.GROUP_THREAD, Kind.THREAD_SCORE)


def thread_ref(group_id: int) -> str:
    return f"{THREAD}:{group_id}"


def group_of(item: OutboxItem) -> int | None:
    """The group whose thread an outbox item goes to (None: not a thread's)."""
    if item.kind == Kind.GROUP_THREAD:
        return ref_id(item.ref, THREAD)
    if item.kind == Kind.THREAD_SCORE and item.data:
        group = json.loads(item.data).get("group")
        return group if isinstance(group, int) else None
    return None


async def owe_openings(
    conn: aiosqlite.Connection,
    guild_id: int,
    openings: list[tuple[int, int, str, str]],
    *,
    now: datetime,
) -> int:
    """With the lock post: each group's thread (night id, group id, its name, its
    first message, worded by the caller), when the league has a thread per group."""
    setup = await server_setups.night_of(conn, guild_id)
    if setup is None or not setup.group_threads:
        return 0
    for night_id, group_id, name, text in openings:
        ref = thread_ref(group_id)
        if not await group_threads.owed(conn, guild_id, ref):
            await owe(conn, guild_id, ANNOUNCEMENTS, Kind.GROUP_THREAD, ref,
                      {"night": night_id, "name": name, "text": text}, now=now)  # fmt: skip
    return len(openings)


async def owe_score(
    conn: aiosqlite.Connection,
    guild_id: int,
    group_id: int,
    score_id: int,
    *,
    now: datetime,
    corrected: bool = False,
) -> None:
    """An approved score (or one the commissioner corrected, R12), posted in its
    group's thread (if the group has one)."""
    if await group_threads.owed(conn, guild_id, thread_ref(group_id)):
        await owe(conn, guild_id, ANNOUNCEMENTS, Kind.THREAD_SCORE, score_ref(score_id),
                  {"group": group_id, "corrected": corrected}, now=now)  # fmt: skip


async def thread_of(db: Database, guild_id: int, group_id: int) -> int | None:
    async with db.read() as conn:
        return await group_threads.thread_of(conn, guild_id, group_id)


async def record(db: Database, guild_id: int, night_id: int, group_id: int, thread: int) -> None:
    async with db.transaction() as conn:
        await group_threads.record(conn, guild_id, night_id, group_id, thread)


async def approved_score(db: Database, score_id: int) -> ScoreView | None:
    """The score as it stands, if it is still approved (else nothing is posted)."""
    async with db.read() as conn:
        score = await scores.score_by_id(conn, score_id)
        if score is None or score.status != "approved":
            return None
        return await score_view(conn, score)
