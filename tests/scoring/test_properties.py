"""Invariants of the rules, checked with hypothesis."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.scoring import (
    cut_groups,
    game_points,
    group_sizes,
    movement,
    resolve_games,
    split_divisions,
    weekly_payout,
)

FEW = settings(max_examples=150, deadline=None)

live_scores = st.lists(
    st.integers(min_value=1, max_value=10**12), min_size=2, max_size=4, unique=True
)


@FEW
@given(live_scores)
def test_r5_live_game_points_sum_to_twice_the_players(scores: list[int]) -> None:
    # R5.1-R5.3: 3+1 = 4 for two players, 3+2+0+1 = 6 for three, 3+2+1+0+1+1 = 8
    # for four: always 2 x players when every player is live.
    points = game_points(scores)
    assert sum(points) == 2 * len(scores)
    assert all(0 <= p <= 4 for p in points)
    # R5: the highest score always takes at least first's 3 points.
    assert points[scores.index(max(scores))] >= 3


@FEW
@given(st.data())
def test_r5_game_points_keep_input_order(data: st.DataObject) -> None:
    scores = data.draw(live_scores)
    perm = data.draw(st.permutations(range(len(scores))))
    points = game_points(scores)
    assert game_points([scores[i] for i in perm]) == [points[i] for i in perm]


@st.composite
def nights(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]], dict[str, int], int]:
    n = draw(st.integers(min_value=2, max_value=16))
    division = draw(st.booleans())
    ladder = draw(st.permutations([f"P{i}" for i in range(n)]))
    groups = cut_groups(ladder, division=division)
    finish = []
    for group in groups:
        order = draw(st.permutations(group))
        present = draw(st.lists(st.booleans(), min_size=len(order), max_size=len(order)))
        finish.append([p for p, here in zip(order, present, strict=True) if here])
    mp = {p: draw(st.integers(min_value=0, max_value=20)) for p in ladder}
    return groups, finish, mp, group_sizes(n, division=division)


@FEW
@given(nights())
def test_r8_movement_keeps_everyone_once_and_every_group_size(
    night: tuple[list[list[str]], list[list[str]], dict[str, int], list[int]],
) -> None:
    groups, finish, mp, sizes = night
    result = movement(groups, finish, mp)
    everyone = sorted(p for group in groups for p in group)
    assert sorted(p for group in result.groups for p in group) == everyone
    assert [len(group) for group in result.groups] == sizes  # R8.6
    # R8.4: a player who took no part keeps their group.
    for i, (group, order) in enumerate(zip(groups, finish, strict=True)):
        for player in group:
            if player not in order:
                assert player in result.groups[i]
    # Nobody both moves up and down; the top group's winner never moves.
    assert not result.moved_up & result.moved_down
    if finish[0]:
        assert finish[0][0] in result.groups[0]


@FEW
@given(
    st.lists(st.text(min_size=1, max_size=4), unique=True, max_size=40).flatmap(
        lambda ranked: st.tuples(
            st.just(ranked), st.sets(st.sampled_from(ranked)) if ranked else st.just(set())
        )
    )
)
def test_r9_3_a_always_holds_half_rounded_down(draw: tuple[list[str], set[str]]) -> None:
    ranked, qualified = draw
    a, b = split_divisions(ranked, qualified)
    assert len(a) == len(ranked) // 2
    assert sorted(a + b) == sorted(ranked)
    # Qualifiers fill A first (R9.3): either every qualifier is in A or A is
    # made only of qualifiers.
    assert set(qualified) <= set(a) or set(a) <= set(qualified)


@st.composite
def group_picks(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    p = draw(st.integers(min_value=1, max_value=12))
    machines = [f"M{i}" for i in range(p)]
    pick = st.lists(st.sampled_from(machines), max_size=6)
    picks = draw(st.lists(pick, max_size=4))
    return machines, picks


@FEW
@given(group_picks())
def test_r4_always_five_games_from_working_machines(
    case: tuple[list[str], list[list[str]]],
) -> None:
    machines, picks = case
    games = resolve_games(machines, picks)
    assert len(games) == 5  # R4.1
    assert set(games) <= set(machines)
    positions = [machines.index(g) for g in games]
    assert positions == sorted(positions)  # R4.6: machine order
    if len(machines) >= 5:
        assert len(set(games)) == 5  # R4.2: vetoes, nothing repeated
    else:
        assert set(games) == set(machines)  # R4.2: repeats, nothing dropped


winner_rows = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=60),
        st.fractions(min_value=0, max_value=10**7),
    ),
    max_size=8,
)


@FEW
@given(st.integers(min_value=0, max_value=10**7), winner_rows)
def test_r10_2_payout_never_exceeds_the_pot(pot: int, rows: list[tuple[int, float]]) -> None:
    winners = [(f"W{i}", tlp, tns) for i, (tlp, tns) in enumerate(rows)]
    paid = weekly_payout(pot, winners)
    assert sum(paid.values()) <= pot
    assert all(amount >= 0 for amount in paid.values())
    if len(winners) >= 2:
        assert sum(paid.values()) == pot
        assert len(paid) == 2
        best = max(winners, key=lambda w: (w[1], w[2]))
        assert paid[best[0]] == max(paid.values())
        assert paid[best[0]] >= pot * 3 // 4
