"""What the commissioner reads after setting a par (R6.1-R6.2)."""

from __future__ import annotations

import pytest

from bot.models import Machine
from bot.services.outcomes.scores import ParSet
from bot.ui.machines import par_reply


def machine(par: int | None) -> Machine:
    return Machine(id=1, league_id=1, name="Funhouse", par=par, working=True, added_at="")


@pytest.mark.parametrize(
    ("result", "text"),
    [
        (ParSet(machine(50_000_000), 50_000_000), "Funhouse's par is 50,000,000."),
        (
            ParSet(machine(None), 90_000_000),
            "Funhouse's par now follows the median of approved pre-makeup scores: "
            "90,000,000 today.",
        ),
        (
            ParSet(machine(None), None),
            "Funhouse has no par yet. It will be the median of approved pre-makeup scores "
            "once there is one; until then a night that uses it can't be finalized.",
        ),
    ],
    ids=["set", "r6_2_median", "r6_2_no_par_yet"],
)
def test_r6_2_the_reply_names_the_par_that_applies_now(result: ParSet, text: str) -> None:
    assert par_reply(result) == text
