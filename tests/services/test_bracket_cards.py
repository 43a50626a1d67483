"""A bracket match's card (R13.3): owed in the transaction of what changes it.
Each first match gets a card after the start's post; a pick or a game edits
its match's card; a decided match's post comes before the next match's card;
a correction edits the cards whose match it changed (the final's players, or
the final undone). A card belongs to its league alone."""

from __future__ import annotations

import pytest

from bot.database import Database
from bot.repositories import outbox_items
from bot.services import bracket_cards, bracket_games, outbox
from bot.services.errors import Conflict, NotFound, WrongState
from bot.ui.bracket import card_text
from tests.services.conftest import COMMISSIONER, GUILD, at, discord_id
from tests.services.test_playoff_bracket import NIGHT, M, game, season_of, started, win


async def waiting(db: Database) -> list[tuple[str, str]]:
    async with db.read() as conn:
        return [(i.kind, i.ref) for i in await outbox_items.waiting(conn, GUILD)]


async def sent(db: Database) -> None:
    """Every item waiting is sent (the cards get their message ids)."""
    async with db.transaction() as conn:
        for n, item in enumerate(await outbox_items.waiting(conn, GUILD), start=1):
            await outbox_items.sent(conn, item.id, 9000 + n, "2026-01-14T20:00:00.000+00:00")
            if item.kind == "match_card":
                await conn.execute(
                    "UPDATE match_cards SET message_id = ? WHERE id = ?",
                    (9000 + n, int(item.ref.split(":")[1])),
                )


async def test_r13_3_each_first_match_gets_a_card_after_the_start_post(league) -> None:
    db = await season_of(league, 4)
    await started(db)
    owed = await waiting(db)
    assert [kind for kind, _ in owed[-3:]] == ["playoff_started", "match_card", "match_card"]
    assert [ref for _, ref in owed[-2:]] == ["matchcard:1", "matchcard:2"]
    semi_1 = await bracket_cards.shown(db, GUILD, 1)
    assert semi_1 is not None and semi_1.open
    assert card_text(semi_1) == ("League · Semifinal 1", "\n".join([
        "1. P1 v 4. P4 · best of 3", "Games: P1 0, P4 0", "Next: P1 picks game 1's machine.",
    ]))  # fmt: skip
    assert semi_1.left == ["Machine A", "Machine B", "Machine C", "Machine D"]


async def test_r13_3_a_game_edits_its_card_and_a_decided_semifinal_posts_the_next_cards(
    league,
) -> None:
    db = await season_of(league, 4)
    await started(db)
    await sent(db)
    await game(db, "P1", 200, 100, "Machine A")
    await game(db, "P1", 100, 300, "Machine B")  # P4 (game 1's loser) picked, and wins
    assert await waiting(db) == [("match_card_update", "matchcard:1")]  # one edit waits
    await win(db, "P1", ["Machine C"])
    await win(db, "P2", ["Machine A", "Machine B"])
    owed = await waiting(db)
    decided = [n for n, (kind, _) in enumerate(owed) if kind == "playoff_match"]
    assert owed[decided[-1] + 1 :] == [("match_card", "matchcard:3"), ("match_card", "matchcard:4")]
    assert ("match_card_update", "matchcard:2") in owed
    final = await bracket_cards.shown(db, GUILD, 3)
    assert final is not None and final.match is not None
    assert (final.round, final.match.high, final.match.low) == ("final", (1, "P1"), (2, "P2"))
    semi_1 = await bracket_cards.shown(db, GUILD, 1)
    assert semi_1 is not None and not semi_1.open and semi_1.left == []
    assert card_text(semi_1)[1].splitlines()[-1] == "**P1 wins 2–1**"


