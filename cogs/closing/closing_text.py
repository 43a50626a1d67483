"""A season's close as the commissioner and the players read it on a phone."""

from __future__ import annotations

from cogs.closing.closing_outcomes import SeasonClosing


def _weeks(weeks: list[int]) -> str:
    if len(weeks) == 1:
        return f"week {weeks[0]} is"
    if weeks == list(range(weeks[0], weeks[-1] + 1)):
        return f"weeks {weeks[0]}-{weeks[-1]} are"
    return f"weeks {', '.join(map(str, weeks))} are"


def what_it_ends(c: SeasonClosing) -> list[str]:
    """The nights a close leaves unplayed, and what then decides the season."""
    ends = []
    if c.unplayed:
        ends.append(f"{_weeks(c.unplayed)} not played")
    if c.playoff_day is not None:
        ends.append(f"playoff night ({c.playoff_day:%A} {c.playoff_day.day} {c.playoff_day:%B}) "
                    "is not played")  # fmt: skip
    return ends


def answer(c: SeasonClosing) -> str:
    """The commissioner's answer: closed, or what closing would end."""
    undo = "/season reopen opens it again until the next season starts."
    if c.closed and c.over:
        return f"{c.season} is closed. {undo}"
    ends = " and ".join(what_it_ends(c))
    if c.closed and c.last_week is None:
        return f"{c.season} is closed before its first night: {ends}. {undo}"
    if c.closed:
        return (f"{c.season} is closed: {ends}. The champions and the prizes go by the standings; "
                f"the summary is posted in the announcements channel. {undo}")  # fmt: skip
    return (
        f"Closing {c.season} ends it early: {ends}. The champions and the prizes would go by "
        "the standings, without playoffs. To close it, run /season close confirm:True."
    )


def announcement(c: SeasonClosing) -> str:
    """The players' post: the season closed before its end."""
    played = (f"after week {c.last_week} of {c.regular_nights}" if c.last_week is not None
              else "before its first night")  # fmt: skip
    ends = " and ".join(what_it_ends(c))
    if c.last_week is None:
        return f"**{c.season} is closed** {played}: {ends}."
    return (
        f"**{c.season} is closed** {played}: {ends}. The champions and the prizes go by the "
        "standings."
    )


def reopened_answer(season: str, announced: bool) -> str:
    """The commissioner's answer to /season reopen."""
    if announced:
        return f"{season} is open again: its nights go on as scheduled, and the players are told."
    return f"{season} is open again (it had nothing left to play)."


def reopened(season: str) -> str:
    return (
        f"**{season} is open again**: its nights go on as scheduled. The summary and prizes "
        "posted at its close no longer stand; they come again at its end."
    )
