"""The wording of the season summary and a new season's roster line (cogs/stats/stats_text.py)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from bot.rules.stats import HighScore, Improvement
from cogs.money.money_outcomes import PrizeShare
from cogs.stats import stats_text
from cogs.stats.stats_outcomes import RosterChange, SeasonSummary


def test_the_summary_names_each_divisions_champion_the_money_and_the_records() -> None:
    summary = SeasonSummary(
        season="Spring",
        champions={"A": "Ann", "B": "Bob"},
        fund_cents=12_345,
        weekly_payouts_cents=6_000,
        prizes={"A": [PrizeShare("Ann", 1, 5_000), PrizeShare("Cy", 0, 700)], "B": []},
        high_scores=[("Twilight Zone", HighScore("Cy", 1_234_567_890, 4, date(2026, 1, 28)))],
        most_improved=Improvement("Dee", Fraction(800_000), Fraction(1_050_000)),
    )
    assert stats_text.season_summary(summary) == "\n".join([
        "**Spring: the regular season is over**",
        "🏆 Division A champion: Ann",
        "🏆 Division B champion: Bob",
        "Prize fund $123.45 · weekly payouts $60.00",
        "Division A prizes: 1st Ann $50.00, Consolation Cy $7.00",
        "Most improved: Dee (average normalized score 800,000 → 1,050,000)",
        "**High scores**",
        "Twilight Zone: Cy 1,234,567,890 (week 4)",
    ])  # fmt: skip


def test_a_season_nobody_improved_in_says_nothing_about_it() -> None:
    summary = SeasonSummary("One", {"": "Ann"}, 0, 0, {}, [], None)
    assert stats_text.season_summary(summary).split("\n") == [
        "**One: the regular season is over**",
        "🏆 League champion: Ann",
        "Prize fund $0.00 · weekly payouts $0.00",
    ]


def test_roster_line() -> None:
    assert stats_text.roster_change(RosterChange(None, [], [])) == ""
    assert stats_text.roster_change(RosterChange("Spring", ["Eve", "Fay"], [])) == (
        "New since Spring: Eve, Fay. Not back: nobody."
    )
