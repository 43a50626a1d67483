"""Score submission, approval and the commissioner's changes (R5.4, R12)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import Game, Group, Night, Photo, Player, Score, ScoreChange
from bot.repositories import leagues, nights, people, scores
from bot.scoring import RuleError, changed_score
from bot.services import photos
from bot.services.cards import owe_card_update, owe_group_card, owe_score_shown
from bot.services.context import (
    SeasonContext,
    check_week,
    player_of,
    player_of_night,
    season_of,
    stamp,
    valid_score,
)
from bot.services.errors import (
    AlreadyDecided,
    BadInput,
    LeagueError,
    NotAllowed,
    NotFound,
    WrongState,
)
from bot.services.finalize import check_still_open, refinalize_in
from bot.services.outbox import owe
from bot.services.outcomes import Approval, NightSummary, ScoreView
from bot.services.season import group_at, group_label, group_of, parse_group_label
from bot.text import text_problem

PHOTO_REQUIRED = (
    "This league asks for a photo of the score display with each score: "
    "add it with `/score photo:`."
)


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
    photo: Photo | None = None,
    now: datetime,
) -> ScoreView:
    """A player (or a member of their group) submits a score for one of
    tonight's games of their group; it waits for the commissioner's approval.
    `photo`: the cleaned photo of the score display (which the season may
    require), kept with the score in the same transaction."""
    valid_score(score)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        if ctx.rules.photo_required and photo is None:
            raise BadInput(PHOTO_REQUIRED)
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
        return await _store(conn, guild_id, night, group, game, target, me, score, photo, now)


async def _store(
    conn: aiosqlite.Connection,
    guild_id: int,
    night: Night,
    group: Group,
    game: Game,
    target: Player,
    me: Player,
    score: int,
    photo: Photo | None,
    now: datetime,
) -> ScoreView:
    """One pending score, after the checks every submitted score passes: no live
    score yet, and an absent player's games scored only by that player (R2.3-R2.4)."""
    submitter = me.discord_id
    assert submitter is not None
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
    if notice is not None and notice.kind == "absent" and target.id != me.id:
        raise WrongState(
            f"{target.name} is absent tonight (week {night.week}), so their games are "
            f"scored from pre-makeups. If {target.name} came after all, {target.name} "
            "submits their own score, which takes the absence back."
        )
    if notice is not None and notice.kind == "absent":
        await nights.withdraw_notice(conn, night.id, target.id, stamp(now))
    score_id = await scores.add_score(conn, game.id, target.id, score, submitter, stamp(now))
    if photo is not None:  # its post is owed before the card's, which links to it
        await photos.keep(conn, guild_id, score_id, photo, now=now)
    # Owed with the score: a pending score always has its group's card.
    await owe_group_card(conn, guild_id, group.id, now=now)
    stored = Score(score_id, game.id, target.id, score, "pending", submitter, None, None)
    return ScoreView(stored, target, game, night, group_label(group), photo=photo is not None)


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
    reason: str | None = None,
) -> ScoreView:
    """Approve or reject a pending score, exactly once. The messages that show
    it are brought up to date through the outbox, unless `update_post` is False
    (a click on an old per-score post's own buttons edits it in the click's
    answer). A rejection keeps the commissioner's `reason` and owes the player
    a notice."""
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        return await decide_in(
            conn, ctx, guild_id, score_id, approve,
            by=by, now=now, update_post=update_post, reason=reason,
        )  # fmt: skip


async def decide_in(
    conn: aiosqlite.Connection,
    ctx: SeasonContext,
    guild_id: int,
    score_id: int,
    approve: bool,
    *,
    by: int,
    now: datetime,
    update_post: bool = True,
    reason: str | None = None,
) -> ScoreView:
    """`decide` inside the caller's transaction."""
    score = await scores.score_by_id(conn, score_id)
    if score is None:
        raise NotFound("That score does not exist.")
    view = await _view(conn, score)
    if view.night.season_id != ctx.season.id:
        raise NotFound("That score belongs to another season.")
    status = "approved" if approve else "rejected"
    why = None if approve else check_reason(reason)
    if not await scores.decide(conn, score.id, status, by, stamp(now), why):
        raise AlreadyDecided(f"That score was already {score.status}; nothing changed.")
    if update_post:
        await owe_score_shown(conn, guild_id, score, view.game.group_id, now=now)
    else:  # the click's answer edits its own post; the group's card shows it too
        await owe_card_update(conn, guild_id, view.game.group_id, now=now)
    if not approve and view.player.discord_id is not None:
        target = f"dm:{view.player.discord_id}"
        await owe(conn, guild_id, target, "score_rejected", f"score:{score.id}", now=now)
    decided = await scores.score_by_id(conn, score.id)
    assert decided is not None
    return await _view(conn, decided)


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
                await owe_score_shown(conn, guild_id, score, found.id, now=now)
                again = await scores.score_by_id(conn, score.id)
                assert again is not None
                decided.append(await _view(conn, again))
        return decided