async def test_r12_r13_3_a_correction_edits_the_cards_whose_match_it_changed(league) -> None:
    db = await season_of(league, 3)
    await started(db)
    await win(db, "P2", ["Machine A", "Machine B"])  # the final: P1 v P2
    await sent(db)
    final = await bracket_cards.shown(db, GUILD, 2)
    assert final is not None and final.match is not None and final.match.low == (2, "P2")
    # Game 2 corrected to P3's: 1-1, so the final is not made yet; its card says so.
    await bracket_games.fix(db, GUILD, "P3", "semifinal", 2, 300 * M, 100 * M, "typo",
                            by=COMMISSIONER, now=at(NIGHT, "20:30"))  # fmt: skip
    assert ("match_card_update", "matchcard:2") in await waiting(db)
    final = await bracket_cards.shown(db, GUILD, 2)
    assert final is not None and final.match is None and not final.open
    assert card_text(final) == (
        "League · Final",
        "Waits again for the match before it (a correction changed its result); "
        "see /playoffs bracket.",
    )
    with pytest.raises(WrongState, match="That final waits again for the match before it"):
        await bracket_cards.form(db, GUILD, 2)
    await sent(db)
    await game(db, "P3", 310, 100, "Machine C")  # P3 wins the semifinal: the same card
    assert ("match_card_update", "matchcard:2") in await waiting(db)
    assert ("match_card", "matchcard:3") not in await waiting(db)
    final = await bracket_cards.shown(db, GUILD, 2)
    assert final is not None and final.match is not None and final.match.low == (3, "P3")


async def test_r13_3_a_card_is_its_leagues_alone_and_a_stale_click_changes_nothing(
    league,
) -> None:
    db = await season_of(league, 2)
    await started(db)
    assert await bracket_cards.shown(db, GUILD + 1, 1) is None
    with pytest.raises(NotFound, match="not one of this league"):
        await bracket_cards.choices(db, GUILD + 1, 1, discord_id(1))
    with pytest.raises(NotFound, match="not one of this league"):
        await bracket_cards.play(db, GUILD, 77, 1, 2 * M, M, "Machine A", now=at(NIGHT, "20:00"))
    form = await bracket_cards.form(db, GUILD, 1)
    assert (form.number, form.high, form.low, form.machine, form.picker) == (
        1, "P1", "P2", None, "P1")  # fmt: skip
    offer = await bracket_cards.choices(db, GUILD, 1, discord_id(1))
    picked = await bracket_cards.pick(db, GUILD, 1, discord_id(1), 1, str(offer.machines[1][0]),
                                      now=at(NIGHT, "19:40"))  # fmt: skip
    assert picked.machine == "Machine B"
    await bracket_cards.play(db, GUILD, 1, 1, 2 * M, M, None, now=at(NIGHT, "20:00"))
    with pytest.raises(Conflict, match="Game 1 of this match is recorded already"):
        await bracket_cards.play(db, GUILD, 1, 1, 2 * M, M, None, now=at(NIGHT, "20:01"))
    with pytest.raises(Conflict, match="Game 1 of this match is recorded already"):
        await bracket_cards.pick(db, GUILD, 1, discord_id(2), 1, str(offer.machines[0][0]),
                                 now=at(NIGHT, "20:02"))  # fmt: skip
    card = await bracket_cards.shown(db, GUILD, 1)
    assert card is not None and card.match is not None and len(card.match.games) == 1


async def test_a_resend_keeps_one_edit_per_card_when_one_failed_and_another_waits(
    league,
) -> None:
    """The announcements channel refused a card's edit (it failed), play went on
    and owed another: the commissioner's resend drops the failed one (the one
    waiting is worded when sent, so it does the work) and fails on nothing."""
    db = await season_of(league, 2)
    await started(db)
    await sent(db)
    await game(db, "P1", 200, 100, "Machine A")
    async with db.transaction() as conn:
        (edit,) = await outbox_items.waiting(conn, GUILD)
        await outbox_items.failed(conn, edit.id, "403 Missing Access")
    await game(db, "P1", 100, 300, "Machine B")  # another edit of the same card waits
    done = await outbox.resend(db, GUILD, now=at(NIGHT, "21:00"))
    assert done.requeued == []
    assert await waiting(db) == [("match_card_update", "matchcard:1")]
