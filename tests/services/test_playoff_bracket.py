"""A playoff bracket played (R13.3, R13.6): the first matches by seed, machine
picks (the higher seed first, then each game's loser, no machine twice in a
match), a game to the higher raw score and an exact tie replayed, the next
matches made by the results, places, and corrections (R12) that decide again."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.database import Database
from bot.repositories import outbox_items
from bot.services import (
    approvals,
    bracket_games,
    finalize,
    machine_list,
    membership,
    picks,
    playoff_bracket,
    playoff_checkin,
    playoff_play,
    scores,
    setup,
)
from bot.services.errors import BadInput, Conflict, NotAllowed, NotFound, WrongState
from bot.services.outcomes.bracket import BracketResult, GameRecorded
from bot.services.outcomes.playoffs import PlayoffStarted
from bot.services.scores import BRACKET_SCORES
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    discord_id,
)

NIGHT = SEASON_START + timedelta(days=7)
MACHINES = "Machine A, Machine B, Machine C, Machine D"
M = 1_000_000


async def season_of(league: Database, count: int, best_of: int = 3) -> Database:
    """A one-night season of P1..P<count> (P1 best), a bracket of all of them,
    each match best of `best_of`; everyone checked in; play starts at 19:31."""
    db = league
    await add_players(db, count)
    await add_machines(db, 6)
    now = at(SEASON_START, "09:00")
    for name, value in (("regular_nights", 1), ("playoff_format", "bracket"),
                        ("playoff_best_of", best_of), ("playoff_max", 4),
                        ("playoff_min", 4)):  # fmt: skip
        await setup.change_setting(db, GUILD, name, value, now=now)
    await picks.lock_picks(db, GUILD, now=at(SEASON_START, "19:15"))
    for n in range(1, count + 1):
        for game in range(1, 6):
            score = (count + 1 - n) * 100 * M
            await scores.submit(
                db, GUILD, discord_id(n), game, score, now=at(SEASON_START, "20:00")
            )
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(SEASON_START, "22:00"))
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(SEASON_START, "23:00"))
    everyone = ", ".join(f"P{n}" for n in range(1, count + 1))
    await playoff_checkin.check_in(db, GUILD, everyone, now=at(NIGHT, "19:00"))
    return db


async def started(db: Database) -> PlayoffStarted:
    return await playoff_play.start(db, GUILD, MACHINES, now=at(NIGHT, "19:31"))


async def game(db: Database, player: str, mine: int, theirs: int, machine: str | None = None,
               ) -> GameRecorded:  # fmt: skip
    return await bracket_games.play(db, GUILD, player, mine * M, theirs * M, machine,
                                      now=at(NIGHT, "20:00"))  # fmt: skip


async def win(db: Database, winner: str, machines: list[str]) -> GameRecorded:
    """`winner` wins the games on `machines` in turn (the pick named each time)."""
    done = None
    for n, machine in enumerate(machines):  # never the same two scores twice
        done = await game(db, winner, 200 + n + len(winner), 100, machine)
    assert done is not None
    return done


async def owed(db: Database, kind: str) -> list[dict]:
    async with db.read() as conn:
        items = await outbox_items.waiting(conn, GUILD)
    return [json.loads(i.data or "null") for i in items if i.kind == kind]


def matches(recorded: GameRecorded) -> list[tuple[str, str, str, str | None]]:
    return [(m.round, m.high[1], m.low[1], m.winner) for m in recorded.bracket.matches]


async def test_r13_3_four_players_play_1_v_4_and_2_v_3(league) -> None:
    db = await season_of(league, 4)
    play = await started(db)
    assert play.bracket is not None
    shown = [(m.round, m.high, m.low, m.next_picker) for m in play.bracket.matches]
    assert shown == [("semifinal", (1, "P1"), (4, "P4"), "P1"),
                     ("semifinal", (2, "P2"), (3, "P3"), "P2")]  # fmt: skip
    assert play.bracket.machines == ["Machine A", "Machine B", "Machine C", "Machine D"]
    assert len(await owed(db, "playoff_started")) == 1


async def test_r13_3_the_higher_seed_picks_game_1_then_the_loser_of_each_game(league) -> None:
    db = await season_of(league, 4)
    await started(db)
    with pytest.raises(NotAllowed) as refused:
        await bracket_games.pick(db, GUILD, discord_id(4), "Machine A", now=at(NIGHT, "19:40"))
    assert str(refused.value) == "P1 picks game 1's machine (the higher seed picks game 1)."
    picked = await bracket_games.pick(db, GUILD, discord_id(1), "Machine A",
                                        now=at(NIGHT, "19:40"))  # fmt: skip
    assert (picked.number, picked.machine) == (1, "Machine A")
    done = await game(db, "P1", 300, 100)  # on the machine P1 picked
    assert done.match.games[0].machine == "Machine A"
    assert done.match.next_picker == "P4"  # P4 lost game 1
    with pytest.raises(NotAllowed) as refused:
        await bracket_games.pick(db, GUILD, discord_id(1), "Machine B", now=at(NIGHT, "20:10"))
    assert str(refused.value) == "P4 picks game 2's machine (the loser of game 1)."


async def test_r13_3_no_machine_twice_in_a_match_and_only_tonights_machines(league) -> None:
    db = await season_of(league, 4)
    await started(db)
    await game(db, "P1", 300, 100, "Machine A")
    with pytest.raises(BadInput) as refused:
        await game(db, "P4", 300, 100, "Machine A")
    assert str(refused.value) == (
        "Machine A was played in game 1 of this match; no machine is played twice in a match."
    )
    with pytest.raises(BadInput) as refused:
        await game(db, "P4", 300, 100, "Machine F")
    assert str(refused.value) == (
        "Machine F is not one of tonight's playoff machines: Machine A, Machine B, Machine C, "
        "Machine D."
    )
    with pytest.raises(NotFound):
        await game(db, "P4", 300, 100, '=HYPERLINK("x")')
    with pytest.raises(BadInput) as refused:  # nobody picked game 2 yet
        await game(db, "P4", 300, 100)
    assert str(refused.value) == (
        "Game 2's machine is not picked yet: P4 picks it (the loser of game 1). "
        "Name it with machine:."
    )


async def test_r13_3_an_exact_tie_is_refused_with_the_replay_rule(league) -> None:
    db = await season_of(league, 2)
    await started(db)
    with pytest.raises(BadInput) as refused:
        await game(db, "P1", 150, 150, "Machine A")
    assert str(refused.value) == (
        "An exact tie is replayed on the same machine: play game 1 again and enter the "
        "replay's scores."
    )
    done = await game(db, "P2", 151, 150, "Machine A")  # the replay
    assert (done.match.wins, done.match.winner) == ((0, 1), None)


async def test_r13_3_a_player_outside_the_bracket_or_done_is_refused(league) -> None:
    db = await season_of(league, 4)
    await membership.add_player(db, GUILD, "P5", discord_id=discord_id(5), skill=1,
                                now=at(NIGHT, "19:00"))  # fmt: skip
    await started(db)
    with pytest.raises(NotAllowed) as refused:
        await game(db, "P5", 300, 100, "Machine A")
    assert str(refused.value) == "P5 is not in tonight's bracket."
    await win(db, "P1", ["Machine A", "Machine B"])
    with pytest.raises(WrongState) as refused:
        await game(db, "P1", 300, 100, "Machine C")
    assert str(refused.value) == "P1's final waits for the other semifinal."
    with pytest.raises(WrongState) as refused:
        await game(db, "P4", 300, 100, "Machine C")
    assert str(refused.value) == "P4's match for 3rd waits for the other semifinal."


async def test_r13_3_scores_by_score_command_are_refused_on_a_bracket_night(league) -> None:
    db = await season_of(league, 2)
    await started(db)
    with pytest.raises(WrongState) as refused:
        await scores.submit(db, GUILD, discord_id(1), 1, 100 * M, now=at(NIGHT, "20:00"))
    assert str(refused.value) == BRACKET_SCORES


async def test_r13_3_a_match_needs_as_many_machines_as_its_games(league) -> None:
    db = await season_of(league, 2, best_of=5)
    with pytest.raises(BadInput) as refused:
        await started(db)
    assert str(refused.value) == (
        "A match is best of 5 and plays no machine twice: name at least 5 machines, "
        "separated by commas (you named 4)."
    )
    assert await owed(db, "playoff_started") == []


async def test_r13_6_four_players_semis_then_final_and_third(league) -> None:
    db = await season_of(league, 4)
    await started(db)
    await win(db, "P4", ["Machine A", "Machine B"])  # P4 upsets P1
    semi = await win(db, "P2", ["Machine A", "Machine C"])
    assert matches(semi) == [
        ("semifinal", "P1", "P4", "P4"), ("semifinal", "P2", "P3", "P2"),
        ("final", "P2", "P4", None), ("third", "P1", "P3", None),
    ]  # fmt: skip
    assert [m.round for m in semi.made] == ["final", "third"]
    posted = [GameRecorded.from_data(d) for d in await owed(db, "playoff_match")]
    assert [(p.match.round, p.match.winner) for p in posted] == [
        ("semifinal", "P4"),
        ("semifinal", "P2"),
    ]
    await win(db, "P3", ["Machine D", "Machine C"])  # third place: P3 over P1
    assert await owed(db, "playoff_result") == []
    before = len(await owed(db, "prizes"))  # the regular season's end owed them once
    await game(db, "P4", 100, 200, "Machine A")  # P2 wins game 1 of the final
    await game(db, "P4", 300, 200, "Machine B")  # P4 picks (lost game 1) and wins
    await game(db, "P4", 350, 250, "Machine C")
    (result,) = [BracketResult.from_data(d) for d in await owed(db, "playoff_result")]
    assert (result.places, result.final) == (["P4", "P2", "P3", "P1"], (2, 1))
    async with db.read() as conn:  # the last match's post, then the champion, prizes, summary
        kinds = [i.kind for i in await outbox_items.waiting(conn, GUILD)]
    assert kinds[-4:] == ["playoff_match", "playoff_result", "prizes", "season_summary"]
    assert len(await owed(db, "prizes")) == len(await owed(db, "season_summary")) == before + 1
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT p.name, f.place FROM playoff_field f JOIN players p ON p.id = f.player_id"
            " ORDER BY f.place"
        )
        (status,) = await (await conn.execute(
            "SELECT status FROM nights WHERE kind = 'playoff'")).fetchone()  # fmt: skip
    assert [tuple(r) for r in rows] == [("P4", 1), ("P2", 2), ("P3", 3), ("P1", 4)]
    assert status == "finalized"


async def test_r13_3_three_players_seed_1_waits_for_the_semifinal(league) -> None:
    db = await season_of(league, 3)
    play = await started(db)
    assert play.bracket is not None
    assert [(m.round, m.high, m.low) for m in play.bracket.matches] == [
        ("semifinal", (2, "P2"), (3, "P3"))
    ]
    with pytest.raises(WrongState) as refused:
        await game(db, "P1", 300, 100, "Machine A")
    assert str(refused.value) == "P1's final waits for the semifinal."
    semi = await win(db, "P3", ["Machine A", "Machine B"])
    assert [(m.round, m.high[1], m.low[1]) for m in semi.made] == [("final", "P1", "P3")]
    with pytest.raises(WrongState) as refused:  # three players: no match for third
        await game(db, "P2", 300, 100, "Machine C")
    assert str(refused.value) == "P2 has no match left to play tonight."
    await win(db, "P1", ["Machine A", "Machine B"])
    (result,) = [BracketResult.from_data(d) for d in await owed(db, "playoff_result")]
    assert (result.places, result.final) == (["P1", "P3", "P2"], (2, 0))


async def test_r13_3_two_players_play_the_final(league) -> None:
    db = await season_of(league, 2, best_of=1)
    play = await started(db)
    assert play.bracket is not None
    assert [m.round for m in play.bracket.matches] == ["final"]
    done = await game(db, "P2", 400, 100, "Machine D")
    assert done.match.winner == "P2"
    (result,) = [BracketResult.from_data(d) for d in await owed(db, "playoff_result")]
    assert (result.places, result.final) == (["P2", "P1"], (1, 0))
    with pytest.raises(WrongState) as refused:
        await game(db, "P2", 500, 100, "Machine C")
    assert str(refused.value) == (
        "Playoff night is over; a commissioner corrects a game with /playoffs fix."
    )


async def test_r12_r13_6_a_correction_after_the_champion_decides_again(league) -> None:
    db = await season_of(league, 2)
    await started(db)
    await game(db, "P1", 200, 100, "Machine A")
    await game(db, "P1", 100, 200, "Machine B")  # P2, who lost game 1, picked B and wins
    await game(db, "P1", 250, 150, "Machine C")  # P1 wins 2-1
    (first,) = [BracketResult.from_data(d) for d in await owed(db, "playoff_result")]
    assert first.places == ["P1", "P2"]
    before = len(await owed(db, "prizes"))
    with pytest.raises(BadInput) as refused:  # P2 would have won games 1 and 2
        await bracket_games.fix(db, GUILD, "P1", "final", 1, 300 * M, 400 * M, "typo",
                                  by=COMMISSIONER, now=at(NIGHT, "22:00"))  # fmt: skip
    assert str(refused.value) == (
        "With these scores the match was over after game 2, yet 3 games were played: "
        "correct the other games first."
    )
    fixed = await bracket_games.fix(db, GUILD, "P2", "final", 3, 300 * M, 100 * M,
                                      "read the wrong display", by=COMMISSIONER,
                                      now=at(NIGHT, "22:00"))  # fmt: skip
    assert (fixed.corrected, fixed.match.winner, fixed.match.wins) == (True, "P2", (1, 2))
    results = [BracketResult.from_data(d) for d in await owed(db, "playoff_result")]
    assert [r.places for r in results] == [["P1", "P2"], ["P2", "P1"]]
    assert len(await owed(db, "prizes")) == len(await owed(db, "season_summary")) == before + 1
    corrected = [GameRecorded.from_data(d) for d in await owed(db, "playoff_match")][-1]
    assert (corrected.corrected, corrected.match.winner) == (True, "P2")
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT game, old_high, old_low, new_high, new_low, changed_by, reason"
            " FROM playoff_game_changes"
        )
    assert [tuple(r) for r in rows] == [
        (3, 250 * M, 150 * M, 100 * M, 300 * M, COMMISSIONER, "read the wrong display")
    ]


async def test_r12_a_correction_that_changes_a_played_on_result_is_refused(league) -> None:
    db = await season_of(league, 4)
    await started(db)
    await win(db, "P1", ["Machine A", "Machine B"])
    await win(db, "P2", ["Machine A", "Machine B"])
    await game(db, "P2", 300, 100, "Machine C")  # the final is under way
    with pytest.raises(WrongState) as refused:
        await bracket_games.fix(db, GUILD, "P4", "semifinal", 2, 500 * M, 100 * M, "typo",
                                  by=COMMISSIONER, now=at(NIGHT, "21:00"))  # fmt: skip
    assert str(refused.value) == (
        "That changes who won the semifinal, and the final it led to is under way: a "
        "correction cannot change who played a match."
    )


async def test_r12_a_semifinal_corrected_before_the_final_starts_remakes_the_final(
    league,
) -> None:
    db = await season_of(league, 3)
    await started(db)
    semi = await win(db, "P2", ["Machine A", "Machine B"])
    assert [(m.round, m.high[1], m.low[1]) for m in semi.made] == [("final", "P1", "P2")]
    fixed = await bracket_games.fix(db, GUILD, "P3", "semifinal", 2, 300 * M, 100 * M,
                                      "typo", by=COMMISSIONER, now=at(NIGHT, "20:30"))  # fmt: skip
    assert (fixed.match.wins, fixed.match.winner, fixed.made) == ((1, 1), None, [])
    assert [m.round for m in fixed.bracket.matches] == ["semifinal"]  # the final waits again
    done = await game(db, "P3", 310, 100, "Machine C")
    assert [(m.round, m.high[1], m.low[1]) for m in done.made] == [("final", "P1", "P3")]


async def test_r13_3_the_picker_may_pick_again_before_the_game_is_played(league) -> None:
    db = await season_of(league, 2)
    await started(db)
    for machine in ("Machine A", "Machine B"):
        await bracket_games.pick(db, GUILD, discord_id(1), machine, now=at(NIGHT, "19:40"))
    done = await game(db, "P1", 300, 100)
    assert [g.machine for g in done.match.games] == ["Machine B"]
    with pytest.raises(BadInput) as refused:  # named with the scores: must be the pick
        await bracket_games.pick(db, GUILD, discord_id(2), "Machine C", now=at(NIGHT, "20:10"))
        await game(db, "P2", 300, 100, "Machine D")
    assert str(refused.value) == (
        "Game 2 is on the machine P2 picked; leave machine: empty, or the player picks again "
        "with /playoffs pick."
    )


async def test_r13_3_a_machine_marked_not_working_cannot_be_picked(league) -> None:
    db = await season_of(league, 2)
    await started(db)
    await machine_list.set_working(db, GUILD, "Machine C", False)
    with pytest.raises(BadInput) as refused:
        await game(db, "P1", 300, 100, "Machine C")
    assert str(refused.value) == "Machine C is marked not working; pick another machine."


async def test_r13_5_a_bracket_field_of_one_is_champion_at_once(league) -> None:
    """Only P1 of the four came and no alternate is left: P1 plays no match."""
    db = await season_of(league, 4)
    async with db.transaction() as conn:  # only P1 came: a field of one
        await conn.execute("UPDATE playoff_field SET checked_in_at = NULL WHERE player_id != 1")
    play = await started(db)
    assert play.bracket is not None and play.bracket.matches == []
    assert play.bracket.champions == {"": "P1"}
    (result,) = [BracketResult.from_data(d) for d in await owed(db, "playoff_result")]
    assert (result.places, result.final) == (["P1"], None)


async def test_r13_3_a_game_sent_again_is_not_recorded_twice(league) -> None:
    """The commissioner's answer never came and they send the game again: the
    match's last game must not become game 1 of the player's next match."""
    db = await season_of(league, 3)
    await started(db)
    await game(db, "P2", 300, 100, "Machine A")
    await game(db, "P2", 300, 200, "Machine B")  # P2 wins the semifinal: the final is made
    with pytest.raises(Conflict) as refused:
        await game(db, "P2", 300, 200, "Machine C")
    assert str(refused.value) == (
        "That game is already recorded: game 2 of the semifinal, 300,000,000 to 200,000,000."
    )
    shown = await playoff_bracket.shown(db, GUILD)
    assert [(m.round, len(m.games)) for m in shown.matches] == [("semifinal", 2), ("final", 0)]
    fix = dict(by=COMMISSIONER, now=at(NIGHT, "21:00"))
    await bracket_games.fix(db, GUILD, "P3", "semifinal", 1, 50 * M, 300 * M, "typo", **fix)
    with pytest.raises(Conflict) as refused:
        await bracket_games.fix(db, GUILD, "P3", "semifinal", 1, 50 * M, 300 * M, "typo", **fix)
    assert str(refused.value) == (
        "Game 1 of the semifinal already has these scores: nothing changed."
    )
    async with db.read() as conn:
        (changes,) = await (
            await conn.execute("SELECT count(*) FROM playoff_game_changes")
        ).fetchone()
    assert changes == 1


async def test_refused_posts_name_playoff_night_not_a_week_after_the_last(league) -> None:
    """The commissioner's alert of a refused post says 'of playoff night'."""
    db = await season_of(league, 2)
    async with db.read() as conn:
        labels = sorted((await outbox_items.night_weeks(conn, GUILD)).values())
    assert labels == ["playoff night", "week 1"]


