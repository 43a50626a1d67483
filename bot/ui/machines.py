"""What the commissioner reads about a machine's par (R6.1-R6.2)."""

from __future__ import annotations

from bot.services.outcomes.scores import ParSet


def par_reply(result: ParSet) -> str:
    """The reply to setting a par: the par that applies now, in words."""
    name = result.machine.name
    if result.machine.par is not None:
        return f"{name}'s par is {result.machine.par:,}."
    if result.effective is not None:
        return (
            f"{name}'s par now follows the median of approved pre-makeup scores: "
            f"{result.effective:,} today."
        )
    return (
        f"{name} has no par yet. It will be the median of approved pre-makeup scores "
        "once there is one; until then a night that uses it can't be finalized."
    )
