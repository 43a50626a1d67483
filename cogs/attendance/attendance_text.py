"""What a player reads after `/late` or `/absent` (R2): the notice taken, with
what a missed game scores for them (R3), or taken back."""

from __future__ import annotations

from bot.services.outcomes.notices import (
    AttendanceBoard,
    BoardLine,
    CheckedIn,
    NoticeGiven,
    NoticeWithdrawn,
)
from bot.ui.calendar import NOTICE_KINDS, night_name
from bot.ui.embeds import MAX_DESCRIPTION
from bot.ui.fit import cut_line, lines_within, size

CUT = "\n… (the rest does not fit here)"


def withdrawn(taken: NoticeWithdrawn) -> str:
    """The player's reply."""
    return (
        f"Your {NOTICE_KINDS[taken.kind]} for {night_name(taken.night)} "
        f"({taken.night.date:%A %d %B}) is taken back: you are expected as usual."
    )


def notice(given: NoticeGiven) -> str:
    night = given.night
    if night.kind == "playoff":
        return _playoff_absence(given)
    what = "late" if given.notice.kind == "late" else "absent"
    minutes = f" about {given.notice.minutes} minutes" if given.notice.minutes else ""
    lines = [f"Noted: {given.player.name} will be {what}{minutes} on week {night.week} "
             f"({night.date:%A %d %B})."]  # fmt: skip
    if given.notice.kind == "late":
        lines.append(_late_rule(given))
        return "\n".join(lines)
    if given.zero_point_everywhere:
        lines.append("You have no pre-makeup nights left: the Zero Point Rule (0 points) applies "
                     "to every game.")  # fmt: skip
    else:  # R3.5: a night counts only when one of its games uses a pre-makeup score
        used = any(g.counts for g in given.missed)
        uses = "will use one" if used else "uses none"
        lines.append(f"Pre-makeup nights left before this one: {given.pre_makeup_nights_left} "
                     f"(this night {uses}).")  # fmt: skip
    for game in given.missed:
        label = f"Game {game.number} · {game.machine}" if game.number else game.machine
        if game.counts:
            lines.append(f"- {label}: your pre-makeup score {game.pre_makeup:,}")
        elif game.pre_makeup is not None:
            lines.append(f"- {label}: your pre-makeup score {game.pre_makeup:,} stands in for "
                         "the others, but you score 0")  # fmt: skip
        else:
            lines.append(f"- {label}: no pre-makeup score, Zero Point Rule (0 points)")
    if given.missed and given.missed[0].number is None:
        lines.append(f"The games are set when picks lock at {given.lock_time:%H:%M}; "
                     "the list shows every working machine.")  # fmt: skip
    return "\n".join(lines)


def _late_rule(given: NoticeGiven) -> str:
    """R2.1-R2.2 with the league's own times; after the cutoff, what a missed game
    scores for this player (R3.2, R3.4)."""
    cutoff = f"{given.late_cutoff:%H:%M}"
    if given.notice.timing == "advance":
        return "You told us before league day: the commissioner decides whether your group waits."
    if given.notice.timing == "on_time":
        return (f"You told us before the {cutoff} late-notice cutoff: the commissioner decides "
                "whether your group waits.")  # fmt: skip
    head = (f"This notice came after the {cutoff} late-notice cutoff: your group will not wait "
            f"past {given.grace_until:%H:%M}.")  # fmt: skip
    return f"{head} {_missed_games(given)}"


def _missed_games(given: NoticeGiven) -> str:
    """What a game this player misses scores: true for them (R3.2, R3.4, R3.6)."""
    stand_ins = sum(g.counts for g in given.missed)
    if stand_ins and stand_ins == len(given.missed):
        return "Games you miss are scored from your pre-makeup scores."
    if stand_ins:
        return ("A game you miss is scored from your pre-makeup score on its machine, or gets "
                "0 points (the Zero Point Rule) where you have none.")  # fmt: skip
    if given.zero_point_everywhere:
        return ("You have no pre-makeup nights left: games you miss get 0 points "
                "(the Zero Point Rule).")  # fmt: skip
    return "You have no pre-makeup scores: games you miss get 0 points (the Zero Point Rule)."


def _playoff_absence(given: NoticeGiven) -> str:
    """R13.2, R13.4-R13.5: a player of the playoff field who cannot come."""
    day = given.night.date
    return (
        f"Noted: {given.player.name} cannot come to playoff night ({day:%A} {day.day} "
        f"{day:%B}). If you are in the field, the first alternate who is there takes your "
        f"place at {given.grace_until:%H:%M}, unless the commissioner moves playoff night. "
        "Changed your mind? /absent cancel:True takes it back."
    )


def board(shown: AttendanceBoard) -> tuple[str, str]:
    """A night's attendance board as the commissioner reads it on a phone: a
    title, then who is in, late (by when), out and not heard from."""
    night = shown.night
    title = f"Attendance · week {night.week} · {night.date:%A} {night.date.day} {night.date:%B}"
    lines = [f"**In ({len(shown.in_)}):** " + (_names(shown.in_) or "nobody yet")]
    if shown.late:
        lines.append(f"**Late ({len(shown.late)}):**")
        lines.extend(f"- {line.name}{_late(line)}" for line in shown.late)
    if shown.out:
        lines.append(f"**Out ({len(shown.out)}):** " + _names(shown.out))
    if shown.silent:
        lines.append(f"**Not heard from ({len(shown.silent)}):** " + _names(shown.silent))
    if not shown.open:
        lines.append("The night is finalized.")
    elif shown.checkable:
        lines.append("Check players in as they arrive, from the menu below.")
    text = "\n".join(lines)
    if size(text) > MAX_DESCRIPTION:  # cut between lines, and saying so
        text = lines_within(text, MAX_DESCRIPTION - len(CUT)) + CUT
    return title, text


def _names(lines: list[BoardLine]) -> str:
    return ", ".join(line.name for line in lines)


def _late(line: BoardLine) -> str:
    minutes = f", about {line.minutes} min (by {line.by:%H:%M})" if line.by else ""
    note = f": “{_one_line(line.note)}”" if line.note else ""
    return f"{minutes}{note}"


def _one_line(note: str, longest: int = 80) -> str:
    """A player's note on one line (a note's line breaks must not make lines of
    the board), cut at a word to `longest` characters."""
    return cut_line(" ".join(note.split()), longest)


def checked_in(done: CheckedIn) -> str:
    """The commissioner's answer after a check-in from the board's menu."""
    verb = "Check-in taken back" if done.undo else "Checked in"
    parts = [f"{verb}: {', '.join(done.done)}." if done.done else ""]
    if done.already:
        state = "not checked in" if done.undo else "already in"
        parts.append(f"{', '.join(done.already)}: {state}, nothing changed.")
    if done.not_tonight:
        parts.append(f"{', '.join(done.not_tonight)}: not in tonight's groups any more.")
    return " ".join(p for p in parts if p)
