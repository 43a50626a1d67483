"""Approval cards: one message in the approvals channel per group per night,
and one per player's pre-makeup day, showing every score of it with its state.
The card is read when it is sent, from the scores as they stand (`card`); it is
owed in the transaction of its first score (`bot/services/card_posts.py`). A
card's message deleted by someone is posted again while scores wait on it."""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import Group, OutboxItem, Player, Score, ScorePhoto
from bot.outbox_kinds import card_ref
from bot.repositories import cards, kept_photos, leagues, nights, outbox_items, people
from bot.services.outbox import moment, owe_approval
from bot.services.season import where_played
from cogs.scorecards.scorecards_outcomes import (
    APPROVED,
    MISSING,
    REJECTED,
    WAITING,
    CardGame,
    CardLine,
    CardPhoto,
    CardView,
)


async def message_gone(db: Database, item: OutboxItem, card_id: int, *, now: datetime) -> bool:
    """Someone deleted a card's message (the edit `item_id` found it gone). With
    scores still waiting on it, the card is posted again, as it stands then: a
    pending score always has its card. One transaction: the edit is
    dropped, the card forgets the old message, a new post is owed. Returns
    whether it is posted again."""
    async with db.transaction() as conn:
        await outbox_items.dropped(conn, item.id, "the card's message is gone", moment(now))
        view = await card_in(conn, card_id)
        if view is None or view.message_id is None or not view.waiting:
            return False
        await cards.set_message(conn, card_id, None)  # later edits wait for the new post
        await owe_approval(conn, item.guild_id, card_ref(card_id), now=now)
        return True


# --- reading -----------------------------------------------------------------------------


async def card(db: Database, card_id: int) -> CardView | None:
    async with db.read() as conn:
        return await card_in(conn, card_id)


async def card_in(conn: aiosqlite.Connection, card_id: int) -> CardView | None:
    found = await cards.card(conn, card_id)
    if found is None:
        return None
    if found.group_id is not None:
        return await _group_card(conn, found.id, found.group_id, found.message_id)
    assert found.player_id is not None and found.day is not None
    return await _day_card(conn, found.id, found.player_id, found.day, found.message_id)


async def _group(conn: aiosqlite.Connection, group_id: int) -> tuple[int, Group]:
    night_id = await nights.night_of_group(conn, group_id)
    group = next(g for g in await nights.groups(conn, night_id) if g.id == group_id)
    return night_id, group


async def expected_players(conn: aiosqlite.Connection, group_id: int) -> list[Player]:
    """Who is to submit scores in the group: its members, but not those absent
    tonight (their games are scored from pre-makeups, R2.3) nor removed."""
    night_id, group = await _group(conn, group_id)
    absent = {n.player_id for n in await nights.notices(conn, night_id) if n.kind == "absent"}
    found = [await people.player_by_id(conn, pid) for pid in group.members]
    return [p for p in found if p is not None and not p.removed and p.id not in absent]


async def _group_card(
    conn: aiosqlite.Connection, card_id: int, group_id: int, message_id: int | None
) -> CardView:
    night_id, group = await _group(conn, group_id)
    night = await leagues.night_by_id(conn, night_id)
    assert night is not None
    expected = await expected_players(conn, group_id)
    every = await cards.scores_of_group(conn, group_id)
    kept = await kept_photos.photos_of_group(conn, group_id)
    names = {p.id: p.name for p in expected}
    discord_ids = {p.id: p.discord_id for p in expected}
    for score in every:  # someone who scored though not expected (e.g. absent after all)
        if score.player_id not in names:
            other = await people.player_by_id(conn, score.player_id)
            names[score.player_id] = other.name if other else "?"
    games = []
    for game in await nights.games(conn, group_id):
        lines = []
        for player_id, name in names.items():
            mine = [s for s in every if s.game_id == game.id and s.player_id == player_id]
            live = [s for s in mine if s.status in (WAITING, APPROVED)]
            rejected = [s for s in mine if s.status == REJECTED]
            if live:
                shown = live[-1]
                by: int | None = shown.submitted_by
                by = None if by == discord_ids.get(player_id) or by in _deciders(shown) else by
                lines.append(
                    CardLine(
                        name, shown.score, shown.status, None, f"s{shown.id}", by,
                        photo=_photo(shown, kept),
                    )
                )  # fmt: skip
            elif rejected:
                shown = rejected[-1]
                lines.append(
                    CardLine(
                        name, shown.score, REJECTED, shown.reason, f"s{shown.id}",
                        photo=_photo(shown, kept),
                    )
                )  # fmt: skip
            elif player_id in {p.id for p in expected}:
                lines.append(CardLine(name, None, MISSING))
        games.append(CardGame(f"Game {game.number} · {game.machine}", lines, str(game.number)))
    title = where_played(night, group)
    return CardView(card_id, title, games, message_id)


def _photo(score: Score, kept: dict[int, ScorePhoto]) -> CardPhoto | None:
    """The score's photo: the league's copy, or an older score's Discord link."""
    if (copy := kept.get(score.id)) is not None:
        return CardPhoto(message_id=copy.message_id)
    return CardPhoto(old_link=score.photo_url) if score.photo_url else None


def _deciders(score: Score) -> set[int]:
    """A correction is entered by the commissioner: not a submission by another player."""
    return {score.decided_by} if score.decided_by is not None else set()


async def _day_card(
    conn: aiosqlite.Connection, card_id: int, player_id: int, day: str, message_id: int | None
) -> CardView:
    player = await people.player_by_id(conn, player_id)
    assert player is not None
    games = []
    for record in await cards.pre_makeups_of_card(conn, card_id):
        machine = await people.machine_by_id(conn, record.machine_id)
        present = [
            found.name
            for pid in await people.witnesses(conn, record.id)
            if (found := await people.player_by_id(conn, pid)) is not None
        ]
        line = CardLine(
            player.name, record.score, record.status, record.reason, f"p{record.id}",
            note=f"with {', '.join(present)}",
        )  # fmt: skip
        games.append(CardGame(machine.name if machine else "?", [line], str(record.id)))
    when = datetime.fromisoformat(day)
    title = f"Pre-makeups · {player.name} · {when.day} {when:%B}"
    return CardView(card_id, title, games, message_id, pre_makeups=True)
