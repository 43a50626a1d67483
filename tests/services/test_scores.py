"""Submitting, approving and changing scores; finalizing (R5.4, R12)."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from bot.database import Database
from bot.models import ScoreChange
from bot.services import approvals, audit, finalize, picks, score_changes, scores, standings
from bot.services.context import stamp
from bot.services.errors import (
    AlreadyDecided,
    BadInput,
    NotAllowed,
    NotFound,
    NotReady,
    WrongState,
)
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    discord_id,
)

NIGHT = SEASON_START
P = {n: discord_id(n) for n in range(1, 41)}


async def changes_oldest_first(db: Database) -> list[ScoreChange]:
    """The season's audit trail (R12.4), oldest first; empty when nothing changed."""
    try:
        return [entry.change for entry in reversed((await audit.trail(db, GUILD)).entries)]
    except NotFound:
        return []


async def locked_league(db: Database, players: int) -> None:
    await add_players(db, players)
    await add_machines(db, 6)
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))


async def submit_group(db: Database, rows: dict[int, list[int]]) -> None:
    for number, row in rows.items():
        for game, score in enumerate(row, start=1):
            await scores.submit(db, GUILD, P[number], game, score, now=at(NIGHT, "20:00"))


async def test_submit_refusals_change_nothing(league: Database) -> None:
    db = league
    await add_players(db, 6)  # groups [P1 P2 P3] [P4 P5 P6]
    await add_machines(db, 6)
    with pytest.raises(WrongState, match="locks the picks first"):
        await scores.submit(db, GUILD, P[1], 1, 100, now=at(NIGHT, "19:00"))
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    first = await scores.submit(db, GUILD, P[1], 1, 1_234_567, now=at(NIGHT, "20:00"))
    assert (first.score.status, first.player.name, first.game.machine) == (
        "pending",
        "P1",
        "Machine B",
    )
    assert first.group_label == "Group 1"
    refusals = [
        (dict(game_number=6, score=100), NotFound, r"Game 6 is not one of your group's games"),
        (dict(game_number=1, score=-5), BadInput, "cannot be negative"),
        (dict(game_number=1, score=10**14), BadInput, "larger than any pinball machine"),
        (dict(game_number=2, score=100, player=P[4]), NotAllowed, "own group"),
        (dict(game_number=2, score=100, player=999), NotAllowed, "own group"),
        (dict(game_number=1, score=7), WrongState, r"waiting for approval \(1,234,567\)"),
    ]
    for kwargs, error, message in refusals:
        with pytest.raises(error, match=message):
            await scores.submit(db, GUILD, P[1], now=at(NIGHT, "20:01"), **kwargs)
    with pytest.raises(NotFound, match="not a player"):
        await scores.submit(db, GUILD, 4242, 1, 100, now=at(NIGHT, "20:01"))
    assert [v.score.id for v in await approvals.pending(db, GUILD)] == [first.score.id]

    # A group member may submit for another member of the same group.
    other = await scores.submit(db, GUILD, P[1], 1, 555, player=P[2], now=at(NIGHT, "20:02"))
    assert (other.player.name, other.score.submitted_by) == ("P2", P[1])

    decided = await approvals.decide_score(
        db, GUILD, first.score.id, True, by=COMMISSIONER, now=at(NIGHT)
    )
    assert (decided.score.status, decided.score.decided_by) == ("approved", COMMISSIONER)
    with pytest.raises(AlreadyDecided, match="already approved; nothing changed"):
        await approvals.decide_score(
            db, GUILD, first.score.id, False, by=COMMISSIONER, now=at(NIGHT)
        )
    with pytest.raises(WrongState, match="is approved; ask the commissioner to correct it"):
        await scores.submit(db, GUILD, P[1], 1, 9, now=at(NIGHT, "20:05"))
    # Rejected, then submitted again.
    await approvals.decide_score(db, GUILD, other.score.id, False, by=COMMISSIONER, now=at(NIGHT))
    again = await scores.submit(db, GUILD, P[2], 1, 556, now=at(NIGHT, "20:06"))
    assert again.score.status == "pending"


