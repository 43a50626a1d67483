"""Scores at their edges (R5.4, R12): a commissioner's change of a score still
waiting, tie orders refused or recorded, the score form's fields and refusals,
and the finalize refusal that lists the scores still waiting."""

from __future__ import annotations

from datetime import date

import pytest

from bot.database import Database
from bot.services import (
    approvals,
    attendance,
    finalize,
    membership,
    picks,
    score_changes,
    scores,
    setup,
)
from bot.services.context import stamp
from bot.services.errors import BadInput, NotAllowed, NotFound, NotReady, WrongState
from tests.moments import SETTING_AT
from tests.services.conftest import COMMISSIONER, GUILD, SEASON_START, at, discord_id

NIGHT = SEASON_START  # Wednesday 7 January 2026, week 1
P1, P2, P3, P4 = discord_id(1), discord_id(2), discord_id(3), discord_id(4)
DEPUTY = 9002  # a second commissioner


async def lock(db: Database) -> None:
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))


async def play_all(db: Database) -> None:
    for player, score in ((P1, 300_000_000), (P2, 200_000_000), (P3, 100_000_000)):
        for game in range(1, 6):
            await scores.submit(db, GUILD, player, game, score, now=at(NIGHT, "20:00"))


async def finalize_week_1(db: Database) -> None:
    await lock(db)
    await play_all(db)
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(NIGHT, "22:00"))
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))


async def lock_week_2(db: Database) -> None:
    await picks.lock_picks(db, GUILD, now=at(date(2026, 1, 14), "19:15"))


async def score_row(db: Database, score_id: int) -> tuple[object, ...]:
    async with db.read() as conn:
        cursor = await conn.execute(
            "SELECT status, decided_by, decided_at, reason FROM scores WHERE id = ?", (score_id,)
        )
        return tuple(await cursor.fetchone())


async def test_r12_4_changing_a_waiting_score_rejects_it_by_whom_when_and_why(players) -> None:
    """R12.4: P1's 1,000 on game 1 still waits; the commissioner corrects it to
    2,000. The waiting score is kept, rejected by the commissioner at that
    moment with the change's reason."""
    db = players
    await lock(db)
    waiting = await scores.submit(db, GUILD, P1, 1, 1_000, now=at(NIGHT, "19:30"))
    changed = await score_changes.change(db, GUILD, week=1, player_name="P1", game_number=1,
                                         kind="correction", reason="typed one zero short",
                                         new_score=2_000, by=COMMISSIONER,
                                         now=at(NIGHT, "19:40"))  # fmt: skip
    assert changed.view.score.score == 2_000
    assert await score_row(db, waiting.score.id) == (
        "rejected", COMMISSIONER, stamp(at(NIGHT, "19:40")), "typed one zero short",
    )  # fmt: skip


async def test_r12_4_a_changes_reason_may_run_over_several_lines(players) -> None:
    db = players
    await lock(db)
    await scores.submit(db, GUILD, P1, 1, 1_000, now=at(NIGHT, "19:30"))
    reason = "Replay after a stuck ball.\nWitnessed by P2."
    changed = await score_changes.change(db, GUILD, week=1, player_name="P1", game_number=1,
                                         kind="malfunction_replay", reason=reason, new_score=900,
                                         by=COMMISSIONER, now=at(NIGHT, "19:40"))  # fmt: skip
    assert changed.change.reason == reason


async def test_r12_a_player_who_joined_after_the_lock_did_not_play_that_week(players) -> None:
    db = players
    await lock(db)
    await membership.add_player(db, GUILD, "P4", discord_id=P4, now=at(NIGHT, "19:20"))
    with pytest.raises(NotFound) as refused:
        await score_changes.change(db, GUILD, week=1, player_name="P4", game_number=1,
                                   kind="correction", reason="typo", new_score=5,
                                   by=COMMISSIONER, now=at(NIGHT, "19:40"))  # fmt: skip
    assert str(refused.value) == "P4 did not play in week 1."
    assert await scores.my_games(db, GUILD, P4) == []


async def test_r5_4_a_tie_order_for_a_week_not_played_yet_is_refused(players) -> None:
    db = players
    await finalize_week_1(db)
    with pytest.raises(WrongState) as refused:
        await score_changes.record_tie_order(db, GUILD, week=2, game_number=1, players=["P1", "P2"],
                                             by=COMMISSIONER, now=at(NIGHT, "23:30"))  # fmt: skip
    assert str(refused.value) == "Week 2 has not been played."


