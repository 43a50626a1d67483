"""The playoffs in words, as players read them on a phone: the format (R13.3)
and the field (R13.1), in the groupings post, its change announced and the
playoff commands' replies."""

from __future__ import annotations

from bot.services.outcomes.playoffs import PlayoffFormat, PlayoffPreview
from bot.services.outcomes.standings import PlayoffDivision

ALTERNATES_SHOWN = 3  # an alternate further down rarely plays


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
