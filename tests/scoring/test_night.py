"""The whole-group and whole-night entry points, every value worked by hand.

Every machine's par is 1,000,000 unless a test says otherwise, so a normalized
score equals the raw score (R6.1) and TNS is easy to add up.
"""

from __future__ import annotations

import pytest

from bot.scoring import (
    LIVE,
    PRE_MAKEUP,
    ZERO_POINT,
    ZERO_POINT_LIMIT,
    GameNight,
    GroupNight,
    MissingScoresError,
    PlayerNight,
    RuleError,
    TiedScoresError,
    score_group_night,
    score_night,
)

PAR = 1_000_000
MACHINES = ["M1", "M2", "M3", "M4", "M5"]


def games(rows: dict[str, list[int | None]], par: int = PAR) -> list[GameNight]:
    """Five games on M1..M5 from each player's five scores (None: not played)."""
    return [
        GameNight(machine=m, par=par, scores={p: s[i] for p, s in rows.items()})
        for i, m in enumerate(MACHINES)
    ]


def test_r5_r7_3_case2_three_players_all_present() -> None:
    # G1 600/300/200 -> 4,2,0   G2 300/400/200 -> 2,3,1   G3 500/100/300 -> 4,0,2
    # G4 100/200/300 -> 1,2,3 (300 is not more than 300)   G5 250/150/50 -> 4,2,0
    rows = {
        "P1": [600, 300, 500, 100, 250],
        "P2": [300, 400, 100, 200, 150],
        "P3": [200, 200, 300, 300, 50],
    }
    players = [PlayerNight("P1", 1), PlayerNight("P2", 2), PlayerNight("P3", 3)]
    result = score_group_night(GroupNight(week=3, players=players, games=games(rows)))
    assert [g.points for g in result.games] == [
        {"P1": 4, "P2": 2, "P3": 0},
        {"P1": 2, "P2": 3, "P3": 1},
        {"P1": 4, "P2": 0, "P3": 2},
        {"P1": 1, "P2": 2, "P3": 3},
        {"P1": 4, "P2": 2, "P3": 0},
    ]
    assert result.match_points == {"P1": 15, "P2": 9, "P3": 6}
    assert result.tns == {"P1": 1750.0, "P2": 1150.0, "P3": 1050.0}
    assert result.order == ("P1", "P2", "P3")
    assert (result.winner, result.loser) == ("P1", "P3")
    # Case 2: 15 == 9 + 6 and 1750 is not more than 1150 + 1050, so the point
    # goes to the higher TNS of second and third: P2.
    assert result.bonus_base == {"P1": 3, "P2": 3, "P3": 0}
    assert result.league_points == {"P1": 18, "P2": 12, "P3": 6}
    assert result.games[3].finish == ("P3", "P2", "P1")
    assert all(source == LIVE for g in result.games for source in g.source.values())
    assert result.used_pre_makeup_night == frozenset()


def _absent_c(nights_used: int, week: int) -> GroupNight:
    rows = {"A": [300, 500, 100, 400, 300], "B": [200, 300, 300, 100, 200], "C": [None] * 5}
    c = PlayerNight(
        "C",
        3,
        attendance="absent",
        pre_makeups={"M1": 900, "M2": 100, "M3": 250, "M4": 200},  # none on M5
        pre_makeup_nights_used=nights_used,
    )
    return GroupNight(week=week, players=[PlayerNight("A", 1), PlayerNight("B", 2), c],
                      games=games(rows))  # fmt: skip


def test_r3_2_r3_3_absent_player_scored_from_pre_makeups() -> None:
    result = score_group_night(_absent_c(nights_used=1, week=4))
    # G1: C's pre-makeup 900 beats 300 + 200, but R3.3 gives that point to nobody.
    assert result.games[0].points == {"C": 3, "A": 2, "B": 0}
    assert result.games[0].finish == ("C", "A", "B")
    assert result.games[1].points == {"A": 4, "B": 2, "C": 0}
    assert result.games[2].points == {"B": 3, "C": 2, "A": 1}  # close points count (R3.3)
    assert result.games[3].points == {"A": 4, "C": 2, "B": 0}
    # G5: no pre-makeup on M5, the Zero Point Rule (R3.4): C counts as 0.
    assert result.games[4].points == {"A": 4, "B": 2, "C": 0}
    assert result.games[4].source["C"] == ZERO_POINT
    assert [g.source["C"] for g in result.games[:4]] == [PRE_MAKEUP] * 4
    assert result.match_points == {"A": 15, "B": 7, "C": 7}
    assert result.tns == {"A": 1600.0, "B": 1100.0, "C": 1450.0}
    assert result.order == ("A", "C", "B")  # B and C tie on MP: C has the higher TNS (Case 1)
    assert result.bonus_base == {"A": 4, "C": 2, "B": 0}  # 15 > 7 + 7
    assert result.pre_makeup_games["C"] == (1, 2, 3, 4)
    assert result.used_pre_makeup_night == frozenset({"C"})
    assert "C" in result.took_part


