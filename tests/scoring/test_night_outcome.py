"""A whole night through `score_night` and `score_group_night`: divisions as
separate pools, the league's settings, Zero Point entries and who took part.

Every machine's par is 1,000,000 unless a test says otherwise, so a normalized
score equals the raw score (R6.1). Every value is worked by hand.
"""

from __future__ import annotations

import pytest

from bot.scoring import (
    ZERO_POINT,
    ZERO_POINT_LIMIT,
    GameNight,
    GroupNight,
    PlayerNight,
    RuleSettings,
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


def group(week: int, scores: dict[str, int], settings: RuleSettings, first_rank: int) -> GroupNight:
    """A group whose players score the same on every machine, in ladder order."""
    players = [PlayerNight(p, first_rank + i) for i, p in enumerate(scores)]
    rows = {p: [s] * 5 for p, s in scores.items()}
    return GroupNight(week=week, players=players, games=games(rows), settings=settings)


def test_r9_4_r8_3_r10_2_divisions_move_apart_and_the_payout_share_is_a_setting() -> None:
    """R9.4: each division moves within itself (R8.3); R10.2: the first share is a
    setting (60% here) and a TLP tie goes by TNS."""
    settings = RuleSettings(payout_first_percent=60)
    nights = [
        # 300 = 200 + 100 is not more: 3-2-1 every game, MP 15, 10, 5.
        group(2, {"a1": 300, "a2": 200, "a3": 100}, settings, 1),
        group(2, {"a4": 300, "a5": 200, "a6": 100}, settings, 4),
        group(2, {"b1": 600, "b2": 400, "b3": 200}, settings, 7),  # 3-2-1, TNS 3,000
        group(2, {"b4": 500, "b5": 300, "b6": 150}, settings, 10),  # 500 > 450: 4-2-0
    ]
    outcome = score_night(nights, pools=["A", "A", "B", "B"], pot_cents=1000)
    assert outcome.next_groups == {
        "A": [["a1", "a2", "a4"], ["a3", "a5", "a6"]],
        "B": [["b1", "b2", "b4"], ["b3", "b5", "b6"]],
    }
    assert outcome.movement == {
        "a1": "stays", "a2": "stays", "a3": "down", "a4": "up", "a5": "stays", "a6": "stays",
        "b1": "stays", "b2": "stays", "b3": "down", "b4": "up", "b5": "stays", "b6": "stays",
    }  # fmt: skip
    assert outcome.week_result == {
        "a1": "won", "a2": "stayed", "a3": "down", "a4": "won", "a5": "stayed", "a6": "stayed",
        "b1": "won", "b2": "stayed", "b3": "down", "b4": "won", "b5": "stayed", "b6": "stayed",
    }  # fmt: skip
    # TLP (week 2, no bonus): b4 20; a1, a4, b1 15, of whom b1 has the highest TNS.
    assert outcome.payouts == {"b4": 600, "b1": 400}


def test_r8_5_the_two_swap_threshold_is_the_leagues_setting() -> None:
    """R8.5 with the setting at 12 MP: Y (11) and Z (5) are at most 12 and P, Q
    (15 each) at least 12, so two swap. At the default 10, Y's 11 would keep Y up."""
    settings = RuleSettings(two_swap_match_points=12)
    # Games 1-4: X 300, Y 200, Z 100 (3-2-1); game 5: Y 300, X 200, Z 100 (Y 3, X 2, Z 1).
    top = GroupNight(
        week=2,
        players=[PlayerNight("X", 1), PlayerNight("Y", 2), PlayerNight("Z", 3)],
        games=games({"X": [300] * 4 + [200], "Y": [200] * 4 + [300], "Z": [100] * 5}),
        settings=settings,
    )
    # Every game P 400, Q 390, R 10, S 5: 400 is not more than 400 (R +1), 390 > 15 (Q +1).
    bottom = group(2, {"P": 400, "Q": 390, "R": 10, "S": 5}, settings, 4)
    outcome = score_night([top, bottom])
    assert outcome.groups[0].match_points == {"X": 14, "Y": 11, "Z": 5}
    assert outcome.groups[1].match_points == {"P": 15, "Q": 15, "R": 10, "S": 0}
    assert outcome.next_groups == {"": [["X", "P", "Q"], ["Y", "Z", "R", "S"]]}
    assert outcome.movement == {
        "X": "stays", "Y": "down", "Z": "down", "P": "up", "Q": "up", "R": "stays", "S": "stays",
    }  # fmt: skip


def test_r7_2_r7_4_bonus_and_multiplier_weeks_are_the_leagues_settings() -> None:
    """R7.5: with bonus points from week 2 and the multiplier from week 3, week 2
    has bonus points and starts everyone at ×1, so week 3 is at ×2 / ×1 / ×0."""
    settings = RuleSettings(bonus_start_week=2, multiplier_start_week=3)
    result = score_group_night(group(2, {"W": 600, "S": 300, "L": 200}, settings, 1))
    assert result.match_points == {"W": 20, "S": 10, "L": 0}  # 600 > 500: 4-2-0
    assert result.bonus_base == {"W": 4, "S": 2, "L": 0}  # 20 > 10 + 0
    assert result.multiplier == {"W": 1, "S": 1, "L": 1}
    assert result.next_multiplier == {"W": 2, "S": 1, "L": 0}


def test_r7_2_r3_6_a_player_who_took_no_part_is_last_and_gets_no_bonus() -> None:
    """C is absent past the pre-makeup limit (R3.6): their 900s stand in and take
    first place from A, but C scores 0 and took no part (R3.8). P scored 0 on
    every game (penalties), so P and C both have MP 0 and TNS 0, and C has the
    better rank. R7.2 Decision: C is still placed last and gets no bonus."""
    c = PlayerNight("C", 2, attendance="absent", pre_makeups=dict.fromkeys(MACHINES, 900),
                    pre_makeup_nights_used=3)  # fmt: skip
    players = [PlayerNight("A", 1), PlayerNight("P", 3), c]
    rows = {"A": [500] * 5, "P": [0] * 5, "C": [None] * 5}
    result = score_group_night(GroupNight(week=3, players=players, games=games(rows)))
    assert [g.source["C"] for g in result.games] == [ZERO_POINT_LIMIT] * 5
    assert result.games[0].points == {"A": 2, "P": 0, "C": 0}  # C 900 first, A 500, P 0
    assert result.match_points == {"A": 10, "P": 0, "C": 0}
    assert result.took_part == frozenset({"A", "P"})
    assert result.order == ("A", "P", "C")
    assert (result.winner, result.loser) == ("A", "P")
    assert result.bonus_base == {"A": 4, "P": 2, "C": 0}  # 10 > 0 + 0


def test_r3_4_r3_6_zero_point_entries_score_0_and_finish_last() -> None:
    """D has no pre-makeup score at all (R3.4); C is past the limit with one on
    M1 only (R3.6). On M1 C's 400 is placed between A and B but C finishes
    with the Zero Point entries, before D; on M2-M5 C and D share last place."""
    c = PlayerNight("C", 3, attendance="absent", pre_makeups={"M1": 400},
                    pre_makeup_nights_used=3)  # fmt: skip
    d = PlayerNight("D", 4, attendance="absent")
    players = [PlayerNight("A", 1), PlayerNight("B", 2), c, d]
    rows = {"A": [500] * 5, "B": [300] * 5, "C": [None] * 5, "D": [None] * 5}
    result = score_group_night(GroupNight(week=1, players=players, games=games(rows, par=1000)))
    m1, m2 = result.games[0], result.games[1]
    assert (m1.number, m1.machine, m1.par) == (1, "M1", 1000)
    assert m1.source == {"A": "live", "B": "live", "C": ZERO_POINT_LIMIT, "D": ZERO_POINT}
    assert m1.scores == {"A": 500, "B": 300, "C": 400, "D": 0}
    # A 500, C 400, B 300, D 0: 500 is not more than 700 (B +1), 400 > 300 (C's, lost).
    assert m1.points == {"A": 3, "B": 2, "C": 0, "D": 0}
    assert m1.finish == ("A", "B", "C", "D")
    assert m2.source == {"A": "live", "B": "live", "C": ZERO_POINT, "D": ZERO_POINT}
    assert m2.scores == {"A": 500, "B": 300, "C": 0, "D": 0}
    assert m2.points == {"A": 4, "B": 3, "C": 0, "D": 0}
    assert m2.finish == ("A", "B", "C", "D")
    assert m2.normalized == {"A": 500_000, "B": 300_000, "C": 0, "D": 0}
    assert result.match_points == {"A": 19, "B": 14, "C": 0, "D": 0}


@pytest.mark.parametrize(
    ("present", "winner", "loser"),
    [
        pytest.param(0, None, None, id="R8.4 nobody took part"),
        pytest.param(1, "A", None, id="R8.4 Decision one player took part"),
    ],
)
def test_r8_4_a_group_with_fewer_than_two_there_has_no_loser(
    present: int, winner: str | None, loser: str | None
) -> None:
    names = ["A", "B", "C"]
    players = [
        PlayerNight(p, i, attendance="present" if i <= present else "absent")
        for i, p in enumerate(names, start=1)
    ]
    rows = {p: ([700] * 5 if i < present else [None] * 5) for i, p in enumerate(names)}
    outcome = score_night([GroupNight(week=6, players=players, games=games(rows))], pot_cents=300)
    result = outcome.groups[0]
    assert (result.winner, result.loser) == (winner, loser)
    assert outcome.payouts == ({} if winner is None else {winner: 300})


def test_r5_4_a_tie_names_the_players_game_and_machine() -> None:
    """R5.4: finalizing refuses the night naming who tied, in which game and on
    which machine; the error carries them."""
    rows = {"A": [1, 7, 1, 1, 1], "B": [2, 7, 2, 2, 2], "C": [3, 3, 3, 3, 3]}
    players = [PlayerNight("A", 1), PlayerNight("B", 2), PlayerNight("C", 3)]
    with pytest.raises(TiedScoresError) as caught:
        score_group_night(GroupNight(week=1, players=players, games=games(rows)))
    error = caught.value
    assert (error.players, error.game, error.machine) == (("A", "B"), 2, "M2")
