"""R13.3 and R13.6: the playoff formats' pure rules, the final group's places
and a bracket's matches, games, machine picks and places."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.rules.errors import RuleError
from bot.rules.playoffs import (
    Match,
    bracket_matches,
    bracket_places,
    decided_after,
    final_group_places,
    first_matches,
    format_week,
    later_matches,
    machines_left,
    match_winner,
    next_picker,
    prize_order,
    season_places,
    wins_needed,
)


def test_r13_3_the_final_group_places_by_points_then_normalized_total_then_standing() -> None:
    seeds = ["Ann", "Bob", "Cat", "Dan"]
    points = {"Ann": 10, "Bob": 12, "Cat": 10, "Dan": 10}
    normalized = {"Ann": Fraction(5), "Bob": Fraction(1), "Cat": Fraction(7), "Dan": Fraction(5)}
    # Bob on points; Cat over Ann and Dan on the normalized total; Ann over Dan by seed.
    assert final_group_places(seeds, points, normalized) == ["Bob", "Cat", "Ann", "Dan"]


def test_r13_3_a_final_group_with_no_scores_yet_goes_by_standing() -> None:
    assert final_group_places(["Ann", "Bob", "Cat"], {}, {}) == ["Ann", "Bob", "Cat"]


def test_r13_3_a_normalized_total_counts_exactly() -> None:
    """R6.1: exact fractions, so a third of a point apart still places apart."""
    normalized = {"Ann": Fraction(1, 3), "Bob": Fraction(2, 3)}
    assert final_group_places(["Ann", "Bob"], {"Ann": 4, "Bob": 4}, normalized) == ["Bob", "Ann"]


@pytest.mark.parametrize(
    ("seeds", "expected"),
    [
        pytest.param([1, 2, 3, 4], [Match(1, 4), Match(2, 3)], id="4: 1 v 4 and 2 v 3"),
        pytest.param([1, 2, 3], [Match(2, 3)], id="3: 2 v 3, seed 1 waits"),
        pytest.param([1, 2], [Match(1, 2)], id="2: the final"),
    ],
)
def test_r13_3_a_brackets_first_matches_by_seed(
    seeds: list[int], expected: list[Match[int]]
) -> None:
    assert first_matches(seeds) == expected


@pytest.mark.parametrize("size", [0, 1, 5])
def test_r13_1_a_bracket_is_for_2_to_4_players(size: int) -> None:
    with pytest.raises(RuleError) as refused:
        first_matches(list(range(size)))
    assert str(refused.value) == f"A playoff bracket is for 2 to 4 players, not {size}."


@pytest.mark.parametrize(("best_of", "needed"), [(1, 1), (3, 2), (5, 3)])
def test_r13_3_a_match_is_won_by_a_majority_of_its_games(best_of: int, needed: int) -> None:
    assert wins_needed(best_of) == needed


@pytest.mark.parametrize("best_of", [0, 2, -1])
def test_r13_3_a_match_is_best_of_an_odd_number(best_of: int) -> None:
    with pytest.raises(RuleError) as refused:
        wins_needed(best_of)
    assert str(refused.value) == f"A match is best of an odd number of games, not {best_of}."


def test_r13_3_higher_raw_score_wins_a_game_and_an_exact_tie_is_replayed() -> None:
    # best of 3: low wins game 1, game 2 is tied (replayed), high wins the next two
    games = [(10, 20), (30, 30), (50, 40)]
    assert match_winner(games, 3) is None
    assert match_winner([*games, (70, 60)], 3) == 0
    assert match_winner([(1, 2), (3, 4)], 3) == 1
    assert match_winner([(5, 5)] * 3, 1) is None


def test_r13_3_the_higher_seed_picks_first_then_the_loser_of_each_game() -> None:
    assert next_picker([]) == 0
    assert next_picker([(10, 20)]) == 0  # high lost game 1: high picks again
    assert next_picker([(30, 20)]) == 1  # low lost
    assert next_picker([(30, 20), (40, 40)]) == 1  # a tie changes nothing: replayed


def test_r13_3_no_machine_is_played_twice_in_a_match() -> None:
    machines = ["Attack from Mars", "Medieval Madness", "Twilight Zone"]
    assert machines_left(machines, ["Medieval Madness"]) == ["Attack from Mars", "Twilight Zone"]
    assert machines_left(machines, machines) == []


def test_r13_6_four_players_place_by_the_final_and_the_match_for_third() -> None:
    seeds = ["A", "B", "C", "D"]
    decided = {Match("A", "D"): "D", Match("B", "C"): "B"}
    assert later_matches(seeds, decided) == [Match("B", "D"), Match("A", "C")]
    assert bracket_places(seeds, decided) is None
    decided |= {Match("B", "D"): "D", Match("A", "C"): "C"}
    assert bracket_places(seeds, decided) == ["D", "B", "C", "A"]


def test_r13_6_three_players_the_loser_of_2_v_3_is_third() -> None:
    seeds = ["A", "B", "C"]
    decided = {Match("B", "C"): "C"}
    assert later_matches(seeds, decided) == [Match("A", "C")]
    assert bracket_places(seeds, decided) is None
    assert bracket_places(seeds, {**decided, Match("A", "C"): "A"}) == ["A", "C", "B"]


def test_r13_6_two_players_place_by_the_final() -> None:
    assert later_matches(["A", "B"], {Match("A", "B"): "B"}) == []
    assert bracket_places(["A", "B"], {}) is None
    assert bracket_places(["A", "B"], {Match("A", "B"): "B"}) == ["B", "A"]


def test_r13_3_no_later_match_before_the_first_ones_are_decided() -> None:
    assert later_matches(["A", "B", "C", "D"], {Match("A", "D"): "A"}) == []


def test_r13_3_a_player_with_no_game_scored_yet_has_no_points() -> None:
    """Ann has 0 points and a 0 total; Bob nothing yet: they tie, and the seed
    places Ann first."""
    places = final_group_places(["Ann", "Bob"], {"Ann": 0}, {"Ann": Fraction(0)})
    assert places == ["Ann", "Bob"]


def test_r13_6_when_the_better_seeds_win_every_match() -> None:
    assert bracket_places(["A", "B"], {Match("A", "B"): "A"}) == ["A", "B"]
    three = {Match("B", "C"): "B", Match("A", "B"): "A"}
    assert bracket_places(["A", "B", "C"], three) == ["A", "B", "C"]
    four = {Match("A", "D"): "A", Match("B", "C"): "B"}
    assert later_matches(["A", "B", "C", "D"], four) == [Match("A", "B"), Match("C", "D")]
    four |= {Match("A", "B"): "A", Match("C", "D"): "C"}
    assert bracket_places(["A", "B", "C", "D"], four) == ["A", "B", "C", "D"]


def test_r13_6_four_players_are_not_placed_until_the_match_for_third_is_decided() -> None:
    decided = {Match("A", "D"): "A", Match("B", "C"): "B", Match("A", "B"): "B"}
    assert bracket_places(["A", "B", "C", "D"], decided) is None
    decided = {Match("A", "D"): "A", Match("B", "C"): "B", Match("C", "D"): "D"}
    assert bracket_places(["A", "B", "C", "D"], decided) is None


@pytest.mark.parametrize(("regular_nights", "week"), [(10, 8), (8, 8), (7, 7), (1, 1), (52, 8)])
def test_r13_3_the_format_is_made_known_by_the_8th_night_or_the_last(
    regular_nights: int, week: int
) -> None:
    assert format_week(regular_nights) == week


def test_r13_3_a_season_without_nights_has_no_format_week() -> None:
    with pytest.raises(RuleError):
        format_week(0)


def test_r13_6_the_field_first_then_the_replaced_then_the_standings() -> None:
    standings = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    # Bob (seed 2) was replaced by Cat; Cat won, Ann second.
    places = season_places(["Cat", "Ann"], {"Bob"}, standings)
    assert places == ["Cat", "Ann", "Bob", "Dan", "Eve", "Fay"]
    assert prize_order(places, {"Bob"}) == ["Cat", "Ann", "Dan", "Eve", "Fay"]


def test_r13_6_without_a_replacement_the_field_then_the_standings() -> None:
    assert season_places(["Bob", "Ann"], set(), ["Ann", "Bob", "Cat"]) == ["Bob", "Ann", "Cat"]
    assert prize_order(["Bob", "Ann", "Cat"], set()) == ["Bob", "Ann", "Cat"]


def test_r13_3_the_bracket_names_each_match_by_round_as_it_grows() -> None:
    four = ["s1", "s2", "s3", "s4"]
    semis = [("semifinal", 1, Match("s1", "s4")), ("semifinal", 2, Match("s2", "s3"))]
    assert bracket_matches(four, {}) == semis
    decided = {Match("s1", "s4"): "s4", Match("s2", "s3"): "s2"}
    assert bracket_matches(four, decided) == [
        *semis, ("final", 1, Match("s2", "s4")), ("third", 1, Match("s1", "s3")),
    ]  # fmt: skip
    assert bracket_matches(["s1", "s2", "s3"], {Match("s2", "s3"): "s3"}) == [
        ("semifinal", 1, Match("s2", "s3")), ("final", 1, Match("s1", "s3")),
    ]  # fmt: skip
    assert bracket_matches(["s1", "s2"], {}) == [("final", 1, Match("s1", "s2"))]
    assert bracket_matches(["s1"], {}) == []


@pytest.mark.parametrize(
    ("games", "best_of", "after"),
    [([(2, 1), (2, 1)], 3, 2), ([(2, 1), (1, 2), (2, 1)], 3, 3), ([(2, 1)], 3, None),
     ([(1, 2)], 1, 1), ([(2, 1), (2, 1), (1, 2)], 3, 2), ([], 3, None)],
)  # fmt: skip
def test_r13_3_a_match_is_over_once_decided(
    games: list[tuple[int, int]], best_of: int, after: int | None
) -> None:
    assert decided_after(games, best_of) == after