def test_r3_6_r3_8_past_the_limit_zero_points_and_no_part() -> None:
    result = score_group_night(_absent_c(nights_used=3, week=2))
    # The pre-makeup still stands in for the others: C's 900 takes first place's
    # points away from A, but C scores 0 and the game is a loss for C.
    assert result.games[0].points == {"A": 2, "B": 0, "C": 0}
    assert result.games[0].finish == ("A", "B", "C")
    assert result.games[2].points == {"B": 3, "A": 1, "C": 0}
    assert [g.source["C"] for g in result.games] == [ZERO_POINT_LIMIT] * 4 + [ZERO_POINT]
    assert result.match_points == {"A": 15, "B": 7, "C": 0}
    assert result.tns["C"] == 0.0
    assert result.took_part == frozenset({"A", "B"})
    assert result.used_pre_makeup_night == frozenset()
    assert (result.winner, result.loser) == ("A", "B")
    assert result.bonus_base == {"A": 0, "B": 0, "C": 0}  # week 2: no bonus (R7.2)


def test_r8_4_r9_2_r10_3_whole_night_movement_week_results_and_payout() -> None:
    top_rows = {"X": [300] * 5, "Y": [200] * 5, "Z": [100] * 5}  # 3-2-1 every game
    top = GroupNight(
        week=2,
        players=[PlayerNight("X", 1), PlayerNight("Y", 2), PlayerNight("Z", 3)],
        games=games(top_rows),
    )
    outcome = score_night([top, _absent_c(nights_used=3, week=2)], pot_cents=1001)
    assert outcome.groups[0].match_points == {"X": 15, "Y": 10, "Z": 5}
    # Z (top loser) swaps with A (second group's winner); B is the bottom loser
    # and stays; C took no part and keeps their group (R3.8, R8.4).
    assert outcome.next_groups[""] == [["X", "Y", "A"], ["Z", "B", "C"]]
    assert outcome.week_result == {
        "X": "won", "Y": "stayed", "Z": "down", "A": "won", "B": "stayed", "C": "stayed",
    }  # fmt: skip
    # Both winners have TLP 15 (no bonus in week 2); A's TNS 1600 beats X's 1500.
    assert outcome.payouts == {"A": 751, "X": 250}


def test_r10_3_absent_winner_forfeits_to_the_next_present_player() -> None:
    outcome = score_night([_absent_c(nights_used=0, week=4)], pot_cents=400)
    result = outcome.groups[0]
    assert result.winner == "A"
    # Swap roles: make the absent C the winner with huge pre-makeups.
    c = PlayerNight("C", 3, attendance="absent", pre_makeups=dict.fromkeys(MACHINES, 5_000))
    rows = {"A": [300, 500, 100, 400, 300], "B": [200, 300, 300, 100, 200], "C": [None] * 5}
    night = GroupNight(week=4, players=[PlayerNight("A", 1), PlayerNight("B", 2), c],
                       games=games(rows))  # fmt: skip
    outcome = score_night([night], pot_cents=400)
    assert outcome.groups[0].winner == "C"
    assert outcome.payouts == {"A": 400}  # C forfeits (R10.3); A is the only winner left


