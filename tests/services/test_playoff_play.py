"""A final group decided (R13.3, R13.6): playoff points, then the normalized
total, then the standing; a player not there plays no game; an exact tie waits
for the commissioner's order; a field of one is champion at once; and a
season with divisions plays one group per division."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.database import Database
from bot.repositories import outbox_items, people
from bot.services import (
    approvals,
    playoff_checkin,
    playoff_play,
    playoffs,
    score_changes,
    scores,
    setup,
)
from bot.services.context import season_of
from bot.services.errors import BadInput, WrongState
from bot.services.outcomes.playoffs import FinalGroupResult, PlayoffNightShown
from cogs.money import money
from cogs.stats import stats
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    at,
    discord_id,
    finalize_week_1,
)
from tests.services.test_standings_edges import two_nights

NIGHT = SEASON_START + timedelta(days=7)
FIVE = "Machine A, Machine B, Machine C, Machine D, Machine E"


async def results(db: Database) -> list[FinalGroupResult]:
    async with db.read() as conn:
        items = await outbox_items.waiting(conn, GUILD)
    return [FinalGroupResult.from_data(json.loads(i.data or "{}"))
            for i in items if i.kind == "playoff_result"]  # fmt: skip


async def started(db: Database, checked_in: str = "P1, P2") -> Database:
    """A season of one night (P1 300M, P2 200M, P3 100M): the field P1, P2;
    `checked_in` came; play starts at 19:31 on machines A-E."""
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=at(SEASON_START, "09:00"))
    await finalize_week_1(db)
    await playoff_checkin.check_in(db, GUILD, checked_in, now=at(NIGHT, "19:00"))
    await playoff_play.start(db, GUILD, FIVE, now=at(NIGHT, "19:31"))
    return db


async def play(db: Database, by_player: dict[int, list[int]]) -> None:
    """Each player's scores, game by game, in millions; all approved."""
    for player, game_scores in by_player.items():
        for game, score in enumerate(game_scores, start=1):
            await scores.submit(db, GUILD, discord_id(player), game, score * 1_000_000,
                                now=at(NIGHT, "20:00"))  # fmt: skip
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(NIGHT, "21:00"))


async def test_r13_3_places_go_by_playoff_points(players) -> None:
    """P2 wins three games, P1 two: P2 is champion though P1 has the better
    normalized total and standing."""
    db = await started(players)
    await play(db, {1: [900, 900, 100, 100, 100], 2: [800, 800, 200, 200, 200]})
    (result,) = await results(db)
    # R5.1: each game 3 to the winner, 1 to the loser who kept it close (no tripling)
    assert [(name, points) for name, points, _ in result.places] == [("P2", 11), ("P1", 9)]


async def test_r13_3_equal_points_go_to_the_normalized_total(players) -> None:
    """P1 wins two games (one by tripling P2's score: 4 points), P2 three (no
    tripling): 10 points each. P2's normalized total is higher, so P2 places
    above the better seed P1."""
    db = await started(players)
    await play(db, {1: [300, 300, 100, 100, 100], 2: [100, 200, 290, 290, 290]})
    (result,) = await results(db)
    # par 1,000M: normalized 100,000 a 100M score
    assert result.places == [("P2", 10, 1_170_000), ("P1", 10, 900_000)]


async def test_r13_5_a_qualifier_not_there_and_not_replaced_plays_no_game(players) -> None:
    """Only P1 came, and the alternate P3 did not: the field plays one short
    (R13.5). P1 alone is the group, so P1 is champion at once."""
    db = players
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=at(SEASON_START, "09:00"))
    await finalize_week_1(db)
    await playoff_checkin.check_in(db, GUILD, "P1", now=at(NIGHT, "19:00"))
    started = await playoff_play.start(db, GUILD, FIVE, now=at(NIGHT, "19:31"))
    assert (started.groups, started.out) == ([("", ["P1"])], ["P2"])
    (result,) = await results(db)
    assert result.places == [("P1", 0, 0)]


async def test_r13_5_nobody_checked_in_is_refused_before_any_replacement(players) -> None:
    db = players
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=at(SEASON_START, "09:00"))
    await finalize_week_1(db)
    with pytest.raises(WrongState) as refused:
        await playoff_play.start(db, GUILD, FIVE, now=at(NIGHT, "19:31"))
    assert str(refused.value) == (
        "Nobody of the playoff field is checked in: check the players in with /playoffs "
        "checkin first."
    )
    assert await results(db) == []
    with pytest.raises(BadInput):  # a refused start makes no replacement
        await playoff_play.start(db, GUILD, "Machine A", now=at(NIGHT, "19:32"))
    query = "SELECT count(*) FROM playoff_field WHERE replaced_by IS NOT NULL"
    async with db.read() as conn:
        (replaced,) = await (await conn.execute(query)).fetchone()
    assert replaced == 0


