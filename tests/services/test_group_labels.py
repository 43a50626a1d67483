"""One way to name a group: what the bot prints and what the commissioner types."""

from __future__ import annotations

import pytest

from bot.models import Group
from bot.services.errors import BadInput
from bot.services.season import group_at, group_label, parse_group_label


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("1", ("", 1)), (" 12 ", ("", 12)), ("A1", ("A", 1)), ("b2", ("B", 2)), ("B 3", ("B", 3))],
)
def test_group_names_the_commissioner_types(typed: str, expected: tuple[str, int]) -> None:
    assert parse_group_label(typed) == expected


@pytest.mark.parametrize("typed", ["", "C1", "A", "1A", "²", "١", "Group", "-1", "A1B"])
def test_anything_else_is_refused_with_the_forms_accepted(typed: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_group_label(typed)
    assert str(refused.value) == "Name the group as 1, 2, … or A1, B2 with divisions."


def test_a_parsed_name_finds_the_group_the_bot_labels_so() -> None:
    groups = [Group(10, 1, "A", 1, (1, 2, 3)), Group(11, 1, "B", 1, (4, 5, 6))]
    found = group_at(groups, *parse_group_label("b1"))
    assert found is groups[1]
    assert group_label(found) == "Division B · Group 1"
    assert group_at(groups, *parse_group_label("2")) is None
