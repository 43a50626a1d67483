"""A score's photo is kept with the score in one transaction, its post owed before
the card's, and the card links to the post once it is sent (bot/services)."""

from __future__ import annotations

import sqlite3

import pytest

from bot.database import Database
from bot.models import Photo
from bot.repositories import cards, outbox_items
from bot.services import outbox as owed
from bot.services import scores
from cogs.scorecards import scorecards, scorecards_decisions
from cogs.scorecards.scorecards_outcomes import CardPhoto
from tests.services.conftest import GUILD, at, snapshot
from tests.services.test_scores import NIGHT, P, locked_league

PHOTO = Photo(b"\xff\xd8 a cleaned jpeg \xff\xd9", "jpeg", 1200, 1600)
TONIGHT = at(NIGHT, "20:00")


async def owed_items(db: Database) -> list[tuple[str, str, str]]:
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT kind, ref, status FROM outbox ORDER BY id")
    return [tuple(row) for row in rows]  # type: ignore[misc]


async def the_card(db: Database) -> int:
    async with db.read() as conn:
        [(card_id,)] = await conn.execute_fetchall("SELECT id FROM approval_cards")
    return int(card_id)


async def test_a_photo_is_kept_with_its_score_and_posted_before_the_card(league: Database) -> None:
    await locked_league(league, 3)
    view = await scores.submit(league, GUILD, P[1], 1, 1_000_000, photo=PHOTO, now=TONIGHT)
    assert view.photo
    with sqlite3.connect(league.path) as conn:
        stored = conn.execute("SELECT score_id, format, width, height, size, data, message_id"
                              " FROM score_photos").fetchall()  # fmt: skip
        [(url,)] = conn.execute("SELECT photo_url FROM scores").fetchall()
    assert stored == [(view.score.id, "jpeg", 1200, 1600, len(PHOTO.data), PHOTO.data, None)]
    assert url is None  # nobody's Discord link is kept for a new score
    card_id = await the_card(league)
    assert await owed_items(league) == [("photo", f"photo:{view.score.id}", "pending"),
                                        ("approval", f"card:{card_id}", "pending")]  # fmt: skip
    shown = await scorecards.card(league, card_id)
    assert shown is not None and shown.games[0].lines[0].photo == CardPhoto()  # coming


async def test_a_photo_that_cannot_be_kept_stores_no_score_either(league: Database) -> None:
    await locked_league(league, 3)
    before = await snapshot(league)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        await scores.submit(league, GUILD, P[1], 1, 1_000_000,
                            photo=Photo(b"GIF89a", "gif", 1, 1), now=TONIGHT)  # fmt: skip
    assert await snapshot(league) == before


async def test_a_photo_posted_after_its_card_brings_the_card_up_to_date(league: Database) -> None:
    await locked_league(league, 3)
    first = await scores.submit(league, GUILD, P[1], 1, 1_000_000, now=TONIGHT)
    card_id = await the_card(league)
    async with league.transaction() as conn:  # the card is out (the sender records it so)
        await cards.set_message(conn, card_id, 777)
    async with league.transaction() as conn:
        await conn.execute("UPDATE outbox SET status = 'sent'")
    view = await scores.submit(league, GUILD, P[2], 1, 2_000_000, photo=PHOTO, now=TONIGHT)
    assert first.score.id != view.score.id
    async with league.read() as conn:
        [photo_item] = [i for i in await outbox_items.waiting(conn, GUILD) if i.kind == "photo"]
    async with league.transaction() as conn:
        await conn.execute("UPDATE outbox SET status = 'sent' WHERE kind = 'approval_update'")
    await owed.sent(league, photo_item, 888, now=TONIGHT)
    shown = await scorecards.card(league, card_id)
    assert shown is not None
    assert [line.photo for line in shown.games[0].lines[:2]] == [None, CardPhoto(message_id=888)]
    assert ("approval_update", f"card:{card_id}", "pending") in await owed_items(league)


async def test_a_score_sent_before_copies_were_kept_shows_its_old_link(league: Database) -> None:
    await locked_league(league, 3)
    view = await scores.submit(league, GUILD, P[1], 1, 1_000_000, now=TONIGHT)
    old = "https://cdn.discordapp.com/attachments/1/2/display.jpg"
    async with league.transaction() as conn:  # as migration 0005 stored it
        await conn.execute("UPDATE scores SET photo_url = ? WHERE id = ?", (old, view.score.id))
    shown = await scorecards.card(league, await the_card(league))
    assert shown is not None and shown.games[0].lines[0].photo == CardPhoto(old_link=old)


async def test_a_rejected_score_keeps_its_photo_on_the_card(league: Database) -> None:
    """The commissioner rejects a score sent with a photo: the card still shows the
    photo beside the rejected score, so what was rejected can be seen."""
    await locked_league(league, 3)
    view = await scores.submit(league, GUILD, P[1], 1, 1_000_000, photo=PHOTO, now=TONIGHT)
    card_id = await the_card(league)
    await scorecards_decisions.reject(league, GUILD, card_id, f"s{view.score.id}", "blurry",
                                      by=1, now=at(NIGHT, "20:30"))  # fmt: skip
    shown = await scorecards.card(league, card_id)
    assert shown is not None
    line = shown.games[0].lines[0]
    assert (line.state, line.reason, line.photo) == ("rejected", "blurry", CardPhoto())