async def test_r13_3_an_exact_tie_waits_for_the_commissioners_order(players) -> None:
    db = await started(players)
    await play(db, {1: [500, 300, 300, 300, 300], 2: [500, 200, 200, 200, 200]})
    assert await results(db) == []  # game 1 is tied (R5.4)
    await score_changes.record_tie_order(db, GUILD, week=2, game_number=1, players=["P2", "P1"],
                                         by=COMMISSIONER, now=at(NIGHT, "21:10"))  # fmt: skip
    (result,) = await results(db)
    assert [name for name, _, _ in result.places] == ["P1", "P2"]


async def test_r13_6_a_field_of_one_is_champion_at_once(players) -> None:
    db = players
    await setup.change_setting(db, GUILD, "playoff_min", 1, now=at(SEASON_START, "09:00"))
    await setup.change_setting(db, GUILD, "playoff_max", 1, now=at(SEASON_START, "09:00"))
    db = await started(db, checked_in="P1")
    (result,) = await results(db)
    assert result.places == [("P1", 0, 0)]


async def test_r13_3_divisions_play_a_final_group_each(league: Database) -> None:
    """Ten players, divisions from week 2 of a two-night season: each division's
    field plays its own group, and a division's champion is posted when its
    own last score is approved; then playoff night is over."""
    db = league
    await two_nights(db, division_week=2)
    night = SEASON_START + timedelta(days=14)
    shown = await playoffs.night_shown(db, GUILD)
    assert isinstance(shown, PlayoffNightShown)
    assert [d.division for d in shown.divisions] == ["A", "B"]
    field = {d.division: d.qualifiers for d in shown.divisions}
    everyone = ", ".join(field["A"] + field["B"])
    await playoff_checkin.check_in(db, GUILD, everyone, now=at(night, "19:00"))
    await playoff_play.start(db, GUILD, FIVE, now=at(night, "19:31"))
    ids = {f"P{n}": discord_id(n) for n in range(1, 11)}
    for division in ("A", "B"):
        for rank, name in enumerate(field[division]):
            for game in range(1, 6):
                await scores.submit(db, GUILD, ids[name], game, 1000 - 100 * rank,
                                    now=at(night, "20:00"))  # fmt: skip
        await approvals.approve_all(db, GUILD, f"{division}1", by=COMMISSIONER,
                                    now=at(night, "21:00"))  # fmt: skip
        decided = [r.division for r in await results(db)]
        assert decided == (["A"] if division == "A" else ["A", "B"])
    first = await results(db)
    assert [r.places[0][0] for r in first] == [field["A"][0], field["B"][0]]
    async with db.read() as conn:
        (status,) = await (await conn.execute(
            "SELECT status FROM nights WHERE kind = 'playoff'")).fetchone()  # fmt: skip
    assert status == "finalized"


async def test_r13_3_no_start_once_started_or_before_the_night(players) -> None:
    db = await started(players)
    with pytest.raises(WrongState) as refused:
        await playoff_play.start(db, GUILD, FIVE, now=at(NIGHT, "19:40"))
    assert str(refused.value) == "Playoff night has already started."


async def test_r13_6_a_replaced_qualifier_places_after_the_field_and_forfeits_a_prize(
    players,
) -> None:
    """P2 did not come and P3 took the place; P1 beats P3. Final places: P1, P3,
    then P2; the prizes skip P2 (the next place takes it)."""
    db = await started(players, checked_in="P1, P3")
    await money.add_to_fund(db, GUILD, 10_000, "sponsor", by=COMMISSIONER, now=at(NIGHT, "20:00"))
    await play(db, {1: [500] * 5, 3: [400] * 5})
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        order = await playoffs.season_order_in(conn, ctx)
        ids = {p.name: p.id for p in await people.players(conn, ctx.league.id)}
    assert order is not None
    assert order.divisions == {"": [ids["P1"], ids["P3"], ids["P2"]]}
    assert order.forfeit == {ids["P2"]}
    shares = await money.prizes(db, GUILD)
    assert shares.by_playoffs
    assert [(s.player, s.place) for s in shares.divisions[""]] == [("P1", 1), ("P3", 2)]


async def test_r13_4_playoff_games_are_not_part_of_the_regular_seasons_machine_stats(
    players,
) -> None:
    """/machine counts the regular season's nights: playoff night's games on a
    machine change neither its picks, vetoes nor its high scores."""
    db = players
    await setup.change_setting(db, GUILD, "regular_nights", 1, now=at(SEASON_START, "09:00"))
    await finalize_week_1(db)
    before = await stats.machine_stats_of(db, GUILD, "Machine A")
    await playoff_checkin.check_in(db, GUILD, "P1, P2", now=at(NIGHT, "19:00"))
    await playoff_play.start(db, GUILD, FIVE, now=at(NIGHT, "19:31"))
    await play(db, {1: [990] * 5, 2: [980] * 5})
    assert len(await results(db)) == 1
    assert await stats.machine_stats_of(db, GUILD, "Machine A") == before