async def test_two_concurrent_approvals_approve_once(league: Database) -> None:
    db = league
    await locked_league(db, 3)
    view = await scores.submit(db, GUILD, P[1], 1, 100, now=at(NIGHT, "20:00"))
    outcomes = await asyncio.gather(
        approvals.decide_score(db, GUILD, view.score.id, True, by=COMMISSIONER, now=at(NIGHT)),
        approvals.decide_score(db, GUILD, view.score.id, True, by=COMMISSIONER + 1, now=at(NIGHT)),
        return_exceptions=True,
    )
    approved = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, AlreadyDecided)]
    assert len(approved) == 1 and len(refused) == 1


async def test_200_concurrent_submissions_are_all_stored_once(league: Database) -> None:
    db = league
    await locked_league(db, 40)
    calls = [
        scores.submit(db, GUILD, P[n], game, n * 1000 + game, now=at(NIGHT, "20:00"))
        for n in range(1, 41)
        for game in range(1, 6)
    ]
    views = await asyncio.gather(*calls)
    assert len({v.score.id for v in views}) == 200
    stored = await approvals.pending(db, GUILD)
    assert sorted((v.player.name, v.game.number, v.score.score) for v in stored) == sorted(
        (f"P{n}", game, n * 1000 + game) for n in range(1, 41) for game in range(1, 6)
    )


async def test_finalize_refuses_pending_missing_and_tied_scores_then_is_idempotent(
    league: Database,
) -> None:
    db = league
    await locked_league(db, 3)
    with pytest.raises(NotReady) as missing:
        await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))
    said = str(missing.value)  # 15 missing: 8 named, the rest counted
    assert said.count(" on game ") == 8
    assert "and 7 more (the group scorecards show every score not in yet)" in said
    assert "P1 on game 1 (Group 1)" in str(missing.value)

    await submit_group(db, {1: [300] * 5, 2: [200] * 5, 3: [100] * 4 + [200]})
    with pytest.raises(NotReady, match="waiting for approval: P1 on game 1"):
        await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(NIGHT, "22:00"))
    # Game 5: P2 and P3 both scored 200 (R5.4).
    with pytest.raises(NotReady, match=r"Game 5 \(Machine F\): P2, P3 have the same score"):
        await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))
    await score_changes.record_tie_order(
        db, GUILD, week=1, game_number=5, players=["P3", "P2"], now=at(NIGHT, "22:30")
    )

    first = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))
    second = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:30"))
    assert first.groups == second.groups and first.next_groups == second.next_groups
    game5 = first.groups[0].games[4]
    assert [(f.player, f.points) for f in game5.finish] == [("P1", 3), ("P3", 2), ("P2", 1)]
    assert [(n, r.match_points) for n, r in first.groups[0].rows] == [
        ("P1", 15),
        ("P2", 9),
        ("P3", 6),
    ]


async def test_r12_penalty_and_replay_change_standings_with_an_audit_trail(
    league: Database,
) -> None:
    db = league
    await finalized_week_1(db)
    before = {r.player.name: r.league_points for r in await standings.standings(db, GUILD)}
    assert before == {"P1": 15, "P2": 10, "P3": 5}  # 3-2-1 every game

    async def change(
        player: str,
        game: int,
        kind: str,
        reason: str,
        score: int | None = None,
        day: date = date(2026, 1, 8),
    ) -> score_changes.ScoreChanged:
        return await score_changes.change(
            db,
            GUILD,
            week=1,
            player_name=player,
            game_number=game,
            kind=kind,
            new_score=score,
            reason=reason,
            by=COMMISSIONER,
            now=at(day),
        )

    # R12.2: P1 bang-backed on game 1: 0, placed last; then 200 vs 150 vs 0:
    # 200 > 150 + 0 gives P2 4, P3 2, P1 0.
    changed = await change("P1", 1, "penalty", "bang-back on ball 2")
    assert changed.refinalized is not None
    after = {r.player.name: r.league_points for r in await standings.standings(db, GUILD)}
    assert after == {"P1": 12, "P2": 12, "P3": 6}
    # R12.1: P3's game 2 malfunction replay replaces 150 with a lower 120.
    await change("P3", 2, "malfunction_replay", "flipper died", 120)
    # R12.3: a tilt-away replay keeps the higher score: 180 < 200 keeps 200.
    kept = await change("P2", 3, "tilt_replay", "P1 tilted P2's ball", 180)
    assert kept.view.score.score == 200
    trail = await changes_oldest_first(db)
    assert [
        (c.player_id, c.old_score, c.new_score, c.kind, c.reason, c.changed_by) for c in trail
    ] == [
        (1, 300, 0, "penalty", "bang-back on ball 2", COMMISSIONER),
        (3, 150, 120, "malfunction_replay", "flipper died", COMMISSIONER),
        (2, 200, 200, "tilt_replay", "P1 tilted P2's ball", COMMISSIONER),
    ]
    assert all(c.changed_at.startswith("2026-01-08T17:00") for c in trail)

    with pytest.raises(BadInput, match="Give a reason"):
        await change("P2", 3, "correction", "  ", 1)
    await picks.lock_picks(db, GUILD, now=at(date(2026, 1, 14), "19:15"))
    with pytest.raises(WrongState, match="Week 2 has started"):
        await change("P2", 3, "correction", "late fix", 1, day=date(2026, 1, 14))
    assert len(await changes_oldest_first(db)) == 3


