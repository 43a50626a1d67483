"""R1.3: a league night's times come in their order: the groupings, the
late-notice cutoff (R2.1), picks locking, play, the end of the grace period.
Picks may lock as play starts; the grace period ends after play starts."""

from __future__ import annotations

from datetime import time

import pytest

from bot.scoring import NIGHT_TIMES, times_out_of_order

LEAGUE = {"groupings_time": time(12), "late_cutoff": time(15), "picks_lock_time": time(19, 15),
          "play_time": time(19, 15), "grace_until": time(19, 30)}  # fmt: skip


def test_r1_3_the_league_documents_times_are_in_order() -> None:
    assert list(LEAGUE) == list(NIGHT_TIMES)
    assert times_out_of_order(LEAGUE) is None  # picks lock as play starts


@pytest.mark.parametrize(
    ("changed", "first_two"),
    [
        ({"late_cutoff": time(11, 59)}, ("groupings_time", "late_cutoff")),
        ({"picks_lock_time": time(14, 59)}, ("late_cutoff", "picks_lock_time")),
        ({"picks_lock_time": time(19, 16)}, ("picks_lock_time", "play_time")),
        ({"play_time": time(19, 30)}, ("play_time", "grace_until")),  # no grace at all
        ({"grace_until": time(19, 0)}, ("play_time", "grace_until")),
    ],
)
def test_r1_3_the_first_two_times_out_of_order_are_named(
    changed: dict[str, time], first_two: tuple[str, str]
) -> None:
    assert times_out_of_order({**LEAGUE, **changed}) == first_two
