"""Every waiting score on a card can be rejected from it, though a Discord menu
holds at most 25 options (cogs/scorecards/scorecards_text.py: reject_choices): the scores when
they fit, else the card's games first, else pages with "More scores…"."""

from __future__ import annotations

import pytest

from cogs.scorecards.scorecards_outcomes import APPROVED, WAITING, CardGame, CardLine, CardView
from cogs.scorecards.scorecards_text import reject_choices


def card(games: int, players: int, *, decided_every: int = 0) -> CardView:
    found = []
    for g in range(1, games + 1):
        lines = [CardLine(f"Player {p}", 1000 * g + p,
                          APPROVED if decided_every and p % decided_every == 0 else WAITING,
                          value=f"s{g * 10 + p}")
                 for p in range(1, players + 1)]  # fmt: skip
        found.append(CardGame(f"Game {g} · Machine {g}", lines, str(g)))
    return CardView(1, "Week 1 · Group 1", found, 5)


def reachable(view: CardView) -> set[str]:
    """Every score a commissioner reaches by picking through the menus."""
    seen, todo = set(), [""]
    while todo:
        options = reject_choices(view, todo.pop())
        assert 1 <= len(options) <= 25 and all(len(label) <= 100 for label, _ in options)
        for _, value in options:
            if value[:1] in ("g", "m"):  # a game, or the next page: another menu
                todo.append(value)
            else:
                seen.add(value)
    return seen


@pytest.mark.parametrize(("games", "players"), [(5, 3), (10, 4), (30, 1), (60, 1), (6, 4)])
def test_every_waiting_score_is_reachable_through_menus_of_at_most_25(
    games: int, players: int
) -> None:
    view = card(games, players)
    assert reachable(view) == {line.value for line in view.waiting}


def test_up_to_25_waiting_the_menu_lists_the_scores_as_before() -> None:
    view = card(6, 4, decided_every=4)  # 18 waiting
    options = reject_choices(view)
    assert [value for _, value in options] == [line.value for line in view.waiting]
    assert options[0][0] == "Player 1 1,001 · Game 1 · Machine 1"


def test_forty_waiting_scores_the_menu_lists_the_games_first() -> None:
    view = card(10, 4)
    assert reject_choices(view)[-1] == ("Game 10 · Machine 10 · 4 waiting", "g10")
    assert [value for _, value in reject_choices(view, "g10")] == ["s101", "s102", "s103", "s104"]


def test_a_day_of_thirty_pre_makeups_comes_in_pages() -> None:
    view = card(30, 1)
    first = reject_choices(view)
    assert len(first) == 25 and first[-1] == ("More scores (25–30 of 30)…", "m24")
    assert [value for _, value in reject_choices(view, "m24")] == [
        f"s{g * 10 + 1}" for g in range(25, 31)
    ]
