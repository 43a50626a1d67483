"""Scores entered by players, with `/score` or the score form, on tonight's
games (R5); approving them is `bot.services.approvals`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import Game, Group, Night, Photo, Player, Score
from bot.repositories import leagues, nights, people, playoff_nights, scores
from bot.services import attendance_board, photos
from bot.services.card_posts import owe_group_card
from bot.services.context import (
    SeasonContext,
    player_of,
    season_of,
    stamp,
    valid_score,
)
from bot.services.errors import (
    BadInput,
    LeagueError,
    NotAllowed,
    NotFound,
    WrongState,
)
from bot.services.outcomes.scores import ScoreView
from bot.services.season import group_label, group_of, where_played

PHOTO_REQUIRED = (
    "This league asks for a photo of the score display with each score: "
    "add it with `/score photo:`."
)


BRACKET_SCORES = (
    "Tonight's playoffs are a bracket: the commissioner records both scores of each game "
    "with /playoffs game, and a player picks a match's machine with /playoffs pick."
)


def not_in_group(night: Night) -> str:
    if night.kind == "playoff":
        return "You are not in the playoff field tonight; only its players' scores count."
    return f"You are not in a group in week {night.week}."


async def current_night(conn: aiosqlite.Connection, ctx: SeasonContext) -> Night:
    locked = [n for n in await leagues.nights(conn, ctx.season.id) if n.status == "locked"]
    finale = await playoff_nights.playoff_night(conn, ctx.season.id)
    if not locked and finale is not None and finale.status == "locked":
        if ctx.rules.playoff_format == "bracket":
            raise WrongState(BRACKET_SCORES)
        return finale  # R13.3: playoff night under way
    if not locked:
        raise WrongState(
            "Scores open once tonight's games are set: the commissioner locks the picks first."
        )
    return locked[0]


async def score_view(conn: aiosqlite.Connection, score: Score) -> ScoreView:
    game = await nights.game_by_id(conn, score.game_id)
    player = await people.player_by_id(conn, score.player_id)
    assert game is not None and player is not None
    night = await leagues.night_by_id(conn, await nights.night_of_group(conn, game.group_id))
    assert night is not None
    group = next(g for g in await nights.groups(conn, night.id) if g.id == game.group_id)
    return ScoreView(score, player, game, night, group_label(group),
                     where=where_played(night, group))  # fmt: skip


async def my_games(db: Database, guild_id: int, discord_id: int) -> list[Game]:
    """Tonight's games of the user's group (for `/score` autocomplete)."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        player = await player_of(conn, ctx.league, discord_id)
        night = await current_night(conn, ctx)
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
        night = await current_night(conn, ctx)
        groups = await nights.groups(conn, night.id)
        group = group_of(groups, me.id)
        if group is None:
            raise NotAllowed(not_in_group(night))
        target = me
        if player is not None and player != submitter:
            target = await people.player_by_discord(conn, ctx.league.id, player) or me
            if target is me or target.removed or target.id not in group.members:
                raise NotAllowed(
                    "You can only submit scores for players of your own group "
                    f"({group_label(group)})."
                )
        game = await game_numbered(conn, group, game_number)
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
    group_scores = await scores.live_scores_of_group(conn, group.id)
    if notice is not None or all(s.player_id != target.id for s in group_scores):
        await attendance_board.changed(conn, guild_id, night.id, now=now)  # they are in
    score_id = await scores.add_score(conn, game.id, target.id, score, submitter, stamp(now))
    if photo is not None:  # its post is owed before the card's, which links to it
        await photos.keep(conn, guild_id, score_id, photo, now=now)
    # Owed with the score: a pending score always has its group's card.
    await owe_group_card(conn, guild_id, group.id, now=now)
    stored = Score(score_id, game.id, target.id, score, "pending", submitter, None, None)
    return ScoreView(stored, target, game, night, group_label(group), photo=photo is not None,
                     where=where_played(night, group))  # fmt: skip


async def game_numbered(conn: aiosqlite.Connection, group: Group, number: int) -> Game:
    games = await nights.games(conn, group.id)
    for game in games:
        if game.number == number:
            return game
    listed = ", ".join(f"{g.number} · {g.machine}" for g in games)
    raise NotFound(f"Game {number} is not one of your group's games tonight ({listed}).")


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
        night = await current_night(conn, ctx)
        group = group_of(await nights.groups(conn, night.id), me.id)
        if group is None:
            raise NotAllowed(not_in_group(night))
        if game_number is None:
            fields = []
            for game in await nights.games(conn, group.id):
                if await scores.live_score(conn, game.id, me.id) is None:
                    label = f"Game {game.number} · {game.machine}"
                    fields.append(FormField(label, game.number, me.id))
            if not fields:
                raise WrongState(f"You have a score on every game of week {night.week}.")
            return f"Your scores · week {night.week}", fields[:FORM_FIELDS]
        game = await game_numbered(conn, group, game_number)
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
        night = await current_night(conn, ctx)
        group = group_of(await nights.groups(conn, night.id), me.id)
        if group is None:
            raise NotAllowed(not_in_group(night))
        for field, score in entries:
            try:
                valid_score(score)
                target = await people.player_by_id(conn, field.player_id)
                if target is None or target.removed or target.id not in group.members:
                    raise NotAllowed(f"{field.label} is not in your group tonight.")
                game = await game_numbered(conn, group, field.game_number)
                stored.append(
                    await _store(conn, guild_id, night, group, game, target, me, score, None, now)
                )
            except LeagueError as error:
                raise type(error)(f"{field.label}: {error} Nothing was stored.") from None
    return stored
