"""`/rules [topic]`: the league's rules in plain words, with this league's numbers.

Each topic names the sections of docs/rules.md that hold its full text (the
rule ids are for code and tests; a player reads the section's title). The
document ships with the package (pyproject.toml), and `sections()` reads it
from where both a checkout and an installed wheel keep it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.rules.settings import PrizeSplit, decimal_fraction
from bot.services.outcomes.playoffs import PlayoffFormat
from bot.ui.playoffs import format_words
from cogs.rulebook.rulebook_outcomes import LeagueTerms

RULES_FILE = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
HEADING = re.compile(r"^## (R\d+) (.+)$", re.MULTILINE)


@cache
def sections() -> dict[str, str]:
    """Each section of the rules document by its id: "R3" -> "Pre-makeup scores"."""
    return dict(HEADING.findall(RULES_FILE.read_text(encoding="utf-8")))


def _t(value: object) -> str:
    return f"{value:%H:%M}"


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def _late(t: LeagueTerms) -> str:
    s = t.settings
    return (
        f"Use /late (or /absent) before league day, or on league day before "
        f"{_t(s.late_cutoff)}: the commissioner then decides whether your group waits for you.\n"
        f"From {_t(s.late_cutoff)} on league day, your group does not wait past "
        f"{_t(s.grace_until)}. Play starts at {_t(s.play_time)}.\n"
        "Arriving late, you join the games your group has not started; each game you missed "
        "is scored from your pre-makeup score on that machine, or gets 0 points (the Zero "
        "Point Rule) without one. Changed your mind? /late cancel:True takes a notice back."
    )


def _absences(t: LeagueTerms) -> str:
    s = t.settings
    return (
        "Record one pre-makeup score on each machine, in week 1 or earlier, with at least one "
        "other league player there (/premakeup). A machine added later, or a player who joins "
        "later, can still record one.\n"
        "When you miss a game, your pre-makeup score on that machine is played for you as if "
        "you were there, but it never earns a point for beating the others.\n"
        f"You can use pre-makeup scores on at most {s.pre_makeup_night_limit} nights a season "
        "(the commissioner may allow you more). After that, every game you miss gets 0 points.\n"
        "Missing the whole night makes you absent: you cannot win that night's cash prize. "
        "If no pre-makeup score was used, you keep your group for next week."
    )


def _zero_point(t: LeagueTerms) -> str:
    return (
        "A game you miss with no usable pre-makeup score gets 0 points, and your score counts "
        "as 0 when players are placed.\n"
        f"Past your {t.settings.pre_makeup_night_limit} pre-makeup nights, this applies to every "
        "game you miss; a pre-makeup score you have still stands in for the others, but you "
        "score 0.\n"
        "In a 2-player game against a missing player with no pre-makeup score, the opponent "
        "gets 3 points, or 4 with a score of at least the machine's par."
    )


def _scoring(t: LeagueTerms) -> str:
    return (
        f"A group plays {t.settings.games_per_night} games a night. In each game, the highest "
        "score places first.\n"
        "2 players: 3–0, plus 1 point to first if they at least triple second's score, "
        "otherwise to second.\n"
        "3 players: 3–2–0, plus 1 to first if they beat second and third together, otherwise "
        "to third.\n"
        "4 players: 3–2–1–0, plus 1 to first if they beat second and third together (otherwise "
        "to third), and 1 to second if they beat third and fourth together (otherwise to "
        "fourth).\n"
        "Par: each machine's score worth 1,000,000 normalized points, set by the commissioner "
        "(until then, the median of its pre-makeup scores). Normalized scores break ties."
    )


def _match(t: LeagueTerms) -> str:
    return (
        "Your match points (MP) are your game points added up over the night. In your group, "
        "the most MP wins; a tie goes to the higher total normalized score, then to the "
        "higher rank. The first is the group's winner, the last its loser.\n"
        "Two equal raw scores in a game: the commissioner records who placed higher."
    )


def _bonus(t: LeagueTerms) -> str:
    s = t.settings
    return (
        f"From week {s.bonus_start_week}, the night's match is scored like a game of your "
        "group's size, with MP instead of scores: those are your bonus points.\n"
        f"From week {s.multiplier_start_week}, bonus points are multiplied by your multiplier "
        f"({s.multiplier_min} to {s.multiplier_max}): up 1 after winning your group, down 1 "
        "after being its loser, the same otherwise. /me shows yours."
    )


def _groups(t: LeagueTerms) -> str:
    return (
        "Groups are 3 players; when the numbers do not divide by 3, the bottom group has 4 "
        "or 2. Week 1 groups are cut by skill.\n"
        "After each night, each group's winner swaps with the loser of the group above. A "
        "player who missed the night and used no pre-makeup score keeps their group.\n"
        f"A 4-player group swaps two players up when both scored at least "
        f"{t.settings.two_swap_match_points} MP and the two going down scored no more.\n"
        f"Groups are posted at {_t(t.groupings_time)} on league day (/groups)."
    )


def _divisions(t: LeagueTerms) -> str:
    s = t.settings
    return (
        f"With {s.division_min_players} or more players, the league splits into divisions A "
        f"and B at week {s.division_week}. Division A takes half the players: those who won "
        "their group at least 2 times and did not move down at least 4 times in the 5 weeks "
        "before, by rank. From then on you play only your own division."
    )


def _picks(t: LeagueTerms) -> str:
    games = t.settings.games_per_night
    return (
        f"Each group plays {games} games from the working machines. With more machines, some "
        f"are vetoed; with fewer, some are played twice. Use /veto before picks lock at "
        f"{_t(t.lock_time)}, in your order of preference.\n"
        "Picks are settled round by round, first choices first; the lowest-ranked player's "
        "pick goes first. Missing picks are filled in the league's machine order."
    )


def _money_rules(t: LeagueTerms) -> str:
    s = t.settings
    first = s.payout_first_percent
    return (
        f"Dues are {_money(s.dues_cents)} a night: half goes to that night's pot, half to the "
        "season prize fund.\n"
        f"Each night, the group winner with the most league points (before the multiplier) "
        f"takes {first}% of the pot, the next {100 - first}%. An absent player cannot win it.\n"
        f"At the end of the season the fund is paid out: {_prizes(s.prize_split)}."
    )


def _prizes(split: PrizeSplit) -> str:
    """R10.4: the places' weights and the consolation prize of each division."""
    parts = []
    for division, weights in split.places.items():
        share = round(decimal_fraction(split.consolation.get(division, 0)) * 100)
        parts.append(
            f"division {division}'s places in the ratio {':'.join(map(str, weights))}, "
            f"and the next player {share}% of its second prize"
        )
    return "; ".join(parts)