async def finalized_week_1(db: Database) -> finalize.NightSummary:
    """Three players, 3-2-1 every game, approved and finalized."""
    await locked_league(db, 3)
    await submit_group(db, {1: [300] * 5, 2: [200] * 5, 3: [150] * 5})
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(NIGHT, "22:00"))
    return await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))


async def test_r10_dues_after_finalizing_recompute_the_payout(league: Database) -> None:
    from cogs.money import money

    db = league
    first = await finalized_week_1(db)
    assert first.payouts == {} and first.newly_finalized
    pot = await money.record_dues(db, GUILD, "P1", 1, by=COMMISSIONER, now=at(NIGHT, "23:10"))
    assert (pot.pot_cents, pot.recomputed) == (300, True)
    again = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:20"))
    assert again.payouts == {"P1": 300} and not again.newly_finalized  # the only group winner
    await picks.lock_picks(db, GUILD, now=at(date(2026, 1, 14), "19:15"))
    with pytest.raises(WrongState, match="Week 2 has started"):
        await money.record_dues(db, GUILD, "P2", 1, by=COMMISSIONER, now=at(date(2026, 1, 14)))


async def test_r5_4_r12_a_correction_that_makes_a_tie_is_applied_after_the_tie_order(
    league: Database,
) -> None:
    db = league
    await finalized_week_1(db)
    fix = dict(
        week=1,
        player_name="P3",
        game_number=1,
        kind="correction",
        new_score=200,
        reason="misread",
        by=COMMISSIONER,
        now=at(date(2026, 1, 8)),
    )
    with pytest.raises(NotReady, match="P2, P3 have the same score"):
        await score_changes.change(db, GUILD, **fix)
    assert await changes_oldest_first(db) == []  # refused: nothing changed
    await score_changes.record_tie_order(
        db,
        GUILD,
        week=1,
        game_number=1,
        players=["P3", "P2"],
        by=COMMISSIONER,
        now=at(date(2026, 1, 8)),
    )
    changed = await score_changes.change(db, GUILD, **fix)
    assert changed.refinalized is not None
    game1 = changed.refinalized.groups[0].games[0]
    assert [(f.player, f.points) for f in game1.finish] == [("P1", 3), ("P3", 2), ("P2", 1)]


async def test_r5_4_a_tie_order_on_a_finalized_night_refinalizes_it_at_the_time_given(
    league: Database,
) -> None:
    """The service reads no clock: the night is finalized again at `now`."""
    db = league
    await finalized_week_1(db)
    when = at(date(2026, 1, 8), "09:41")
    summary = await score_changes.record_tie_order(
        db, GUILD, week=1, game_number=1, players=["P3", "P2"], by=COMMISSIONER, now=when
    )
    assert summary is not None
    async with db.read() as conn:
        rows = [tuple(r) async for r in await conn.execute("SELECT finalized_at FROM nights")]
    assert rows[0] == (stamp(when),)


async def test_finalizing_twice_writes_nothing(league: Database) -> None:
    db = league
    await finalized_week_1(db)
    async with db.read() as conn:
        before = [row async for row in await conn.execute("SELECT * FROM night_results")]
    again = await finalize.finalize(db, GUILD, by=COMMISSIONER + 1, now=at(NIGHT, "23:59"))
    assert not again.newly_finalized
    async with db.read() as conn:
        after = [row async for row in await conn.execute("SELECT * FROM night_results")]
        finalized_by = [r async for r in await conn.execute("SELECT finalized_by FROM nights")]
    assert [tuple(r) for r in after] == [tuple(r) for r in before]
    assert tuple(finalized_by[0]) == (COMMISSIONER,)
