"""Score submission, approval and the commissioner's changes (R5.4, R12)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import Game, Group, Night, Score, ScoreChange
from bot.repositories import leagues, nights, people, scores
from bot.scoring import RuleError, changed_score
from bot.services.context import (
    SeasonContext,
    check_week,
    player_of,
    player_of_night,
    season_of,
    stamp,
    valid_score,
)
from bot.services.errors import AlreadyDecided, BadInput, NotAllowed, NotFound, WrongState
from bot.services.finalize import NightSummary, check_still_open, refinalize_in
from bot.services.outbox import owe_approval, owe_update
from bot.services.outcomes import Approval, ScoreView
from bot.services.season import group_at, group_label, group_of, parse_group_label


async def _current_night(conn: aiosqlite.Connection, ctx: SeasonContext) -> Night:
    locked = [n for n in await leagues.nights(conn, ctx.season.id) if n.status == "locked"]
    if not locked:
        raise WrongState(
            "Scores open once tonight's games are set: the commissioner locks the picks first."
        )
    return locked[0]


async def _view(conn: aiosqlite.Connection, score: Score) -> ScoreView:
    game = await nights.game_by_id(conn, score.game_id)
    player = await people.player_by_id(conn, score.player_id)
    assert game is not None and player is not None
    night = await leagues.night_by_id(conn, await nights.night_of_group(conn, game.group_id))
    assert night is not None
    group = next(g for g in await nights.groups(conn, night.id) if g.id == game.group_id)
    return ScoreView(score, player, game, night, group_label(group))


async def my_games(db: Database, guild_id: int, discord_id: int) -> list[Game]:
    """Tonight's games of the user's group (for `/score` autocomplete)."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        player = await player_of(conn, ctx.league, discord_id)
        night = await _current_night(conn, ctx)
        group = group_of(await nights.groups(conn, night.id), player.id)
        return await nights.games(conn, group.id) if group is not None else []


async def submit(
    db: Database,
    guild_id: int,
    submitter: int,
    game_number: int,
    score: int,
    *,
    player: int | None = None,
    now: datetime,
) -> ScoreView:
    """A player (or a member of their group) submits a score for one of
    tonight's games of their group; it waits for the commissioner's approval."""
    valid_score(score)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        me = await player_of(conn, ctx.league, submitter)
        night = await _current_night(conn, ctx)
        groups = await nights.groups(conn, night.id)
        group = group_of(groups, me.id)
        if group is None:
            raise NotAllowed(f"You are not in a group in week {night.week}.")
        target = me
        if player is not None and player != submitter:
            target = await people.player_by_discord(conn, ctx.league.id, player) or me
            if target is me or target.removed or target.id not in group.members:
                raise NotAllowed(
                    "You can only submit scores for players of your own group "
                    f"({group_label(group)})."
                )
        game = await _game_numbered(conn, group, game_number)
        live = await scores.live_score(conn, game.id, target.id)
        if live is not None and live.status == "pending":
            raise WrongState(
                f"{target.name} already has a score on game {game.number} waiting for approval "
                f"({live.score:,}). The commissioner can reject it, then submit again."
            )
        if live is not None:
            raise WrongState(
                f"{target.name}'s score on game {game.number} ({live.score:,}) is approved; "
                "ask the commissioner to correct it."
            )
        # A player marked absent who plays after all is no longer absent (R2.3-R2.4).
        # Only they can say so: a group mate's score must not take back their absence.
        notice = next(
            (n for n in await nights.notices(conn, night.id) if n.player_id == target.id), None
        )
        if notice is not None and notice.kind == "absent" and target is not me:
            raise WrongState(
                f"{target.name} is absent tonight (week {night.week}), so their games are "
                f"scored from pre-makeups. If {target.name} came after all, {target.name} "
                "submits their own score, which takes the absence back."
            )
        if notice is not None and notice.kind == "absent":
            await nights.withdraw_notice(conn, night.id, target.id, stamp(now))
        score_id = await scores.add_score(conn, game.id, target.id, score, submitter, stamp(now))
        # Owed with the score: a pending score always has its approval post.
        await owe_approval(conn, guild_id, f"score:{score_id}", now=now)
        stored = Score(score_id, game.id, target.id, score, "pending", submitter, None, None)
        return ScoreView(stored, target, game, night, group_label(group))


async def _game_numbered(conn: aiosqlite.Connection, group: Group, number: int) -> Game:
    games = await nights.games(conn, group.id)
    for game in games:
        if game.number == number:
            return game
    listed = ", ".join(f"{g.number} · {g.machine}" for g in games)
    raise NotFound(f"Game {number} is not one of your group's games tonight ({listed}).")


