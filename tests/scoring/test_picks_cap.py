"""R4.4 Decision: each machine can be applied at most ceil(k / P) times.

"Skipping machines already applied" means skipping a machine that has
reached that cap, so a player's second pick of the same machine counts
while the cap allows it (P < 5 - P: P = 2 gives k = 3, cap 2; P = 1 gives
k = 4, cap 4). With vetoes (P > 5) the cap is always 1. `picks[i]` is player
i's picks in preference order, players lowest rank first (R4.3)."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.scoring import resolve_picks

MACHINES = ["AFM", "TAF", "TZ", "MM", "CV", "TOM", "FH", "WCS"]


@pytest.mark.parametrize(
    ("p", "picks", "applied", "filled", "games"),
    [
        # P=2, k=3, cap 2: p0's second TAF counts; the third repeat is filled (R4.5).
        pytest.param(
            2, [["TAF", "TAF"], []], ["TAF", "TAF", "AFM"], ["AFM"],
            ["AFM", "AFM", "TAF", "TAF", "TAF"], id="R4.4 P=2 second pick of one machine counts",
        ),
        # P=2: round 1 applies p0's TAF then p1's AFM; p0's second TAF counts in round 2.
        pytest.param(
            2, [["TAF", "TAF"], ["AFM"]], ["TAF", "AFM", "TAF"], [],
            ["AFM", "AFM", "TAF", "TAF", "TAF"], id="R4.4 P=2 second pick counts in round 2",
        ),
        # P=2: TAF shared in rounds 1 and 2 (cap reached); in round 3 p0's TAF is
        # skipped and p1's AFM applies.
        pytest.param(
            2, [["TAF", "TAF", "TAF"], ["TAF", "TAF", "AFM"]], ["TAF", "TAF", "AFM"], [],
            ["AFM", "AFM", "TAF", "TAF", "TAF"], id="R4.4 P=2 third pick past the cap skipped",
        ),
        # P=1, k=4, cap 4: every one of p0's four picks counts; nothing is filled.
        pytest.param(
            1, [["AFM"] * 4], ["AFM"] * 4, [], ["AFM"] * 5, id="R4.4 P=1 four picks of one machine",
        ),
        # P=3, k=2, cap 1: a second pick of TZ is skipped (the cap is reached).
        pytest.param(
            3, [["TZ", "TZ"], ["TZ", "TAF"]], ["TZ", "TAF"], [], ["AFM", "TAF", "TAF", "TZ", "TZ"],
            id="R4.4 P=3 cap 1 second pick skipped",
        ),
        # P=7 vetoes, k=2, cap 1: a machine is vetoed once; p0's second TOM is skipped.
        pytest.param(
            7, [["TOM", "TOM"], []], ["TOM", "AFM"], ["AFM"], ["TAF", "TZ", "MM", "CV", "FH"],
            id="R4.4 P=7 a veto applies once",
        ),
    ],
)  # fmt: skip
def test_r4_4_each_machine_applied_at_most_ceil_k_over_p_times(
    p: int, picks: list[list[str]], applied: list[str], filled: list[str], games: list[str]
) -> None:
    result = resolve_picks(MACHINES[:p], picks)
    assert result.applied == applied
    assert result.filled == filled
    assert result.games == games


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_r4_4_the_cap_always_holds_and_k_are_applied(data: st.DataObject) -> None:
    p = data.draw(st.integers(min_value=1, max_value=8), label="P")
    machines = MACHINES[:p]
    picks = data.draw(
        st.lists(st.lists(st.sampled_from(machines), max_size=6), min_size=2, max_size=4),
        label="picks",
    )
    result = resolve_picks(machines, picks)
    k = abs(p - 5)
    assert len(result.applied) == k
    if k:
        assert max(Counter(result.applied).values()) <= math.ceil(k / p)
    assert len(result.games) == 5
