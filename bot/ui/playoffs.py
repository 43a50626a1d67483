"""The playoffs in words, as players read them on a phone: the format (R13.3)
and the field (R13.1), in the groupings post, its change announced and the
playoff commands' replies."""

from __future__ import annotations

from datetime import date

from bot.services.outcomes.playoffs import (
    ALTERNATES_SHOWN,
    FinalGroupResult,
    PlayoffFormat,
    PlayoffNightShown,
    PlayoffPreview,
    PlayoffStarted,
    Replacement,
)
from bot.services.outcomes.standings import PlayoffDivision, PlayoffStanding


def format_words(f: PlayoffFormat) -> str:
    """R13.3: the format in one or two sentences, with this league's numbers."""
    if f.format == "bracket":
        return (
            f"A bracket in each division: single elimination by seed, each match best of "
            f"{f.best_of} {_games(f.best_of)}. A game goes to the higher score; a tie is "
            "replayed. The higher seed picks the first machine, the loser of each game the next."
        )
    return (
        f"A final group in each division: the field plays {f.games} {_games(f.games)} "
        "together, scored as on a league night. Most points wins; a tie goes to the "
        "better normalized scores, then the better standing."
    )


def _games(count: int) -> str:
    return "game" if count == 1 else "games"


def division_name(division: str) -> str:
    return f"Division {division}" if division else "League"


def field_lines(divisions: list[PlayoffDivision]) -> list[str]:
    """Each division's qualifiers by seed, then its first alternates."""
    lines = []
    for d in divisions:
        seeds = ", ".join(f"{seed}. {name}" for seed, name in enumerate(d.qualifiers, start=1))
        lines.append(f"{division_name(d.division)}: {seeds or 'nobody yet'}")
        if d.alternates:
            shown = ", ".join(d.alternates[:ALTERNATES_SHOWN])
            lines.append(f"  Alternates, in order: {shown}")
    return lines


def preview_lines(preview: PlayoffPreview) -> list[str]:
    """The groupings post's playoff section: the format, then the field if the
    season ended tonight."""
    return [
        format_words(preview.format),
        "If the season ended tonight:",
        *field_lines(preview.divisions),
    ]


def format_changed(preview: PlayoffPreview) -> str:
    """A change of the format, or of the field's size, after it was made known."""
    return "\n".join(["**The playoffs have changed**", *preview_lines(preview)])


def _day(day: date) -> str:
    return f"{day:%A} {day.day} {day:%B}"


def night_lines(shown: PlayoffNightShown) -> list[str]:
    """Playoff night's times, format and field (R13.1, R13.3, R13.4)."""
    return [
        f"Play starts at {shown.play_time:%H:%M}. A qualifier not checked in by "
        f"{shown.grace_until:%H:%M} is replaced by the first alternate. No dues on playoff night.",
        format_words(shown.format),
        *field_lines(shown.divisions),
    ]


def night_announcement(shown: PlayoffNightShown) -> str:
    """Playoff night announced, its field set again, or its date moved; the
    players it concerns mentioned at the end."""
    if shown.moved_from is not None:
        title = (f"**Playoff night moves to {_day(shown.day)}** "
                 f"(it was {_day(shown.moved_from)})")  # fmt: skip
    else:
        title = f"**Playoffs: {_day(shown.day)}**" + (" (field updated)" if shown.updated else "")
    lines = [title, *night_lines(shown)]
    lines.append("Can't make it? Use /absent, so the first alternate can get ready.")
    if shown.pings:
        lines.append("In the field or next up: " + " ".join(f"<@{i}>" for i in shown.pings))
    return "\n".join(lines)


def night_view(shown: PlayoffNightShown | PlayoffPreview) -> str:
    """`/playoffs field`: playoff night once set; before, the season as it stands."""
    if isinstance(shown, PlayoffPreview):
        return "\n".join(["**Playoffs** (not set yet)", *preview_lines(shown)])
    return "\n".join([f"**Playoffs: {_day(shown.day)}**", *night_lines(shown)])


def tonight(shown: PlayoffNightShown) -> str:
    """R13.4: playoff night's post at the groupings time."""
    return "\n".join([
        f"**Playoffs tonight** ({_day(shown.day)})",
        *night_lines(shown),
        f"Players: check in with the commissioner before {shown.grace_until:%H:%M}.",
    ])  # fmt: skip


def grace(made: list[Replacement], shown: PlayoffNightShown) -> str:
    """R13.5: the end of the grace period: who replaced whom, and the field."""
    lines = [f"**Playoffs: the grace period is over ({shown.grace_until:%H:%M}).**"]
    for r in made:
        why = "cannot come" if r.why == "absent" else "is not checked in"
        where = f" ({division_name(r.division)})" if r.division else ""
        if r.into is not None:
            lines.append(f"- {r.out} {why}: {r.into} takes the place{where}.")
        else:
            lines.append(f"- {r.out} {why}, and no alternate is checked in{where}.")
    if not made:
        lines.append("Everyone in the field is here: no replacements.")
    lines += ["The field, seeded by standing:", *field_lines(shown.divisions)]
    return "\n".join(lines)


def called_off(day: date, regular_nights: int) -> str:
    """The season was made longer after playoff night was set."""
    return (
        f"**Playoff night of {_day(day)} is off**: the regular season now has {regular_nights} "
        "nights. Playoff night is set again after the new last night."
    )


def started(play: PlayoffStarted) -> str:
    """R13.3: playoff night under way: the machines in game order, each
    division's group by seed, and the play order (R11.2)."""
    machines = ", ".join(f"{n}. {m}" for n, m in enumerate(play.machines, start=1))
    lines = ["**Playoffs: play starts**", f"Games: {machines}"]
    for division, seeds in play.groups:
        shown = ", ".join(f"{seed}. {name}" for seed, name in enumerate(seeds, start=1))
        lines.append(f"{division_name(division)}: {shown}")
    if play.out:
        lines.append(f"Not checked in, so not playing: {', '.join(play.out)}.")
    lines.append("Game 1: the lowest seed plays first. After that, the last player of the game "
                 "before plays first and its winner plays last. Send scores with /score, as on "
                 "a league night.")  # fmt: skip
    return "\n".join(lines)


PLACES = {1: "Champion", 2: "2nd", 3: "3rd"}


def result(done: FinalGroupResult) -> str:
    """R13.6: a division's playoff places, its champion first."""
    champion = done.places[0][0]
    where = f"Division {done.division} champion" if done.division else "League champion"
    lines = [f"**Playoffs · {where}: {champion}**"]
    if len(done.places) == 1:
        lines.append("The only player of the field.")
    for place, (name, points, total) in enumerate(done.places, start=1):
        if len(done.places) > 1:
            label = PLACES.get(place, f"{place}th")
            lines.append(f"{label}: {name} · {points} points · normalized {total:,}")
    return "\n".join(lines)


def standing_line(ps: PlayoffStanding) -> str:
    """`/me` and `/stats`: a player's part in the season's playoffs."""
    if ps.place is not None and ps.decided:
        if ps.place == 1:
            return "Playoffs: champion 🏆"
        return f"Playoffs: {PLACES.get(ps.place, f'{ps.place}th')} place"
    when = _day(ps.day)
    if ps.role == "replaced":
        return f"Playoffs ({when}): replaced by an alternate"
    if ps.role == "alternate":
        return f"Playoffs ({when}): alternate"
    return f"Playoffs ({when}): in the field"
