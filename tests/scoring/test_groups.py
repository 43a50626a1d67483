"""Group sizes, week-1 seeding and weekly movement (R8.1-R8.6).

Within a group docs/rules.md fixes membership, not seating, so next week's groups
are compared as sets, top group first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from bot.scoring import (
    RuleError,
    cut_groups,
    group_sizes,
    movement,
    next_groups,
    seed_groups,
    skill_order,
)


def as_sets(groups: Sequence[Sequence[str]]) -> list[set[str]]:
    return [set(group) for group in groups]


def sets(*groups: str) -> list[set[str]]:
    """sets("ABC", "DEF") -> [{"A","B","C"}, {"D","E","F"}]"""
    return [set(group) for group in groups]


# --- R8.1: group sizes -------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        pytest.param(0, [], id="R8.1 n=0 no groups"),
        pytest.param(2, [2], id="R8.1 n=2"),
        pytest.param(3, [3], id="R8.1 n=3"),
        pytest.param(4, [4], id="R8.1 n=4 one group of 4"),
        pytest.param(5, [3, 2], id="R8.1 n=5 bottom 2"),
        pytest.param(6, [3, 3], id="R8.1 n=6"),
        pytest.param(7, [3, 4], id="R8.1 n=7 bottom 4"),
        pytest.param(8, [3, 3, 2], id="R8.1 n=8 bottom 2"),
        pytest.param(9, [3, 3, 3], id="R8.1 n=9"),
        pytest.param(10, [3, 3, 4], id="R8.1 n=10 bottom 4"),
        pytest.param(11, [3, 3, 3, 2], id="R8.1 n=11 bottom 2"),
        pytest.param(13, [3, 3, 3, 4], id="R8.1 n=13 bottom 4"),
    ],
)
def test_r8_1_group_sizes(n: int, expected: list[int]) -> None:
    assert group_sizes(n) == expected


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        pytest.param(4, [2, 2], id="R8.1 division n=4 -> 2+2"),
        pytest.param(5, [3, 2], id="R8.1 division n=5"),
        pytest.param(6, [3, 3], id="R8.1 division n=6"),
        pytest.param(7, [3, 4], id="R8.1 division n=7"),
        pytest.param(8, [3, 3, 2], id="R8.1 division n=8"),
    ],
)
def test_r8_1_division_has_at_least_two_groups(n: int, expected: list[int]) -> None:
    assert group_sizes(n, division=True) == expected


@pytest.mark.parametrize(
    ("n", "fragment"),
    [
        # Shown as it is when removing a player would leave a pool of one.
        pytest.param(
            1, r"^One player cannot make a group; a group needs 2 to 4 players\.$", id="R8.1 n=1"
        ),
        pytest.param(-3, "whole number", id="R8.1 negative"),
        pytest.param(4.5, "whole number", id="R8.1 fractional"),
    ],
)
def test_r8_1_group_sizes_bad_input(n: object, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as caught:
        group_sizes(n)  # type: ignore[arg-type]
    assert isinstance(caught.value, RuleError)


@pytest.mark.parametrize(
    ("ladder", "division", "expected"),
    [
        pytest.param("ABCDEFGH", False, ["ABC", "DEF", "GH"], id="R8.6 cut 8 from the top"),
        pytest.param("ABCDEFG", False, ["ABC", "DEFG"], id="R8.6 cut 7: bottom 4"),
        pytest.param("ABCD", True, ["AB", "CD"], id="R8.6 division of 4: 2+2"),
        pytest.param("ABCD", False, ["ABCD"], id="R8.6 league of 4: one group"),
        pytest.param("ZYXWVU", False, ["ZYX", "WVU"], id="R8.6 ladder order, not alphabetical"),
    ],
)
def test_r8_6_cut_groups_from_ladder(ladder: str, division: bool, expected: list[str]) -> None:
    assert cut_groups(list(ladder), division=division) == [list(g) for g in expected]


def test_r8_6_cut_groups_refuses_duplicates() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        cut_groups(["A", "B", "A"])


# --- R8.2: week 1 seeding -----------------------------------------------------------

SIGNUPS: list[tuple[str, float | None]] = [
    ("Ann", 7),
    ("Bob", None),
    ("Cy", 5),
    ("Di", 6),
    ("Ed", None),
    ("Flo", 7),
    ("Gus", 10),
]


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        # 10, then 7/7 in sign-up order, 6, the unrated block at 5.5 in
        # sign-up order, then 5.
        pytest.param(
            SIGNUPS, ["Gus", "Ann", "Flo", "Di", "Bob", "Ed", "Cy"], id="R8.2 unrated at 5.5"
        ),
        pytest.param(
            [("Z", 8), ("Y", 8), ("X", 8)], ["Z", "Y", "X"], id="R8.2 ties keep sign-up order"
        ),
        pytest.param(
            [("P", None), ("Q", None), ("R", None)], ["P", "Q", "R"], id="R8.2 all unrated"
        ),
        # 6 above the unrated block, 5 below it.
        pytest.param(
            [("Lo", 5), ("Un", None), ("Hi", 6)],
            ["Hi", "Un", "Lo"],
            id="R8.2 unrated between 6 and 5",
        ),
        pytest.param([("N", 1), ("E", 10)], ["E", "N"], id="R8.2 10 is expert, 1 novice"),
    ],
)
def test_r8_2_skill_order(players: list[tuple[str, float | None]], expected: list[str]) -> None:
    assert skill_order(players) == expected


def test_r8_2_seed_groups_cut_from_skill_order() -> None:
    assert seed_groups(SIGNUPS) == [["Gus", "Ann", "Flo"], ["Di", "Bob", "Ed", "Cy"]]


def test_r8_2_seed_groups_division_of_four() -> None:
    players = [("A", 2), ("B", 9), ("C", None), ("D", 4)]
    assert seed_groups(players, division=True) == [["B", "C"], ["D", "A"]]


@pytest.mark.parametrize(
    ("players", "fragment"),
    [
        pytest.param([("A", 11)], "1 to 10", id="R8.2 rating above 10"),
        pytest.param([("A", 0)], "1 to 10", id="R8.2 rating below 1"),
        pytest.param([("A", 5), ("A", 6)], "listed twice", id="R8.2 duplicate player"),
    ],
)
def test_r8_2_skill_order_bad_input(players: list, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        skill_order(players)


# --- R8.3: movement -------------------------------------------------------------------


def mp_all(groups: Sequence[str], value: int = 8) -> dict[str, int]:
    return {p: value for group in groups for p in group}


def test_r8_3_document_example_two_groups() -> None:
    groups = [["A", "B", "C"], ["D", "E", "F"]]
    finish = [["B", "C", "A"], ["F", "D", "E"]]
    result = next_groups(groups, finish, mp_all(["ABC", "DEF"]))
    # B, C, F in the top group; A and D in the second, with E (the bottom
    # group's loser stays when there is no group 3).
    assert as_sets(result) == sets("BCF", "ADE")


def test_r8_3_document_example_three_groups() -> None:
    groups = [list("ABC"), list("DEF"), list("GHI")]
    finish = [["B", "C", "A"], ["F", "D", "E"], ["H", "G", "I"]]
    result = movement(groups, finish, mp_all(["ABC", "DEF", "GHI"]))
    # [A, D, winner of group 3] and E moves to group 3.
    assert as_sets(result.groups) == sets("BCF", "ADH", "EGI")
    assert result.moved_up == {"F", "H"}
    assert result.moved_down == {"A", "E"}


@pytest.mark.parametrize(
    ("finish", "expected"),
    [
        pytest.param(
            ["ABC", "DEF", "GHI"], ["ABD", "CEG", "FHI"], id="R8.3 top winner and bottom loser stay"
        ),
        pytest.param(["CBA", "FED", "IHG"], ["CBF", "AEI", "DHG"], id="R8.3 reversed finishes"),
        pytest.param(["ABC", "DE"], ["ABD", "CE"], id="R8.3 bottom group of 2"),
    ],
)
def test_r8_3_winner_swaps_with_loser_above(finish: list[str], expected: list[str]) -> None:
    groups = [sorted(f) for f in finish]
    result = next_groups(groups, [list(f) for f in finish], mp_all(finish))
    assert as_sets(result) == sets(*expected)


def test_r8_3_single_group_nobody_moves() -> None:
    result = movement([["A", "B", "C"]], [["C", "B", "A"]], mp_all(["ABC"]))
    assert as_sets(result.groups) == sets("ABC")
    assert result.moved_up == frozenset()
    assert result.moved_down == frozenset()


# --- R8.4: absences ---------------------------------------------------------------------

NINE = [list("ABC"), list("DEF"), list("GHI")]


@pytest.mark.parametrize(
    ("finish", "expected", "up", "down"),
    [
        # F absent: of the two present, E (first) moves up, D (last) down;
        # F keeps group 2.
        pytest.param(["ABC", "ED", "GHI"], ["ABE", "CFG", "DHI"], "EG", "CD", id="R8.4 one absent"),
        # Only E present in group 2: E moves up, nobody moves down from group 2,
        # so the 2-3 boundary does not swap and G stays.
        pytest.param(
            ["ABC", "E", "GHI"], ["ABE", "CDF", "GHI"], "E", "C", id="R8.4 one present goes up"
        ),
        # Only A present in the top group: nobody can move down from it, so the
        # 1-2 boundary does not swap and D (group 2's winner) stays.
        pytest.param(
            ["A", "DEF", "GHI"], ["ABC", "DEG", "FHI"], "G", "F", id="R8.4 lone top player"
        ),
        # Nobody present in group 3: the 2-3 boundary does not swap, F stays.
        pytest.param(
            ["ABC", "DEF", ""], ["ABD", "CEF", "GHI"], "D", "C", id="R8.4 group all absent"
        ),
        # C absent in the top group: B (top group's winner) stays, A goes down.
        pytest.param(
            ["BA", "DEF", "GHI"], ["BCD", "AEG", "FHI"], "DG", "AF", id="R8.4 absent in top group"
        ),
        # Only H present in the bottom group: H moves up, F comes down.
        pytest.param(
            ["ABC", "DEF", "H"], ["ABD", "CEH", "FGI"], "DH", "CF", id="R8.4 lone bottom player up"
        ),
        # Group 2 has one present (E) and group 3 has one present (H): E moves
        # up (C comes down), group 2 sends nobody down so H stays.
        pytest.param(["ABC", "E", "H"], ["ABE", "CDF", "GHI"], "E", "C", id="R8.4 two lone groups"),
    ],
)
def test_r8_4_absent_players_keep_their_group(
    finish: list[str], expected: list[str], up: str, down: str
) -> None:
    result = movement(NINE, [list(f) for f in finish], mp_all(["ABC", "DEF", "GHI"]))
    assert as_sets(result.groups) == sets(*expected)
    assert result.moved_up == set(up)
    assert result.moved_down == set(down)


def test_r8_4_two_player_group_with_one_absent() -> None:
    # Bottom group [D, E], D absent: E (one present) moves up, C comes down,
    # D keeps the bottom group.
    result = next_groups([list("ABC"), list("DE")], [list("ABC"), ["E"]], mp_all(["ABC", "DE"]))
    assert as_sets(result) == sets("ABE", "CD")


# --- R8.5: the 4-player two-swap -----------------------------------------------------------

FOUR_BELOW = [list("ABC"), list("DEFG")]
FOUR_FINISH = [list("ABC"), list("DEFG")]


@pytest.mark.parametrize(
    ("mp", "expected"),
    [
        # D 12, E 10 (>= 10) up; B 10, C 8 (<= 10) down: two swap.
        pytest.param(
            {"A": 16, "B": 10, "C": 8, "D": 12, "E": 10, "F": 8, "G": 6},
            ["ADE", "BCFG"],
            id="R8.5 both conditions at the 10 MP boundary: two swap",
        ),
        pytest.param(
            {"A": 20, "B": 4, "C": 2, "D": 20, "E": 18, "F": 1, "G": 0},
            ["ADE", "BCFG"],
            id="R8.5 clearly both: two swap",
        ),
        # E scored 9: one of those moving up is below 10 -> single swap.
        pytest.param(
            {"A": 16, "B": 10, "C": 8, "D": 12, "E": 9, "F": 8, "G": 6},
            ["ABD", "CEFG"],
            id="R8.5 second up has 9: one swap",
        ),
        # B scored 11: more than 10, B cannot move down -> single swap.
        pytest.param(
            {"A": 16, "B": 11, "C": 8, "D": 12, "E": 10, "F": 8, "G": 6},
            ["ABD", "CEFG"],
            id="R8.5 second-last above scored 11: one swap",
        ),
        # B 12 and C 11: both of those who would move down scored more than 10.
        pytest.param(
            {"A": 16, "B": 12, "C": 11, "D": 12, "E": 10, "F": 8, "G": 6},
            ["ABD", "CEFG"],
            id="R8.5 both above scored over 10: one swap",
        ),
        # Neither condition.
        pytest.param(
            {"A": 16, "B": 14, "C": 12, "D": 9, "E": 7, "F": 5, "G": 3},
            ["ABD", "CEFG"],
            id="R8.5 neither condition: one swap",
        ),
    ],
)
def test_r8_5_four_player_two_swap(mp: Mapping[str, int], expected: list[str]) -> None:
    result = next_groups(FOUR_BELOW, FOUR_FINISH, mp)
    assert as_sets(result) == sets(*expected)


def test_r8_5_two_swap_moved_sets() -> None:
    mp = {"A": 16, "B": 10, "C": 8, "D": 12, "E": 10, "F": 8, "G": 6}
    result = movement(FOUR_BELOW, FOUR_FINISH, mp)
    assert result.moved_up == {"D", "E"}
    assert result.moved_down == {"B", "C"}


def test_r8_5_only_a_four_player_group_swaps_two() -> None:
    # A 3-player group below a 3-player group swaps one, whatever the MP.
    mp = {"A": 16, "B": 10, "C": 8, "D": 12, "E": 10, "F": 8}
    result = next_groups([list("ABC"), list("DEF")], [list("ABC"), list("DEF")], mp)
    assert as_sets(result) == sets("ABD", "CEF")


def test_r8_5_two_swap_below_a_normal_swap() -> None:
    # Three groups, the bottom one of 4. 1-2: D up, C down. 2-3: G 11 and
    # H 10 up, E 10 and F 10 down (E and F are group 2's last two; D, its
    # winner, moves up anyway).
    groups = [list("ABC"), list("DEF"), list("GHIJ")]
    finish = [list("ABC"), list("DEF"), list("GHIJ")]
    mp = {"A": 20, "B": 15, "C": 9, "D": 14, "E": 10, "F": 10, "G": 11, "H": 10, "I": 5, "J": 2}
    result = next_groups(groups, finish, mp)
    assert as_sets(result) == sets("ABD", "CGH", "EFIJ")


def test_r8_5_with_an_absent_player_in_the_four_player_group() -> None:
    # G took no part (keeps the group); D and E, first and second of the
    # present, scored at least 10, B and C no more than 10: two swap.
    mp = {"A": 16, "B": 10, "C": 8, "D": 12, "E": 10, "F": 8}
    result = next_groups(FOUR_BELOW, [list("ABC"), list("DEF")], mp)
    assert as_sets(result) == sets("ADE", "BCFG")


def test_r8_5_threshold_is_a_setting() -> None:
    mp = {"A": 16, "B": 10, "C": 8, "D": 12, "E": 10, "F": 8, "G": 6}
    result = next_groups(FOUR_BELOW, FOUR_FINISH, mp, two_swap_match_points=11)
    # E's 10 is below 11 -> one swap.
    assert as_sets(result) == sets("ABD", "CEFG")


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "finish", "fragment"),
    [
        pytest.param(
            [list("ABC"), list("DEF")], [list("ABC"), list("DEX")], "X is not in group 2",
            id="R8.3 unknown player in finish",
        ),
        pytest.param(
            [list("ABC"), list("DEF")], [list("ABD"), list("EF")], "D is not in group 1",
            id="R8.3 player finishing in the wrong group",
        ),
        pytest.param(
            [list("ABC"), list("DEF")], [list("ABC")], "finishing order for each",
            id="R8.3 missing a group's finish",
        ),
        pytest.param(
            [list("ABC"), list("DEA")], [list("ABC"), list("DE")], "listed twice",
            id="R8.3 player in two groups",
        ),
        pytest.param(
            [list("ABC"), list("DEF")], [list("ABA"), list("DEF")], "listed twice",
            id="R8.3 player twice in a finish",
        ),
    ],
)  # fmt: skip
def test_r8_3_bad_input(groups: list, finish: list, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as caught:
        next_groups(groups, finish, {})
    assert isinstance(caught.value, RuleError)