async def pending(db: Database, guild_id: int) -> list[ScoreView]:
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        night = await _current_night(conn, ctx)
        return [await _view(conn, s) for s in await scores.pending_of_night(conn, night.id)]


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
    if problem := text_problem(reason, line_breaks=True):
        raise BadInput(f"The reason {problem}; type it again.")
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
            await scores.decide(conn, live.id, "rejected", by, stamp(now), reason[:300])
        elif live is not None:
            await scores.supersede(conn, live.id)
        if live is not None:  # its messages show the change (the card shows the new score)
            await owe_score_shown(conn, guild_id, live, group.id, now=now)
        else:
            await owe_card_update(conn, guild_id, group.id, now=now)
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


@dataclass(frozen=True)
class FormField:
    """One field of a score form: a game of the player's group and whose score it is."""

    label: str  # "Game 1 · Attack from Mars" or the player's name
    game_number: int
    player_id: int


FORM_FIELDS = 5  # Discord: at most five text inputs in a modal


async def form(
    db: Database, guild_id: int, discord_id: int, game_number: int | None = None
) -> tuple[str, list[FormField]]:
    """The score form a player may open tonight: without `game_number`, their own
    remaining games (at most five); with it, that game of their group, one field
    per member with no score on it yet who is not marked absent. Returns the
    form's title and its fields; refuses when there is nothing to enter."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        if ctx.rules.photo_required:
            raise WrongState(PHOTO_REQUIRED.replace("score:", "score, which a form cannot carry:"))
        me = await player_of(conn, ctx.league, discord_id)
        night = await _current_night(conn, ctx)
        group = group_of(await nights.groups(conn, night.id), me.id)
        if group is None:
            raise NotAllowed(f"You are not in a group in week {night.week}.")
        if game_number is None:
            fields = []
            for game in await nights.games(conn, group.id):
                if await scores.live_score(conn, game.id, me.id) is None:
                    label = f"Game {game.number} · {game.machine}"
                    fields.append(FormField(label, game.number, me.id))
            if not fields:
                raise WrongState(f"You have a score on every game of week {night.week}.")
            return f"Your scores · week {night.week}", fields[:FORM_FIELDS]
        game = await _game_numbered(conn, group, game_number)
        absent = {n.player_id for n in await nights.notices(conn, night.id) if n.kind == "absent"}
        fields = []
        for member_id in group.members:
            member = await people.player_by_id(conn, member_id)
            if member is None or member.removed or (member.id in absent and member.id != me.id):
                continue
            if await scores.live_score(conn, game.id, member.id) is None:
                fields.append(FormField(member.name, game.number, member.id))
        if not fields:
            raise WrongState(f"Everyone in {group_label(group)} has a score on game {game.number}.")
        return f"Game {game.number} · {game.machine}", fields[:FORM_FIELDS]


async def submit_form(
    db: Database,
    guild_id: int,
    submitter: int,
    entries: list[tuple[FormField, int]],
    *,
    now: datetime,
) -> list[ScoreView]:
    """A submitted score form: every (field, score) stored in ONE transaction,
    each checked as `/score` checks it, or none at all. A refusal names its field."""
    if not entries:
        raise BadInput("The form was empty: nothing was stored.")
    stored: list[ScoreView] = []
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        if ctx.rules.photo_required:
            raise WrongState(PHOTO_REQUIRED)
        me = await player_of(conn, ctx.league, submitter)
        night = await _current_night(conn, ctx)
        group = group_of(await nights.groups(conn, night.id), me.id)
        if group is None:
            raise NotAllowed(f"You are not in a group in week {night.week}.")
        for field, score in entries:
            try:
                valid_score(score)
                target = await people.player_by_id(conn, field.player_id)
                if target is None or target.removed or target.id not in group.members:
                    raise NotAllowed(f"{field.label} is not in your group tonight.")
                game = await _game_numbered(conn, group, field.game_number)
                stored.append(
                    await _store(conn, guild_id, night, group, game, target, me, score, None, now)
                )
            except LeagueError as error:
                raise type(error)(f"{field.label}: {error} Nothing was stored.") from None
    return stored
