"""A playoff bracket in words, short lines for a phone (R13.3, R13.6)."""

from __future__ import annotations

from bot.services.outcomes.bracket import (
    BracketResult,
    BracketShown,
    GameRecorded,
    MachinePicked,
    MatchCardShown,
    MatchShown,
    PickChoices,
)
from bot.services.outcomes.playoffs import PlayoffStarted
from bot.ui.playoffs import PLACES, division_name

ROUNDS = {"semifinal": "Semifinal", "final": "Final", "third": "Match for 3rd"}
WAITS_AGAIN = (
    "Waits again for the match before it (a correction changed its result); see /playoffs bracket."
)
HOW = (
    "Each match is best of {n} and has a card below. The higher seed picks game 1's "
    "machine (Pick the machine on the card, or /playoffs pick), then the loser of each "
    "game picks the next; no machine twice in a match. A game goes to the higher score; "
    "an exact tie is replayed. The commissioner enters each game on the card."
)


def round_name(round_: str, slot: int, high_seed: int | None = None) -> str:
    """'Final', 'Match for 3rd', 'Semifinal 1' (of two, seeds 1 v 4 and 2 v 3),
    or 'Semifinal' (a field of three plays one: 2 v 3)."""
    name = ROUNDS.get(round_, round_)
    if round_ == "semifinal" and (slot == 2 or high_seed == 1):
        return f"{name} {slot}"
    return name


def _title(m: MatchShown) -> str:
    return f"{division_name(m.division)} · {round_name(m.round, m.slot, m.high[0])}"


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


def _in_short(m: MatchShown) -> str:
    """A match on one line: its players and where it stands."""
    name = round_name(m.round, m.slot, m.high[0])
    if m.winner is not None:
        where = f"**{m.winner}** {max(m.wins)}–{min(m.wins)}"
    elif m.games:
        where = f"{m.wins[0]}–{m.wins[1]}, under way"
    else:
        where = "to play"
    return f"{name} · {_players(m)}: {where}"


def bracket_fields(b: BracketShown) -> list[tuple[str, str]]:
    """R13.3: the whole bracket as it stands, one field per division, one line
    per match (each match's games are on its card)."""
    fields = []
    for division in dict.fromkeys(m.division for m in b.matches) | dict.fromkeys(b.champions):
        lines = [_in_short(m) for m in b.matches if m.division == division]
        if division in b.champions:
            lines.append(f"🏆 Champion: {b.champions[division]}")
        fields.append((division_name(division), "\n".join(lines)))
    return fields


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
    """A match decided (or a decided one corrected) and the next match (the
    bracket as it stands goes with it, `bracket_fields`)."""
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
            f"Next: {round_name(made.round, made.slot, made.high[0]).lower()}, "
            f"{_players(made)}; {made.next_picker} picks game 1's machine on its card."
        )
    return "\n".join(lines)


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


def _card_title(c: MatchCardShown) -> str:
    if c.match is not None:
        return _title(c.match)
    return f"{division_name(c.division)} · {round_name(c.round, c.slot)}"


def card_text(c: MatchCardShown) -> tuple[str, str]:
    """R13.3: a match's card, its title and its lines: the players and their
    seeds, the games so far (machine, picker, both scores), and what comes next."""
    m = c.match
    if m is None:
        return _card_title(c), WAITS_AGAIN
    lines = [f"{_players(m)} · best of {c.best_of}"]
    for number, g in enumerate(m.games, start=1):
        if g.high is None or g.low is None:
            lines.append(f"Game {number} · {g.machine} ({g.picked_by}'s pick): to play")
        else:
            won = m.high[1] if g.high > g.low else m.low[1]
            lines.append(
                f"Game {number} · {g.machine} ({g.picked_by}'s pick): "
                f"{m.high[1]} {g.high:,}, {m.low[1]} {g.low:,} → {won}"
            )
    if m.winner is not None:
        lines.append(f"**{_score(m)}**")
    elif not c.open:
        lines.append(f"**{_score(m)}**, not finished")
    else:
        lines.append(f"Games: {m.high[1]} {m.wins[0]}, {m.low[1]} {m.wins[1]}")
        picked = m.games and m.games[-1].high is None
        number = len(m.games) + (0 if picked else 1)
        if picked:
            lines.append(f"Next: game {number}, the commissioner enters both scores.")
        else:
            lines.append(f"Next: {m.next_picker} picks game {number}'s machine.")
    return _card_title(c), "\n".join(lines)


def pick_prompt(offer: PickChoices) -> str:
    return f"Your pick for game {offer.number}: choose a machine."


def no_machine_left(offer: PickChoices) -> str:
    return (
        f"No machine is left for game {offer.number}: each of tonight's is played in this "
        "match or marked not working. Ask the commissioner."
    )
