"""The commissioner's replies of `/playoffs` as they read on a phone."""

from __future__ import annotations

from bot.services.outcomes.playoffs import (
    CheckedIn,
    PlayoffNightShown,
    PlayoffStarted,
    ReplacementUndone,
)


def moved(shown: PlayoffNightShown) -> str:
    """R13.4: playoff night moved; the field is told in the announcements."""
    was = shown.moved_from
    assert was is not None
    return (
        f"Playoff night is now {shown.day:%A} {shown.day.day} {shown.day:%B} "
        f"(it was {was:%A} {was.day} {was:%B}). The players in the field and the first "
        "alternates are told in the announcements channel."
    )


def checked_in(done: CheckedIn) -> str:
    parts = []
    if done.checked:
        parts.append(f"Checked in: {', '.join(done.checked)}.")
    if done.already:
        parts.append(f"Already checked in: {', '.join(done.already)}.")
    return " ".join(parts)


def undone(done: ReplacementUndone) -> str:
    """R13.5: a replacement made by mistake, undone."""
    back = f" {done.alternate} is an alternate again." if done.alternate else ""
    return f"{done.player} plays after all and is checked in.{back} The field is announced again."


def started(play: PlayoffStarted) -> str:
    groups = len(play.groups)
    out = f" Not checked in, so not playing: {', '.join(play.out)}." if play.out else ""
    if play.bracket is not None:
        return (
            f"Playoff night has started: the bracket is drawn on {', '.join(play.machines)} "
            "and posted in the announcements channel. Record each game with /playoffs game; "
            f"see the bracket with /playoffs bracket.{out}"
        )
    return (
        f"Playoff night has started: {groups} final group{'s' if groups != 1 else ''} on "
        f"{', '.join(play.machines)}. The games are posted in the announcements channel; "
        f"the scores come to their scorecard in the approvals channel, as on a league night.{out}"
    )