def _playoffs(t: LeagueTerms) -> str:
    s = t.settings
    played = format_words(PlayoffFormat(s.playoff_format, s.playoff_games, s.playoff_best_of))
    return (
        f"After the last of the {s.regular_nights} regular nights, each division sends its top "
        f"players by standings to the playoffs: its size divided by {s.playoff_divisor}, "
        f"between {s.playoff_min} and {s.playoff_max}. The next players are alternates.\n"
        f"{played}\n"
        f"Playoff night is the {s.weekday} after the last regular night, from {_t(s.play_time)}; "
        "no dues are paid. A qualifier who is not checked in by "
        f"{_t(s.grace_until)}, or cannot come, is replaced by the first alternate.\n"
        "The playoffs decide the champion and places 2 and 3; everyone else follows in "
        "standings order, and the season's prizes go by those places."
    )


def _standings(t: LeagueTerms) -> str:
    return (
        "The standings order players by league points (game points plus bonus points after "
        "the multiplier), then total normalized score, then skill, then sign-up order.\n"
        "In game 1 the lowest-ranked player starts; after that, the last-placed player of the "
        "game before starts and its winner plays last."
    )


def _corrections(t: LeagueTerms) -> str:
    return (
        "Only the commissioner changes a score, always with a reason, and every change is "
        "kept.\n"
        "Malfunction replay: the replay's score counts, higher or lower. A death save, "
        "bang-back or slam tilt, or tilting away another player's ball twice in a night: "
        "that score becomes 0. Replay after a slam tilt or tilted-away ball: the higher of "
        "the two scores counts."
    )


@dataclass(frozen=True)
class Topic:
    name: str
    sections: tuple[str, ...]  # ids of docs/rules.md sections holding the full text
    explain: Callable[[LeagueTerms], str]


TOPICS = {
    t.name: t
    for t in [
        Topic("late notices", ("R1", "R2"), _late),
        Topic("absences and pre-makeups", ("R2", "R3"), _absences),
        Topic("Zero Point Rule", ("R3",), _zero_point),
        Topic("scoring and par", ("R5", "R6"), _scoring),
        Topic("match points", ("R7",), _match),
        Topic("bonus and multipliers", ("R7",), _bonus),
        Topic("groups and movement", ("R8",), _groups),
        Topic("divisions", ("R9",), _divisions),
        Topic("picks and vetoes", ("R4",), _picks),
        Topic("dues and prizes", ("R10",), _money_rules),
        Topic("playoffs", ("R13",), _playoffs),
        Topic("standings and play order", ("R11",), _standings),
        Topic("corrections", ("R12",), _corrections),
    ]
}


def find(typed: str) -> Topic | None:
    """The topic named, ignoring case and surrounding spaces."""
    wanted = " ".join(typed.split()).casefold()
    return next((t for n, t in TOPICS.items() if n.casefold() == wanted), None)


def matching(typed: str) -> list[str]:
    """Topic names containing what is typed (all of them for nothing typed)."""
    wanted = typed.strip().casefold()
    return [n for n in TOPICS if wanted in n.casefold()] or list(TOPICS)


def _where(topic: Topic) -> str:
    titles = [f"“{sections()[s]}”" for s in topic.sections]
    return f"Full text: the league's rules document, {' and '.join(titles)}."


def explain(topic: Topic, terms: LeagueTerms) -> str:
    return f"**Rules: {topic.name}**\n{topic.explain(terms)}\n{_where(topic)}"


def index() -> str:
    return (
        "**League rules.** Ask about a topic with /rules topic: "
        + ", ".join(TOPICS)
        + ".\nThe numbers shown are this league's settings."
    )


def unknown(typed: str) -> str:
    return f"There is no rules topic “{typed.strip()[:50]}”. Topics: {', '.join(TOPICS)}."