def test_r3_7_two_players_against_an_absent_player_without_pre_makeups() -> None:
    rows = {"P": [1500, 999, 1000, 10, 1200], "Q": [None] * 5}
    q = PlayerNight("Q", 2, attendance="absent", pre_makeups={"M5": 400})
    night = GroupNight(week=1, players=[PlayerNight("P", 1), q], games=games(rows, par=1000))
    result = score_group_night(night)
    # 3 points, 4 when the raw score is at least the par; on M5 Q's pre-makeup
    # is used as if Q played: 1200 >= 3 x 400 is a tripling.
    assert [g.points["P"] for g in result.games] == [4, 3, 4, 3, 4]
    assert [g.points["Q"] for g in result.games] == [0, 0, 0, 0, 0]
    assert result.games[4].source["Q"] == PRE_MAKEUP
    assert result.match_points == {"P": 18, "Q": 0}


def test_r2_3_late_player_missed_games_from_pre_makeups() -> None:
    rows = {"A": [300, 300, 300, 300, 300], "L": [None, None, 100, 100, 100]}
    late = PlayerNight("L", 2, attendance="late", pre_makeups={"M1": 150})
    night = GroupNight(week=1, players=[PlayerNight("A", 1), late], games=games(rows))
    result = score_group_night(night)
    assert [g.source["L"] for g in result.games] == [PRE_MAKEUP, ZERO_POINT, LIVE, LIVE, LIVE]
    assert result.games[0].points == {"A": 3, "L": 1}  # 300 < 3 x 150: second's point
    # M2: no pre-makeup, a 2-player game: R3.7 gives A 3, since 300 is below par.
    assert result.games[1].points == {"A": 3, "L": 0}
    assert result.used_pre_makeup_night == frozenset({"L"})


def test_missing_scores_of_present_players_are_all_listed() -> None:
    rows = {"A": [1, 2, None, 4, 5], "B": [5, None, 3, 2, None]}
    night = GroupNight(week=1, players=[PlayerNight("A", 1), PlayerNight("B", 2)],
                       games=games(rows))  # fmt: skip
    with pytest.raises(MissingScoresError) as caught:
        score_group_night(night)
    assert caught.value.missing == (("B", 2), ("A", 3), ("B", 5))
    assert "A on game 3" in str(caught.value)


def test_r5_4_tied_scores_need_the_commissioners_order() -> None:
    rows = {"A": [500, 1, 1, 1, 1], "B": [500, 2, 2, 2, 2], "C": [100, 3, 3, 3, 3]}
    players = [PlayerNight("A", 1), PlayerNight("B", 2), PlayerNight("C", 3)]
    with pytest.raises(TiedScoresError, match=r"Game 1 \(M1\): A, B have the same score"):
        score_group_night(GroupNight(week=1, players=players, games=games(rows)))
    ordered = games(rows)
    ordered[0] = GameNight("M1", PAR, ordered[0].scores, tie_break=("B", "A"))
    result = score_group_night(GroupNight(week=1, players=players, games=ordered))
    assert result.games[0].points == {"B": 3, "A": 2, "C": 1}


def test_r7_4_multiplier_applies_from_week_7_and_carries() -> None:
    rows = {"W": [600] * 5, "S": [300] * 5, "L": [200] * 5}  # 4-2-0 every game
    players = [PlayerNight("W", 1, multiplier=3), PlayerNight("S", 2, multiplier=0),
               PlayerNight("L", 3, multiplier=2)]  # fmt: skip
    result = score_group_night(GroupNight(week=7, players=players, games=games(rows)))
    assert result.match_points == {"W": 20, "S": 10, "L": 0}
    assert result.bonus_base == {"W": 4, "S": 2, "L": 0}  # 20 > 10 + 0
    assert result.bonus == {"W": 12, "S": 0, "L": 0}
    assert result.tlp == {"W": 24, "S": 12, "L": 0}  # before the multiplier (R10.2)
    assert result.league_points == {"W": 32, "S": 10, "L": 0}
    assert result.next_multiplier == {"W": 3, "S": 0, "L": 1}


