"""When a result shows TNS: exactly when TNS broke a tie (R7.1 Case 1, R7.3
Case 2 and its 4-player Decision). Places are in finishing order, 0 = winner."""

from __future__ import annotations

import pytest

from bot.rules.match import tns_decided

ALL = [True] * 4


@pytest.mark.parametrize(
    ("mp", "took_part", "bonus", "shown"),
    [
        ([15, 9, 5], ALL[:3], True, set()),  # no equality anywhere: no TNS
        ([12, 12, 6], ALL[:3], False, {0, 1}),  # R7.1 Case 1: 12 = 12, week 1
        ([15, 8, 7], ALL[:3], True, {0, 1, 2}),  # R7.3 Case 2: 15 = 8 + 7 (worked example)
        ([15, 8, 7], ALL[:3], False, set()),  # weeks 1-2: no bonus, Case 2 decides nothing
        ([16, 10, 5, 5], ALL, True, {1, 2, 3}),  # Decision: second's 10 = 5 + 5, and 5 = 5
        ([20, 10, 6, 4], ALL, True, {0, 1, 2, 3}),  # Decision: MP1 = MP2 + MP3 + MP4
        ([10, 10, 0], [True, True, False], True, {0, 1}),  # 10 = 10 + 0: the absent one not shown
        ([5, 0, 0], [True, False, False], True, set()),  # absentees' 0 = 0 is no tie (R7.2)
        ([6, 6, 6], ALL[:3], False, {0, 1, 2}),  # R7.1 Case 1: three equal MP
        ([10, 10, 5, 5], ALL, True, {0, 1, 2, 3}),  # Case 1 twice, and second's 10 = 5 + 5
        ([9, 5, 4, 1], ALL, True, {0, 1, 2, 3}),  # Decision: 9 = 5 + 4 and 5 = 4 + 1
    ],
)
def test_r7_1_r7_3_tns_shown_exactly_when_it_broke_a_tie(
    mp: list[int], took_part: list[bool], bonus: bool, shown: set[int]
) -> None:
    assert tns_decided(mp, took_part, bonus=bonus) == shown