async def decide(
    db: Database,
    guild_id: int,
    score_id: int,
    approve: bool,
    *,
    by: int,
    now: datetime,
    update_post: bool = True,
) -> ScoreView:
    """Approve or reject a pending score, exactly once. The approval post is
    brought up to date through the outbox, unless `update_post` is False (a
    click on its own buttons edits it in the click's answer)."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        score = await scores.score_by_id(conn, score_id)
        if score is None:
            raise NotFound("That score does not exist.")
        view = await _view(conn, score)
        if view.night.season_id != ctx.season.id:
            raise NotFound("That score belongs to another season.")
        status = "approved" if approve else "rejected"
        if not await scores.decide(conn, score.id, status, by, stamp(now)):
            raise AlreadyDecided(f"That score was already {score.status}; nothing changed.")
        if update_post:
            await owe_update(conn, guild_id, f"score:{score.id}", now=now)
        decided = await scores.score_by_id(conn, score.id)
        assert decided is not None
        return await _view(conn, decided)


async def approve_all(
    db: Database, guild_id: int, group: str, *, by: int, now: datetime
) -> list[ScoreView]:
    """Approve every pending score of one group tonight ("1", "A1", "B2")."""
    label = group.strip().upper()
    pool, position = parse_group_label(group)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _current_night(conn, ctx)
        found = group_at(await nights.groups(conn, night.id), pool, position)
        if found is None:
            raise NotFound(f"There is no group {label} in week {night.week}.")
        decided = []
        for score in await scores.live_scores_of_group(conn, found.id):
            if score.status == "pending" and await scores.decide(
                conn, score.id, "approved", by, stamp(now)
            ):
                await owe_update(conn, guild_id, f"score:{score.id}", now=now)
                again = await scores.score_by_id(conn, score.id)
                assert again is not None
                decided.append(await _view(conn, again))
        return decided


async def pending(db: Database, guild_id: int) -> list[ScoreView]:
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _current_night(conn, ctx)
        return [await _view(conn, s) for s in await scores.pending_of_night(conn, night.id)]


async def set_message(db: Database, score_id: int, message_id: int) -> None:
    async with db.transaction() as conn:
        await scores.set_message(conn, score_id, message_id)


async def approval(db: Database, score_id: int) -> Approval | None:
    """A score's approval post as it stands now (None: no such score)."""
    async with db.read() as conn:
        score = await scores.score_by_id(conn, score_id)
        if score is None:
            return None
        view = await _view(conn, score)
        decider = None
        if score.decided_by is not None:
            decider = await people.player_by_discord(conn, view.player.league_id, score.decided_by)
        return Approval(
            view, None, score.decided_by, decider.name if decider else None,
        )  # fmt: skip


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
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        night = await leagues.night_by_week(conn, ctx.season.id, check_week(week, ctx))
        if night is None or night.status == "scheduled":
            raise WrongState(f"Week {week} has not been played.")
        refinalize = night.status == "finalized"
        if refinalize:
            await check_still_open(conn, ctx, night)
        player = await player_of_night(conn, ctx.league, night, player_name)
        group = group_of(await nights.groups(conn, night.id), player.id)
        if group is None:
            raise NotFound(f"{player.name} did not play in week {week}.")
        game = await _game_numbered(conn, group, game_number)
        live = await scores.live_score(conn, game.id, player.id)
        old = live.score if live is not None else None
        new_score = changed_score(kind, old, new_score)  # R12.1-R12.3
        if live is not None and live.status == "pending":
            await scores.decide(conn, live.id, "rejected", by, stamp(now))
            await owe_update(conn, guild_id, f"score:{live.id}", now=now)
        elif live is not None:
            await scores.supersede(conn, live.id)
        score_id = await scores.add_score(
            conn, game.id, player.id, new_score, by, stamp(now), approved_by=by
        )
        change_id = await scores.record_change(
            conn, game.id, player.id, old, new_score, kind, reason, by, stamp(now)
        )
        summary = await refinalize_in(conn, ctx, night, by=by, now=now) if refinalize else None
        stored = await scores.score_by_id(conn, score_id)
        assert stored is not None
        recorded = next(c for c in await scores.changes_of_season(conn, ctx.season.id)
                        if c.id == change_id)  # fmt: skip
        return ScoreChanged(recorded, await _view(conn, stored), summary)


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
        night = await leagues.night_by_week(conn, ctx.season.id, check_week(week, ctx))
        if night is None or night.status == "scheduled":
            raise WrongState(f"Week {week} has not been played.")
        if night.status == "finalized":
            await check_still_open(conn, ctx, night)
        found = [await player_of_night(conn, ctx.league, night, name) for name in players]
        if len(found) < 2:
            raise BadInput("Name at least two tied players, highest placed first.")
        if len({p.id for p in found}) < len(found):
            raise BadInput("Name each tied player once, highest placed first.")
        group = group_of(await nights.groups(conn, night.id), found[0].id)
        if group is None or any(p.id not in group.members for p in found):
            raise BadInput("The tied players must all be in the same group.")
        game = await _game_numbered(conn, group, game_number)
        await nights.set_tie_order(conn, game.id, [p.id for p in found])
        if night.status == "finalized":
            return await refinalize_in(conn, ctx, night, by=by, now=now)
        return None
