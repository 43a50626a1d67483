"""The commissioner's changes to a score (R12.1-R12.4) and the order of tied
scores (R5.4), on a night still open or already finalized."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import Night, ScoreChange
from bot.repositories import leagues, nights, playoff_nights, scores
from bot.scoring import RuleError, changed_score
from bot.services import group_threads, playoff_play
from bot.services.card_posts import owe_card_update
from bot.services.context import (
    SeasonContext,
    check_week,
    player_of_night,
    season_of,
    stamp,
)
from bot.services.errors import (
    BadInput,
    NotFound,
    WrongState,
)
from bot.services.finalize import check_still_open, refinalize_in
from bot.services.outcomes.night import NightSummary
from bot.services.outcomes.scores import ScoreView
from bot.services.scores import game_numbered, score_view
from bot.services.season import group_of
from bot.text import text_problem


@dataclass(frozen=True)
class ScoreChanged:
    change: ScoreChange
    view: ScoreView
    refinalized: NightSummary | None  # the finalized night's new results


async def change(
    db: Database,
    guild_id: int,
    *,
    week: int,
    player_name: str,
    game_number: int,
    kind: str,
    reason: str,
    new_score: int | None = None,
    by: int,
    now: datetime,
) -> ScoreChanged:
    """R12: a correction, penalty or replay, always with a reason and a trace.

    R12.1 a malfunction replay replaces the score, higher or lower; R12.2 a
    penalty sets it to 0; R12.3 slam-tilt and tilt-away replays keep the higher
    of the two; a correction sets the right number. R12.4: the old and new
    score, who, when and why are kept. A finalized night can be changed until
    the next night's picks lock, and is finalized again in the same
    transaction, so standings follow at once (or nothing changes).
    """
    try:
        changed_score(kind, None, new_score)  # refuse a bad kind or score before any work
    except RuleError as error:
        raise BadInput(str(error)) from None
    reason = reason.strip()
    if not reason:
        raise BadInput("Give a reason; every score change is kept with its reason.")
    if len(reason) > 500:
        raise BadInput("The reason is too long (at most 500 characters).")
    if problem := text_problem(reason, line_breaks=True):
        raise BadInput(f"The reason {problem}; type it again.")
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await night_of_week(conn, ctx, week)
        if night is None or night.status == "scheduled":
            raise WrongState(f"Week {week} has not been played.")
        refinalize = night.status == "finalized" and night.kind == "regular"
        if refinalize:
            await check_still_open(conn, ctx, night)
        player = await player_of_night(conn, ctx.league, night, player_name)
        group = group_of(await nights.groups(conn, night.id), player.id)
        if group is None:
            raise NotFound(f"{player.name} did not play in week {week}.")
        game = await game_numbered(conn, group, game_number)
        live = await scores.live_score(conn, game.id, player.id)
        old = live.score if live is not None else None
        new_score = changed_score(kind, old, new_score)  # R12.1-R12.3
        if live is not None and live.status == "pending":
            await scores.decide(conn, live.id, "rejected", by, stamp(now), reason[:300])
        elif live is not None:
            await scores.supersede(conn, live.id)
        await owe_card_update(conn, guild_id, group.id, now=now)  # the card shows the new score
        score_id = await scores.add_score(
            conn, game.id, player.id, new_score, by, stamp(now), approved_by=by
        )
        change_id = await scores.record_change(
            conn, game.id, player.id, old, new_score, kind, reason, by, stamp(now)
        )
        await group_threads.owe_score(conn, guild_id, group.id, score_id, now=now, corrected=True)
        summary = await refinalize_in(conn, ctx, night, by=by, now=now) if refinalize else None
        await playoff_play.decide_in(conn, ctx, night, now=now)  # R13.6: decided again
        stored = await scores.score_by_id(conn, score_id)
        assert stored is not None
        recorded = next(c for c in await scores.changes_of_season(conn, ctx.season.id)
                        if c.id == change_id)  # fmt: skip
        return ScoreChanged(recorded, await score_view(conn, stored), summary)


async def record_tie_order(
    db: Database,
    guild_id: int,
    *,
    week: int,
    game_number: int,
    players: list[str],
    by: int = 0,
    now: datetime,
) -> NightSummary | None:
    """R5.4: the commissioner records who placed higher among tied scores.

    On a finalized night (until the next night's picks lock) the night is
    finalized again at `now`, so a correction that made a tie can then be applied."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await night_of_week(conn, ctx, week)
        if night is None or night.status == "scheduled":
            raise WrongState(f"Week {week} has not been played.")
        if night.status == "finalized" and night.kind == "regular":
            await check_still_open(conn, ctx, night)
        found = [await player_of_night(conn, ctx.league, night, name) for name in players]
        if len(found) < 2:
            raise BadInput("Name at least two tied players, highest placed first.")
        if len({p.id for p in found}) < len(found):
            raise BadInput("Name each tied player once, highest placed first.")
        group = group_of(await nights.groups(conn, night.id), found[0].id)
        if group is None or any(p.id not in group.members for p in found):
            raise BadInput("The tied players must all be in the same group.")
        game = await game_numbered(conn, group, game_number)
        await nights.set_tie_order(conn, game.id, [p.id for p in found])
        if night.kind == "playoff":  # R13.6: the group is decided once its ties are ordered
            await playoff_play.decide_in(conn, ctx, night, now=now)
            return None
        if night.status == "finalized":
            return await refinalize_in(conn, ctx, night, by=by, now=now)
        return None


async def night_of_week(conn: aiosqlite.Connection, ctx: SeasonContext, week: int) -> Night | None:
    """The regular night of `week`, or playoff night, numbered the week after the
    last regular night (R13.4)."""
    check_week(week, ctx)
    night = await leagues.night_by_week(conn, ctx.season.id, week)
    if night is None:
        finale = await playoff_nights.playoff_night(conn, ctx.season.id)
        night = finale if finale is not None and finale.week == week else None
    return night
