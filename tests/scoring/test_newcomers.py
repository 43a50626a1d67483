"""R8.6: players joining or leaving between nights, and recutting the groups."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.scoring import cut_groups, group_sizes, with_newcomers


@pytest.mark.parametrize(
    ("ladders", "active", "expected"),
    [
        pytest.param(
            {"": [3, 1, 2]}, [1, 2, 3, 4, 5], {"": [3, 1, 2, 4, 5]},
            id="R8.6 newcomers join the bottom in sign-up order",
        ),
        pytest.param(
            {"": [3, 1, 2, 4]}, [1, 3, 4], {"": [3, 1, 4]},
            id="R8.6 a player who left leaves the ladder, the rest keep their order",
        ),
        pytest.param(
            {"A": [1, 2, 3, 4], "B": [5, 6, 7, 8]}, [1, 2, 3, 4, 5, 6, 7, 8, 9],
            {"A": [1, 2, 3, 4], "B": [5, 6, 7, 8, 9]},
            id="R8.6 with divisions a newcomer joins the bottom of division B",
        ),
        pytest.param(
            {}, [2, 1], {"": [2, 1]},
            id="R8.6 no ladder yet: everyone forms one, in the order given",
        ),
    ],
)  # fmt: skip
def test_r8_6_with_newcomers(
    ladders: dict[str, list[int]], active: list[int], expected: dict[str, list[int]]
) -> None:
    assert with_newcomers(ladders, active) == expected


def test_r8_6_takes_any_hashable_player_key() -> None:
    assert with_newcomers({"": [("P", 1)]}, [("P", 1), ("P", 2)]) == {"": [("P", 1), ("P", 2)]}


def test_r8_6_recut_keeps_the_sizes_of_r8_1() -> None:
    """A fourth player joining a group of 3 makes the bottom group 4 (R8.1)."""
    ladder = with_newcomers({"": ["Ann", "Bob", "Cy"]}, ["Ann", "Bob", "Cy", "Dee"])[""]
    assert cut_groups(ladder) == [["Ann", "Bob", "Cy", "Dee"]]


@given(
    st.lists(st.integers(0, 60), unique=True, max_size=30),
    st.lists(st.integers(0, 60), unique=True, min_size=2, max_size=30),
)
def test_r8_6_everyone_active_is_placed_once_and_nobody_else(
    ladder: list[int], active: list[int]
) -> None:
    result = with_newcomers({"": ladder}, active)
    placed = [p for pool in result.values() for p in pool]
    assert sorted(placed) == sorted(active)
    kept = [p for p in ladder if p in set(active)]
    assert placed[: len(kept)] == kept  # those who stay keep their ladder order
    assert [len(g) for g in cut_groups(placed)] == group_sizes(len(placed))