async def test_r5_4_a_tie_order_naming_a_player_twice_is_refused(players) -> None:
    db = players
    await lock(db)
    with pytest.raises(BadInput) as refused:
        await score_changes.record_tie_order(db, GUILD, week=1, game_number=1, players=["P1", "p1"],
                                             by=COMMISSIONER, now=at(NIGHT, "21:00"))  # fmt: skip
    assert str(refused.value) == "Name each tied player once, highest placed first."


async def test_r5_4_a_finalized_nights_tie_order_is_closed_once_next_week_is_locked(
    players,
) -> None:
    db = players
    await finalize_week_1(db)
    await lock_week_2(db)
    with pytest.raises(WrongState) as refused:
        await score_changes.record_tie_order(db, GUILD, week=1, game_number=1, players=["P1", "P2"],
                                             by=COMMISSIONER, now=at(NIGHT, "23:30"))  # fmt: skip
    assert str(refused.value) == "Week 2 has started; week 1's results can no longer change."


async def test_r5_4_a_tie_order_on_a_finalized_night_refinalizes_it_by_that_commissioner(
    players,
) -> None:
    db = players
    await finalize_week_1(db)
    summary = await score_changes.record_tie_order(db, GUILD, week=1, game_number=1,
                                                   players=["P2", "P1"], by=DEPUTY,
                                                   now=at(NIGHT, "23:30"))  # fmt: skip
    assert summary is not None
    async with db.read() as conn:
        cursor = await conn.execute("SELECT finalized_by FROM nights WHERE week = 1")
        assert tuple(await cursor.fetchone()) == (DEPUTY,)


async def test_the_score_form_says_why_a_photo_rule_keeps_it_closed(players) -> None:
    db = players
    await lock(db)
    await setup.change_setting(db, GUILD, "photo_required", "yes", now=SETTING_AT)
    with pytest.raises(WrongState) as refused:
        await scores.form(db, GUILD, P1)
    assert str(refused.value) == (
        "This league asks for a photo of the score display with each score, which a form "
        "cannot carry: add it with `/score photo:`."
    )


async def test_a_games_form_leaves_out_the_absent_and_the_removed_but_no_one_else(
    players,
) -> None:
    """R3.2: P2 is absent and P3 was removed after the lock: P1's form for
    game 1 has P1's field only; with only P2 absent, P1 and P3 are asked for."""
    db = players
    await attendance.notify(db, GUILD, P2, "absent", now=at(NIGHT, "10:00"))
    await lock(db)
    _, fields = await scores.form(db, GUILD, P1, 1)
    assert [f.label for f in fields] == ["P1", "P3"]
    await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "19:30"))
    _, fields = await scores.form(db, GUILD, P1, 1)
    assert [f.label for f in fields] == ["P1"]


async def test_a_games_form_with_every_score_in_is_refused_naming_the_group(players) -> None:
    db = players
    await lock(db)
    for player in (P1, P2, P3):
        await scores.submit(db, GUILD, player, 1, 1_000, now=at(NIGHT, "19:30"))
    with pytest.raises(WrongState) as refused:
        await scores.form(db, GUILD, P1, 1)
    assert str(refused.value) == "Everyone in Group 1 has a score on game 1."


async def test_a_form_opened_before_a_player_was_removed_cannot_score_them(players) -> None:
    db = players
    await lock(db)
    _, fields = await scores.form(db, GUILD, P1, 1)
    await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "19:30"))
    (p3,) = [f for f in fields if f.label == "P3"]
    with pytest.raises(NotAllowed) as refused:
        await scores.submit_form(db, GUILD, P1, [(p3, 1_000)], now=at(NIGHT, "19:35"))
    assert str(refused.value) == "P3: P3 is not in your group tonight. Nothing was stored."
    assert await approvals.pending(db, GUILD) == []


async def test_finalizing_lists_eight_waiting_scores_and_counts_the_rest(players) -> None:
    db = players
    await lock(db)
    for game in range(1, 6):
        await scores.submit(db, GUILD, P1, game, 300, now=at(NIGHT, "20:00"))
    for game in range(1, 4):
        await scores.submit(db, GUILD, P2, game, 200, now=at(NIGHT, "20:00"))
    with pytest.raises(NotReady) as eight:
        await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))
    listed = [f"P1 on game {n} (Group 1)" for n in range(1, 6)]
    listed += [f"P2 on game {n} (Group 1)" for n in range(1, 4)]
    assert str(eight.value) == (
        f"Week 1 cannot be finalized. Scores waiting for approval: {'; '.join(listed)}."
    )
    await scores.submit(db, GUILD, P2, 4, 200, now=at(NIGHT, "20:00"))
    with pytest.raises(NotReady) as nine:
        await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))
    assert str(nine.value) == (
        f"Week 1 cannot be finalized. Scores waiting for approval: {'; '.join(listed)} "
        "and 1 more (/league night waiting lists them all)."
    )