async def test_r13_3_a_correction_forgets_a_pick_its_new_loser_did_not_make(league) -> None:
    """P2 lost game 1 and picked game 2's machine; a correction makes P2 game
    1's winner: the pick is forgotten and P1, now the loser, picks."""
    db = await season_of(league, 2)
    await started(db)
    await game(db, "P1", 300, 100, "Machine A")
    await bracket_games.pick(db, GUILD, discord_id(2), "Machine B", now=at(NIGHT, "20:05"))
    fixed = await bracket_games.fix(db, GUILD, "P1", "final", 1, 100 * M, 300 * M, "typo",
                                      by=COMMISSIONER, now=at(NIGHT, "20:10"))  # fmt: skip
    assert ([g.machine for g in fixed.match.games], fixed.match.next_picker) == (
        ["Machine A"],
        "P1",
    )
    with pytest.raises(NotAllowed) as refused:
        await bracket_games.pick(db, GUILD, discord_id(2), "Machine B", now=at(NIGHT, "20:15"))
    assert str(refused.value) == "P1 picks game 2's machine (the loser of game 1)."
    picked = await bracket_games.pick(db, GUILD, discord_id(1), "Machine B",
                                        now=at(NIGHT, "20:16"))  # fmt: skip
    assert picked.match.games[-1].picked_by == "P1"
