"""A playoff bracket in words, short lines for a phone (R13.3, R13.6)."""

from __future__ import annotations

from bot.services.outcomes.bracket import (
    BracketResult,
    BracketShown,
    GameRecorded,
    MachinePicked,
    MatchShown,
)
from bot.services.outcomes.playoffs import PlayoffStarted
from bot.ui.playoffs import PLACES, division_name

ROUNDS = {"semifinal": "Semifinal", "final": "Final", "third": "Match for 3rd"}
HOW = (
    "Each match is best of {n}. The higher seed picks game 1's machine (/playoffs pick), "
    "then the loser of each game picks the next; no machine twice in a match. A game goes "
    "to the higher score; an exact tie is replayed. The commissioner records each game "
    "(/playoffs game)."
)


def _title(m: MatchShown) -> str:
    return f"{division_name(m.division)} · {ROUNDS.get(m.round, m.round)}"


def _players(m: MatchShown) -> str:
    return f"{m.high[0]}. {m.high[1]} v {m.low[0]}. {m.low[1]}"


def _score(m: MatchShown) -> str:
    """'Ann wins 2–1', or '1–0' while under way (the better seed's games first)."""
    if m.winner is not None:
        return f"{m.winner} wins {max(m.wins)}–{min(m.wins)}"
    return f"{m.wins[0]}–{m.wins[1]}"


def match_lines(m: MatchShown) -> list[str]:
    """A match: its players, the games so far, and whose pick is next."""
    lines = [f"**{_title(m)}**: {_players(m)} · {_score(m)}"]
    for number, g in enumerate(m.games, start=1):
        if g.high is None or g.low is None:
            lines.append(f"  Game {number}: {g.machine} ({g.picked_by}'s pick), to play")
        else:
            lines.append(
                f"  Game {number}: {g.machine} ({g.picked_by}'s pick): "
                f"{m.high[1]} {g.high:,}, {m.low[1]} {g.low:,}"
            )
    picked = m.games and m.games[-1].high is None
    if m.winner is None and m.next_picker is not None and not picked:
        lines.append(f"  Next: {m.next_picker} picks game {len(m.games) + 1}'s machine")
    return lines


def bracket_lines(b: BracketShown) -> list[str]:
    lines: list[str] = []
    for m in b.matches:
        lines += match_lines(m)
    for division, champion in b.champions.items():
        lines.append(f"🏆 {division_name(division)} champion: {champion}")
    return lines


def bracket_view(b: BracketShown) -> str:
    """`/playoffs bracket`: the whole bracket as it stands."""
    head = [f"**Playoff bracket** · best of {b.best_of}", f"Machines: {', '.join(b.machines)}"]
    return "\n".join(head + bracket_lines(b))


def started(play: PlayoffStarted, b: BracketShown) -> str:
    """R13.3: a bracket under way: the machines, the first matches drawn, and
    how a match is played."""
    lines = ["**Playoffs: play starts**", f"Machines: {', '.join(b.machines)}", *bracket_lines(b)]
    if play.out:
        lines.append(f"Not checked in, so not playing: {', '.join(play.out)}.")
    return "\n".join([*lines, HOW.format(n=b.best_of)])


def recorded(r: GameRecorded) -> str:
    """The commissioner's answer: the game recorded and the match after it."""
    did = "corrected" if r.corrected else "recorded"
    head = f"Game {r.number} of the {ROUNDS[r.match.round].lower()} {did}."
    lines = [head, *match_lines(r.match)]
    for m in r.made:
        lines += ["Next:", *match_lines(m)]
    return "\n".join(lines)


def decided_post(r: GameRecorded) -> str:
    """A match decided (or a decided one corrected), the next match, the bracket."""
    m = r.match
    if m.winner is None:
        head = f"**{_title(m)} corrected**: {_players(m)} is {_score(m)}, not decided yet."
    else:
        loser = m.low[1] if m.winner == m.high[1] else m.high[1]
        did = " (corrected)" if r.corrected else ""
        head = f"**{_title(m)}{did}**: {m.winner} beats {loser} {max(m.wins)}–{min(m.wins)}."
    lines = [head]
    for made in r.made:
        lines.append(
            f"Next: {ROUNDS[made.round].lower()}, {_players(made)}; "
            f"{made.next_picker} picks game 1's machine."
        )
    return "\n".join([*lines, "", *bracket_lines(r.bracket)])


def bracket_result(done: BracketResult) -> str:
    """R13.6: a division's bracket decided, its champion first."""
    where = f"{division_name(done.division)} champion" if done.division else "League champion"
    lines = [f"**Playoffs · {where}: {done.places[0]}**"]
    if done.final is None:
        lines.append("The only player of the field.")
    else:
        lines.append(f"Won the final {done.final[0]}–{done.final[1]}.")
        for place, name in enumerate(done.places[1:], start=2):
            lines.append(f"{PLACES.get(place, f'{place}th')}: {name}")
    return "\n".join(lines)


def picked(p: MachinePicked) -> str:
    return f"Game {p.number} of your {ROUNDS[p.match.round].lower()}: {p.machine}."