def test_r7_4_week_6_starts_everyone_at_one() -> None:
    rows = {"W": [600] * 5, "S": [300] * 5, "L": [200] * 5}
    players = [PlayerNight("W", 1, multiplier=3), PlayerNight("S", 2, multiplier=3),
               PlayerNight("L", 3, multiplier=0)]  # fmt: skip
    result = score_group_night(GroupNight(week=6, players=players, games=games(rows)))
    assert result.multiplier == {"W": 1, "S": 1, "L": 1}
    assert result.next_multiplier == {"W": 2, "S": 1, "L": 0}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"week": 0}, "Week numbers start at 1"),
        ({"players": [PlayerNight("A", 1)]}, "2 to 4 players"),
        ({"players": [PlayerNight("A", 1), PlayerNight("A", 2)]}, "listed twice"),
        ({"players": [PlayerNight("A", 1), PlayerNight("B", 2, attendance="gone")]}, "attendance"),
        ({"games": []}, "at least one game"),
    ],
)
def test_bad_group_input_is_refused(change: dict, message: str) -> None:
    base = {
        "week": 1,
        "players": [PlayerNight("A", 1), PlayerNight("B", 2)],
        "games": games({"A": [2] * 5, "B": [1] * 5}),
    }
    with pytest.raises(RuleError, match=message):
        score_group_night(GroupNight(**{**base, **change}))


def test_r6_2_a_machine_without_par_cannot_be_finalized() -> None:
    night = GroupNight(week=1, players=[PlayerNight("A", 1), PlayerNight("B", 2)],
                       games=games({"A": [2] * 5, "B": [1] * 5}, par=None))  # fmt: skip
    with pytest.raises(RuleError) as caught:
        score_group_night(night)
    # finalizing shows this refusal to the commissioner as it is
    assert str(caught.value) == (
        "M1 has no par and no approved pre-makeup scores; set its par before finalizing."
    )


def test_scores_from_strangers_and_absent_players_are_refused() -> None:
    players = [PlayerNight("A", 1), PlayerNight("B", 2, attendance="absent")]
    with pytest.raises(RuleError, match="Z has a score on game 1 but is not in this group"):
        score_group_night(GroupNight(1, players, games({"A": [2] * 5, "Z": [1] * 5})))
    with pytest.raises(RuleError, match="B is marked absent but has a score"):
        score_group_night(GroupNight(1, players, games({"A": [2] * 5, "B": [1] * 5})))


def test_r2_4_r3_8_a_late_player_who_never_came_is_absent() -> None:
    rows = {"A": [300] * 5, "B": [200] * 5, "C": [None] * 5}
    players = [PlayerNight("A", 1), PlayerNight("B", 2), PlayerNight("C", 3, attendance="late")]
    result = score_group_night(GroupNight(week=3, players=players, games=games(rows)))
    # No game played and no pre-makeups: C took no part, keeps their group (R8.4),
    # is not the group's loser and gets no bonus (R7.2 Decision).
    assert result.absent == frozenset({"C"})
    assert result.took_part == frozenset({"A", "B"})
    assert (result.winner, result.loser) == ("A", "B")
    assert result.bonus_base["C"] == 0
    outcome = score_night([GroupNight(week=3, players=players, games=games(rows))], pot_cents=100)
    assert outcome.payouts == {"A": 100}


@pytest.mark.parametrize(
    ("kind", "old", "new", "after"),
    [
        ("correction", 1000, 900, 900),
        ("penalty", 1000, None, 0),  # R12.2
        ("malfunction_replay", 1000, 400, 400),  # R12.1: replaces, even lower
        ("malfunction_replay", 1000, 4000, 4000),
        ("slam_tilt_replay", 1000, 400, 1000),  # R12.3: the higher of the two
        ("tilt_replay", 1000, 4000, 4000),
        ("tilt_replay", 1000, 400, 1000),  # R12.3: a tilted-away ball's replay too
    ],
    ids=[
        "correction",
        "R12.2 penalty",
        "R12.1 lower",
        "R12.1 higher",
        "R12.3 keeps",
        "R12.3 takes",
        "R12.3 tilt-away replay keeps",
    ],
)
def test_r12_what_a_changed_score_becomes(kind: str, old: int, new: int | None, after: int) -> None:
    from bot.scoring import changed_score

    assert changed_score(kind, old, new) == after


def test_r12_bad_changes_are_refused() -> None:
    from bot.scoring import changed_score

    with pytest.raises(RuleError, match="Unknown change 'rewind'"):
        changed_score("rewind", 1, 2)
    with pytest.raises(RuleError, match=r"^Give the new score\.$"):  # shown by /league score
        changed_score("correction", 1, None)
    with pytest.raises(RuleError, match="cannot be negative"):
        changed_score("malfunction_replay", 1, -3)
