"""Divisions A and B (R9.1-R9.4)."""

from __future__ import annotations

import pytest

from bot.scoring import (
    RuleError,
    RuleSettings,
    form_divisions,
    has_divisions,
    qualifies_for_a,
    split_divisions,
)

W, S, D = "won", "stayed", "down"


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        pytest.param(2, False, id="R9.1 2 players one division"),
        pytest.param(7, False, id="R9.1 7 players one division"),
        pytest.param(8, True, id="R9.1 8 players A and B"),
        pytest.param(20, True, id="R9.1 20 players A and B"),
    ],
)
def test_r9_1_has_divisions(n: int, expected: bool) -> None:
    assert has_divisions(n) is expected


def test_r9_1_threshold_is_a_setting() -> None:
    assert has_divisions(8, RuleSettings(division_min_players=10)) is False
    assert has_divisions(10, RuleSettings(division_min_players=10)) is True


@pytest.mark.parametrize(
    ("weeks", "expected"),
    [
        pytest.param([W, W, S, S, D], True, id="R9.2 W=2 S=4 qualifies"),
        pytest.param([W, W, W, W, W], True, id="R9.2 won every week"),
        pytest.param([S, W, S, W, S], True, id="R9.2 W=2 S=5"),
        pytest.param([W, W, S, D, D], False, id="R9.2 W=2 S=3 no"),
        # Three wins but two weeks down: S = 3.
        pytest.param([W, W, W, D, D], False, id="R9.2 W=3 S=3 no"),
        pytest.param([W, S, S, S, S], False, id="R9.2 W=1 S=5 no"),
        pytest.param([S, S, S, S, S], False, id="R9.2 never won no"),
        pytest.param([D, W, D, W, S], False, id="R9.2 W=2 S=3 mixed no"),
    ],
)
def test_r9_2_qualifies_for_a(weeks: list[str], expected: bool) -> None:
    assert qualifies_for_a(weeks) is expected


@pytest.mark.parametrize(
    ("weeks", "fragment"),
    [
        pytest.param([W, W, S, S, S, S], "5 weeks", id="R9.2 six weeks"),
        pytest.param([W, "moved up", S], "'won', 'stayed' or 'down'", id="R9.2 unknown result"),
    ],
)
def test_r9_2_bad_input(weeks: list[str], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as caught:
        qualifies_for_a(weeks)
    assert isinstance(caught.value, RuleError)


RANKED8 = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]


@pytest.mark.parametrize(
    ("ranked", "qualified", "a", "b"),
    [
        # Exactly floor(8/2) = 4 qualify.
        pytest.param(
            RANKED8, {"p2", "p4", "p6", "p8"}, ["p2", "p4", "p6", "p8"], ["p1", "p3", "p5", "p7"],
            id="R9.3 exactly n/2 qualify",
        ),
        # Five qualify for four seats: the lowest-ranked qualifier (p7) goes to B.
        pytest.param(
            RANKED8, {"p1", "p2", "p3", "p5", "p7"}, ["p1", "p2", "p3", "p5"],
            ["p4", "p6", "p7", "p8"],
            id="R9.3 too many: lowest-ranked qualifier to B",
        ),
        # Two qualify: the highest-ranked others (p1, p2) join A.
        pytest.param(
            RANKED8, {"p3", "p6"}, ["p1", "p2", "p3", "p6"], ["p4", "p5", "p7", "p8"],
            id="R9.3 too few: highest-ranked others join A",
        ),
        pytest.param(
            RANKED8, set(), ["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"],
            id="R9.3 nobody qualifies: top half",
        ),
        pytest.param(
            RANKED8, set(RANKED8), ["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"],
            id="R9.3 everybody qualifies: top half",
        ),
        # n = 9: A holds floor(9/2) = 4; (n-1)/2 in the document.
        pytest.param(
            [*RANKED8, "p9"], {"p9", "p8", "p7", "p6", "p5"}, ["p5", "p6", "p7", "p8"],
            ["p1", "p2", "p3", "p4", "p9"],
            id="R9.3 odd n=9: A holds 4",
        ),
    ],
)  # fmt: skip
def test_r9_3_split_divisions(
    ranked: list[str], qualified: set[str], a: list[str], b: list[str]
) -> None:
    assert split_divisions(ranked, qualified) == (a, b)


def test_r9_3_split_divisions_unknown_qualifier() -> None:
    with pytest.raises(ValueError, match="not in the standings"):
        split_divisions(RANKED8, {"p1", "zz"})


def test_r9_3_split_divisions_duplicate_player() -> None:
    with pytest.raises(ValueError, match="appears twice"):
        split_divisions(["p1", "p2", "p1"], set())


def test_r9_4_form_divisions_eight_players() -> None:
    # p1, p3, p5, p7 qualify (W=2, S=4); the others do not. A holds 4 and
    # each division of 4 plays as two groups of 2 (R8.1), cut from the
    # ladder order (R8.6), not the standings.
    good = [W, W, S, S, D]
    bad = [S, S, D, D, W]
    recent = {p: good if p in {"p1", "p3", "p5", "p7"} else bad for p in RANKED8}
    ladder = ["p5", "p1", "p2", "p7", "p3", "p4", "p6", "p8"]
    assert form_divisions(RANKED8, recent, ladder) == {
        "A": [["p5", "p1"], ["p7", "p3"]],
        "B": [["p2", "p4"], ["p6", "p8"]],
    }


def test_r9_4_form_divisions_ten_players_too_few_qualify() -> None:
    # Only p9 qualifies; A holds 5: p9 plus the highest-ranked p1..p4.
    # Ladder = standings here. A: p1 p2 p3 p4 p9 -> groups 3 + 2; B: 3 + 2.
    ranked = [f"p{i}" for i in range(1, 11)]
    recent = {p: ([W, W, S, S, S] if p == "p9" else [D, D, D, D, D]) for p in ranked}
    assert form_divisions(ranked, recent, ranked) == {
        "A": [["p1", "p2", "p3"], ["p4", "p9"]],
        "B": [["p5", "p6", "p7"], ["p8", "p10"]],
    }


def test_r9_4_only_last_five_weeks_count() -> None:
    # R9.2 looks at the 5 weeks before the division week only: p8's four
    # early wins are older than that (last five: W=1), p7's early downs too
    # (last five: W=2, S=5). A = p7 plus the highest-ranked p1, p2, p3.
    ranked = [f"p{i}" for i in range(1, 9)]
    recent = {p: [D] * 5 for p in ranked}
    recent["p8"] = [W, W, W, W, W, D, D, D, D]
    recent["p7"] = [D, D, W, W, S, S, S]
    result = form_divisions(ranked, recent, ranked)
    a_players = {p for group in result["A"] for p in group}
    assert a_players == {"p1", "p2", "p3", "p7"}


def test_r9_4_form_divisions_players_must_match() -> None:
    with pytest.raises(ValueError, match="same players"):
        form_divisions(RANKED8, {}, RANKED8[:-1])


def test_r9_2_a_player_with_no_weeks_yet_does_not_qualify() -> None:
    # Only p3 and p5 have week results; the others joined since (R8.6) and have
    # none: W = 0, they do not qualify, and the highest-ranked fill A (R9.3).
    recent = {"p3": [W, W, S, S, D], "p5": [W, W, S, S, S]}
    assert form_divisions(RANKED8, recent, RANKED8) == {
        "A": [["p1", "p2"], ["p3", "p5"]],
        "B": [["p4", "p6"], ["p7", "p8"]],
    }
