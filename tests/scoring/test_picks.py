"""Which games a group plays: vetoes and repeats (R4.1-R4.6).

`picks[i]` is player i's picks in preference order, players lowest rank
first (R4.3). The league's machine order is MACHINES (the order they were
added); the first P are the working machines of a test.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.scoring import RuleError, pick_kind, resolve_games, resolve_picks

MACHINES = ["AFM", "TAF", "TZ", "MM", "CV", "TOM", "FH", "WCS"]


def working(p: int) -> list[str]:
    return MACHINES[:p]


@pytest.mark.parametrize(
    ("p", "expected"),
    [
        pytest.param(8, "veto", id="R4.2 P>5 veto"),
        pytest.param(6, "veto", id="R4.2 P=6 veto"),
        pytest.param(5, "none", id="R4.2 P=5 nothing to choose"),
        pytest.param(4, "repeat", id="R4.2 P=4 repeat"),
        pytest.param(1, "repeat", id="R4.2 P=1 repeat"),
    ],
)
def test_r4_2_pick_kind(p: int, expected: str) -> None:
    assert pick_kind(p) == expected


# --- R4.2, R4.4: vetoes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "picks", "applied", "games"),
    [
        # k=2. Round 1: TZ picked by two (applied first), then AFM (single).
        pytest.param(
            7, [["TZ"], ["TZ"], ["AFM"]], ["TZ", "AFM"], ["TAF", "MM", "CV", "TOM", "FH"],
            id="R4.4 shared pick then single",
        ),
        # k=2, all singles: lowest rank first -> CV (p0), FH (p1); AFM (p2) not.
        pytest.param(
            7, [["CV"], ["FH"], ["AFM"]], ["CV", "FH"], ["AFM", "TAF", "TZ", "MM", "TOM"],
            id="R4.4 singles lowest rank first",
        ),
        # k=1: the shared TOM beats the lowest-ranked player's single AFM.
        pytest.param(
            6, [["AFM"], ["TOM"], ["TOM"]], ["TOM"], ["AFM", "TAF", "TZ", "MM", "CV"],
            id="R4.4 shared before single",
        ),
        # k=1, four players, two shared machines in round 1: MM (lowest-ranked
        # picker p0) goes before TZ (lowest-ranked picker p1).
        pytest.param(
            6, [["MM"], ["TZ"], ["TZ"], ["MM"]], ["MM"], ["AFM", "TAF", "TZ", "CV", "TOM"],
            id="R4.4 two shared: lower picker first",
        ),
        # The same with the names the other way round: TZ's lowest-ranked picker
        # is p0, so TZ goes first although MM comes first by name.
        pytest.param(
            6, [["TZ"], ["MM"], ["MM"], ["TZ"]], ["TZ"], ["AFM", "TAF", "MM", "CV", "TOM"],
            id="R4.4 two shared: lower picker first, not by name",
        ),
        # Same picks, k=2: both shared machines, MM then TZ.
        pytest.param(
            7, [["MM"], ["TZ"], ["TZ"], ["MM"]], ["MM", "TZ"], ["AFM", "TAF", "CV", "TOM", "FH"],
            id="R4.4 two shared: both applied",
        ),
        # k=1, three shared by p1 p2 p3 in round 1 vs p0's single.
        pytest.param(
            6, [["CV"], ["TAF"], ["TAF"], ["TAF"]], ["TAF"], ["AFM", "TZ", "MM", "CV", "TOM"],
            id="R4.4 picked by three",
        ),
        # k=3, round by round. R1: TZ shared, then FH single (2 applied).
        # R2: MM shared by p1, p2 goes before p0's single CV: 3 applied.
        pytest.param(
            8, [["TZ", "CV"], ["TZ", "MM"], ["FH", "MM"]], ["TZ", "FH", "MM"],
            ["AFM", "TAF", "CV", "TOM", "WCS"],
            id="R4.4 round 2 shared before round 2 single",
        ),
        # k=1: round 1's single AFM is applied before round 2's shared TAF.
        pytest.param(
            6, [["AFM", "TAF"], ["TZ", "TAF"]], ["AFM"], ["TAF", "TZ", "MM", "CV", "TOM"],
            id="R4.4 earlier round first",
        ),
        # k=2: round 1 singles CV (p0), TZ (p1) -> done; p2's AFM is not used.
        pytest.param(
            7, [["CV", "AFM"], ["TZ"], ["AFM"]], ["CV", "TZ"], ["AFM", "TAF", "MM", "TOM", "FH"],
            id="R4.4 stops at k",
        ),
        # k=3: round 1 singles AFM (p0), TZ (p1). Round 2: p0's TZ is already
        # applied and skipped, p1's MM applied.
        pytest.param(
            8, [["AFM", "TZ"], ["TZ", "MM"], []], ["AFM", "TZ", "MM"],
            ["TAF", "CV", "TOM", "FH", "WCS"],
            id="R4.4 skip machines already applied",
        ),
        # 2-player group, k=2: R1 TAF shared; R2 singles MM (p0) then CV: MM.
        pytest.param(
            7, [["TAF", "MM"], ["TAF", "CV"]], ["TAF", "MM"], ["AFM", "TZ", "CV", "TOM", "FH"],
            id="R4.4 two-player group",
        ),
        # 2-player group, k=1, singles: the lower-ranked player's pick.
        pytest.param(
            6, [["CV"], ["AFM"]], ["CV"], ["AFM", "TAF", "TZ", "MM", "TOM"],
            id="R4.4 two-player singles",
        ),
    ],
)  # fmt: skip
def test_r4_4_vetoes(p: int, picks: list[list[str]], applied: list[str], games: list[str]) -> None:
    result = resolve_picks(working(p), picks)
    assert result.kind == "veto"
    assert result.applied == applied
    assert result.games == games
    assert result.filled == []
    assert resolve_games(working(p), picks) == games


# --- R4.5: picks run out ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "picks", "applied", "filled", "games"),
    [
        # k=2, no picks at all: the first two machines in machine order.
        pytest.param(
            7, [[], [], []], ["AFM", "TAF"], ["AFM", "TAF"], ["TZ", "MM", "CV", "TOM", "FH"],
            id="R4.5 no picks: machine order",
        ),
        pytest.param(
            7, [], ["AFM", "TAF"], ["AFM", "TAF"], ["TZ", "MM", "CV", "TOM", "FH"],
            id="R4.5 no players' picks",
        ),
        # k=2, one pick (FH); the other is filled: AFM.
        pytest.param(
            7, [["FH"], [], []], ["FH", "AFM"], ["AFM"], ["TAF", "TZ", "MM", "CV", "TOM"],
            id="R4.5 one pick then fill",
        ),
        # k=3: round 1 CV, TOM; round 2 both already applied; fill AFM.
        pytest.param(
            8, [["CV", "TOM"], ["TOM", "CV"]], ["CV", "TOM", "AFM"], ["AFM"],
            ["TAF", "TZ", "MM", "FH", "WCS"],
            id="R4.5 picks all repeat applied ones: fill",
        ),
        # k=2: the filler skips the already-vetoed AFM and takes TAF.
        pytest.param(
            7, [["AFM"]], ["AFM", "TAF"], ["TAF"], ["TZ", "MM", "CV", "TOM", "FH"],
            id="R4.5 fill skips applied machine",
        ),
    ],
)  # fmt: skip
def test_r4_5_fill_in_machine_order(
    p: int, picks: list[list[str]], applied: list[str], filled: list[str], games: list[str]
) -> None:
    result = resolve_picks(working(p), picks)
    assert result.applied == applied
    assert result.filled == filled
    assert result.games == games


# --- R4.2: repeats -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "picks", "applied", "filled", "games"),
    [
        # P=4, k=1: p0's TZ is played twice; games in machine order (R4.6).
        pytest.param(
            4, [["TZ"], ["TAF"]], ["TZ"], [], ["AFM", "TAF", "TZ", "TZ", "MM"],
            id="R4.2 P=4 one repeat",
        ),
        # P=3, k=2: AFM shared, then p2's single TZ.
        pytest.param(
            3, [["AFM"], ["AFM"], ["TZ"]], ["AFM", "TZ"], [], ["AFM", "AFM", "TAF", "TZ", "TZ"],
            id="R4.2 P=3 shared then single",
        ),
        # P=3, k=2: p0 picks TZ twice; the second is skipped (already applied),
        # the last repeat is filled in machine order: AFM.
        pytest.param(
            3, [["TZ", "TZ"], [], []], ["TZ", "AFM"], ["AFM"], ["AFM", "AFM", "TAF", "TZ", "TZ"],
            id="R4.2 P=3 no machine thrice",
        ),
        # P=4, k=1, no picks: the first machine is repeated.
        pytest.param(
            4, [[], []], ["AFM"], ["AFM"], ["AFM", "AFM", "TAF", "TZ", "MM"],
            id="R4.5 P=4 fill repeat",
        ),
    ],
)  # fmt: skip
def test_r4_2_repeats(
    p: int, picks: list[list[str]], applied: list[str], filled: list[str], games: list[str]
) -> None:
    result = resolve_picks(working(p), picks)
    assert result.kind == "repeat"
    assert result.applied == applied
    assert result.filled == filled
    assert result.games == games


def test_r4_2_two_machines_one_repeats_more_than_twice() -> None:
    # P=2, k=3 > P: both pick TAF (applied once); the other two come from
    # machine order: AFM, then TAF again. TAF is played 3 times, AFM twice.
    result = resolve_picks(["AFM", "TAF"], [["TAF"], ["TAF"]])
    assert result.games == ["AFM", "AFM", "TAF", "TAF", "TAF"]
    assert result.applied[0] == "TAF"
    assert Counter(result.filled) == Counter({"AFM": 1, "TAF": 1})


def test_r4_2_one_machine_played_five_times() -> None:
    result = resolve_picks(["AFM"], [["AFM"], ["AFM"], []])
    assert result.games == ["AFM"] * 5
    assert result.applied == ["AFM"] * 4


@pytest.mark.parametrize(
    "picks",
    [
        pytest.param([], id="R4.2 P=5 no picks"),
        pytest.param([["AFM"], ["AFM"], ["CV"]], id="R4.2 P=5 picks ignored"),
    ],
)
def test_r4_2_five_machines_all_played(picks: list[list[str]]) -> None:
    result = resolve_picks(working(5), picks)
    assert result.kind == "none"
    assert result.games == ["AFM", "TAF", "TZ", "MM", "CV"]
    assert result.applied == []
    assert result.filled == []


@pytest.mark.parametrize(
    ("p", "picks", "games", "kind", "played"),
    [
        pytest.param(1, [], 1, "none", ["AFM"], id="R4.1 one game a night, one machine"),
        pytest.param(2, [["TAF"]], 1, "veto", ["AFM"], id="R4.2 one game a night, P=2 veto 1"),
        pytest.param(
            4, [["TZ"]], 3, "veto", ["AFM", "TAF", "MM"], id="R4.2 three games a night, P=4 veto"
        ),
        pytest.param(
            2, [["TAF"]], 3, "repeat", ["AFM", "TAF", "TAF"], id="R4.2 three games, P=2 repeat"
        ),
    ],
)
def test_r4_1_games_a_night_is_the_leagues_setting(
    p: int, picks: list[list[str]], games: int, kind: str, played: list[str]
) -> None:
    result = resolve_picks(working(p), picks, games)
    assert (result.kind, result.games) == (kind, played)


def test_r4_6_games_in_machine_order_not_pick_order() -> None:
    # Working machines given in league order; the result follows it even when
    # picks name machines back to front.
    games = resolve_games(["WCS", "FH", "TOM", "CV", "MM", "TZ"], [["WCS"]])
    assert games == ["FH", "TOM", "CV", "MM", "TZ"]


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("machines", "picks", "fragment"),
    [
        pytest.param(working(7), [["WCS"]], "WCS is not a working machine", id="R4.1 not working"),
        pytest.param(
            working(3), [["TZ", "TOM"]], "TOM is not a working machine", id="R4.1 out of order"
        ),
        pytest.param([], [], "No machine is working", id="R4.1 zero working machines"),
        pytest.param(["AFM", "TAF", "AFM"], [], "listed twice", id="R4.1 machine listed twice"),
    ],
)
def test_r4_1_bad_input(machines: list[str], picks: list[list[str]], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as caught:
        resolve_picks(machines, picks)
    assert isinstance(caught.value, RuleError)
