"""The commissioner's approvals: a score or a pre-makeup score approved or
rejected, once, by one workflow (R3.1, R5); a group's waiting scores approved
together; the scores still waiting; an approval as it stands (the words of a rejection notice).

A decision is taken exactly once (a second one changes nothing and says what
the first was), a rejection keeps the commissioner's reason and owes the
player a private notice, and every message that shows the score is brought
up to date through the outbox in the same transaction."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import Player, PreMakeup
from bot.outbox_kinds import Kind, card_ref, pre_makeup_ref, score_ref
from bot.repositories import nights, people, scores
from bot.services import group_threads, playoff_play
from bot.services.card_posts import owe_card_update
from bot.services.context import SeasonContext, season_of, stamp
from bot.services.errors import AlreadyDecided, BadInput, NotFound
from bot.services.outbox import owe, owe_update
from bot.services.outcomes.scores import Approval, PreMakeupView, ScoreView
from bot.services.scores import current_night, score_view
from bot.services.season import group_at, parse_group_label
from bot.text import text_problem

REASON_LIMIT = 300  # characters (migrations/0007_cards.sql)


def check_reason(reason: str | None) -> str | None:
    """A rejection's reason as stored: trimmed, None when not given."""
    if reason is None or not reason.strip():
        return None
    reason = " ".join(reason.split())
    if len(reason) > REASON_LIMIT:
        raise BadInput(f"The reason is too long (at most {REASON_LIMIT} characters).")
    if problem := text_problem(reason):
        raise BadInput(f"The reason {problem}; type it again.")
    return reason


@dataclass(frozen=True)
class _Decision:
    """One approval or rejection, whatever it decides."""

    already: str  # the refusal of a second decision, which says what the first was
    ref: str  # the outbox ref of the rejection notice ("score:12", "premakeup:3")
    player: Player | None  # whose score it is, told of a rejection
    store: Callable[[str, str | None], Awaitable[bool]]  # (status, reason) -> taken
    shown: Callable[[], Awaitable[None]]  # its card owed an update


async def _decide(
    conn: aiosqlite.Connection,
    guild_id: int,
    decision: _Decision,
    approve: bool,
    *,
    now: datetime,
    reason: str | None,
) -> None:
    """The workflow both kinds share: the reason checked, the decision stored
    once, its messages owed an update, and the player told of a rejection."""
    why = None if approve else check_reason(reason)
    if not await decision.store("approved" if approve else "rejected", why):
        raise AlreadyDecided(decision.already)
    await decision.shown()
    if not approve and decision.player is not None and decision.player.discord_id is not None:
        target = f"dm:{decision.player.discord_id}"
        await owe(conn, guild_id, target, Kind.SCORE_REJECTED, decision.ref, now=now)


async def decide_score(
    db: Database,
    guild_id: int,
    score_id: int,
    approve: bool,
    *,
    by: int,
    now: datetime,
    reason: str | None = None,
) -> ScoreView:
    """Approve or reject a pending score, exactly once; its group's scorecard
    is brought up to date through the outbox. A rejection keeps the
    commissioner's `reason` and owes the player a notice."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        return await decide_score_in(
            conn, ctx, guild_id, score_id, approve,
            by=by, now=now, reason=reason,
        )  # fmt: skip


async def decide_score_in(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    guild_id: int,
    score_id: int,
    approve: bool,
    *,
    by: int,
    now: datetime,
    reason: str | None = None,
) -> ScoreView:
    """`decide_score` inside the caller's transaction."""
    score = await scores.score_by_id(conn, score_id)
    if score is None:
        raise NotFound("That score does not exist.")
    view = await score_view(conn, score)
    if view.night.season_id != ctx.season.id:
        raise NotFound("That score belongs to another season.")

    async def store(status: str, why: str | None) -> bool:
        return await scores.decide(conn, score.id, status, by, stamp(now), why)

    async def shown() -> None:
        await owe_card_update(conn, guild_id, view.game.group_id, now=now)

    already = f"That score was already {score.status}; nothing changed."
    decision = _Decision(already, score_ref(score.id), view.player, store, shown)
    await _decide(conn, guild_id, decision, approve, now=now, reason=reason)
    if approve:  # R13.6: the last playoff score of a group decides its places
        await playoff_play.decide_in(conn, ctx, view.night, now=now)
        await group_threads.owe_score(conn, guild_id, view.game.group_id, score.id, now=now)
    decided = await scores.score_by_id(conn, score.id)
    assert decided is not None
    return await score_view(conn, decided)


