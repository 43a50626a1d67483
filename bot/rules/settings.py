"""League settings the rules depend on, with the defaults docs/rules.md gives.

R1.3, R3.5, R7.5, R8.5, R9.1, R10.1, R10.4, R13.1 and R13.3 name these as settings;
the commissioner can change each one per league.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import time
from fractions import Fraction


@dataclass(frozen=True)
class PrizeSplit:
    """R10.4 Decision: how the season prize fund is shared.

    `places[division]` are weights (percent of the fund) for 1st, 2nd, 3rd …;
    `consolation[division]` is the consolation prize as a fraction of that
    division's second-place prize, paid to the next player after the places
    (an exact fraction; a float such as 0.2 is read as the decimal it shows).
    Weights are scaled over the prizes actually awarded, so the whole fund is
    always paid out.
    """

    places: dict[str, tuple[int, ...]] = field(
        default_factory=lambda: {"A": (30, 15, 10), "B": (20, 10, 7)}
    )
    consolation: dict[str, Fraction | float] = field(
        default_factory=lambda: {"A": Fraction(20, 100), "B": Fraction(50, 100)}
    )


def decimal_fraction(value: Fraction | float | int) -> Fraction:
    """A setting's number as an exact fraction: a float as the decimal it
    prints (0.2 is 1/5, not the binary double nearest to it)."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


@dataclass(frozen=True)
class RuleSettings:
    """Per-league settings with the defaults of docs/rules.md."""

    regular_nights: int = 10  # R1.1
    weekday: str = "Wednesday"  # R1.1
    time_zone: str = "America/New_York"  # R1.3
    play_time: time = time(19, 15)  # R1.3
    grace_until: time = time(19, 30)  # R1.3, R2.2
    late_cutoff: time = time(15, 0)  # R1.3, R2.1
    games_per_night: int = 5  # R4.1
    pre_makeup_night_limit: int = 3  # R3.5
    bonus_start_week: int = 3  # R7.2, R7.5
    multiplier_start_week: int = 7  # R7.4, R7.5
    multiplier_min: int = 0  # R7.4
    multiplier_max: int = 3  # R7.4
    two_swap_match_points: int = 10  # R8.5
    division_min_players: int = 8  # R9.1
    division_week: int = 6  # R9.1
    dues_cents: int = 600  # R10.1
    payout_first_percent: int = 75  # R10.2
    playoff_divisor: int = 3  # R13.1
    playoff_min: int = 2  # R13.1
    playoff_max: int = 4  # R13.1
    playoff_format: str = "final_group"  # R13.3: "final_group" or "bracket"
    playoff_games: int = 5  # R13.3: games of a final group
    playoff_best_of: int = 3  # R13.3: games of a bracket match, at most
    prize_split: PrizeSplit = field(default_factory=PrizeSplit)  # R10.4


DEFAULT_SETTINGS = RuleSettings()