async def decide_pre_makeup(
    db: Database,
    guild_id: int,
    pre_makeup_id: int,
    approve: bool,
    *,
    by: int,
    now: datetime,
    reason: str | None = None,
) -> PreMakeup:
    """The commissioner approves or rejects a pre-makeup score (R3.1), as
    `decide_score` does a score."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        return await decide_pre_makeup_in(
            conn, ctx, guild_id, pre_makeup_id, approve,
            by=by, now=now, reason=reason,
        )  # fmt: skip


async def decide_pre_makeup_in(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    guild_id: int,
    pre_makeup_id: int,
    approve: bool,
    *,
    by: int,
    now: datetime,
    reason: str | None = None,
) -> PreMakeup:
    """`decide_pre_makeup` inside the caller's transaction."""
    record = await people.pre_makeup_by_id(conn, pre_makeup_id)
    if record is None or record.season_id != ctx.season.id:
        raise NotFound("That pre-makeup score does not exist in this season.")

    async def store(status: str, why: str | None) -> bool:
        return await people.decide_pre_makeup(conn, record.id, status, by, stamp(now), why)

    async def shown() -> None:
        if record.card_id is not None:  # a pending pre-makeup always has its day's card
            await owe_update(conn, guild_id, card_ref(record.card_id), now=now)

    player = await people.player_by_id(conn, record.player_id)
    already = f"That pre-makeup score was already {record.status}."
    decision = _Decision(already, pre_makeup_ref(record.id), player, store, shown)
    await _decide(conn, guild_id, decision, approve, now=now, reason=reason)
    decided = await people.pre_makeup_by_id(conn, record.id)
    assert decided is not None
    return decided


async def approve_all(db: Database, guild_id: int, group: str, *, by: int, now: datetime) -> int:
    """Approve every pending score of one group tonight ("1", "A1", "B2");
    returns how many."""
    label = group.strip().upper()
    pool, position = parse_group_label(group)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await current_night(conn, ctx)
        found = group_at(await nights.groups(conn, night.id), pool, position)
        if found is None:
            when = "on playoff night" if night.kind == "playoff" else f"in week {night.week}"
            raise NotFound(f"There is no group {label} {when}.")
        decided = 0
        for score in await scores.live_scores_of_group(conn, found.id):
            if score.status == "pending" and await scores.decide(
                conn, score.id, "approved", by, stamp(now)
            ):
                await owe_card_update(conn, guild_id, found.id, now=now)
                await group_threads.owe_score(conn, guild_id, found.id, score.id, now=now)
                decided += 1
        await playoff_play.decide_in(conn, ctx, night, now=now)  # R13.6 on playoff night
        return decided


async def pending(db: Database, guild_id: int) -> list[ScoreView]:
    """Tonight's scores waiting for approval."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        night = await current_night(conn, ctx)
        return [await score_view(conn, s) for s in await scores.pending_of_night(conn, night.id)]


async def score_approval(db: Database, score_id: int) -> Approval | None:
    """A score's approval post as it stands now (None: no such score)."""
    async with db.read() as conn:
        score = await scores.score_by_id(conn, score_id)
        if score is None:
            return None
        return Approval(await score_view(conn, score), None)


async def pre_makeup_approval(db: Database, pre_makeup_id: int) -> Approval | None:
    """A pre-makeup score's approval post as it stands now (None: no such score)."""
    async with db.read() as conn:
        record = await people.pre_makeup_by_id(conn, pre_makeup_id)
        if record is None:
            return None
        player = await people.player_by_id(conn, record.player_id)
        machine = await people.machine_by_id(conn, record.machine_id)
        assert player is not None and machine is not None
        present = [
            found
            for pid in await people.witnesses(conn, record.id)
            if (found := await people.player_by_id(conn, pid)) is not None
        ]
        return Approval(None, PreMakeupView(record, player, machine, present))
