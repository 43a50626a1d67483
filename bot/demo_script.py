"""What happens in the demo's scripted night: the league's machines and pars,
its players and their skill, who is late and who absent, every score typed,
the pre-makeups, the vetoes and the typo the commissioner rejects."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

ZONE = ZoneInfo("America/New_York")
NIGHT = date(2026, 1, 7)  # a Wednesday: week 1
TOKEN = "demo-token.not-a-secret.0123456789abcdef"
MACHINES = {  # league machine order, par (R6.1)
    "Attack from Mars": "1B",
    "The Addams Family": "50M",
    "Medieval Madness": "20M",
    "Twilight Zone": "300M",
    "Theatre of Magic": "40M",
    "Monster Bash": "80M",
}
PLAYERS = {"Ann": 9, "Bob": 8, "Cat": 7, "Dan": 6, "Eve": 5, "Fay": 4, "Gus": 3}  # skill
ABSENT = "Gus"
# What each present player types as their score on each machine: the forms
# /score accepts (plain, grouped, and the k/M/B short forms).
SCORES: dict[str, dict[str, str]] = {
    "Ann": {
        "Attack from Mars": "2.1B",
        "The Addams Family": "61,250,000",
        "Medieval Madness": "25M",
        "Twilight Zone": "410000000",
        "Theatre of Magic": "52M",
        "Monster Bash": "90M",
    },
    "Bob": {
        "Attack from Mars": "1.3B",
        "The Addams Family": "40M",
        "Medieval Madness": "19,500,000",
        "Twilight Zone": "330M",
        "Theatre of Magic": "47M",
        "Monster Bash": "60,125,000",
    },
    "Cat": {
        "Attack from Mars": "650M",
        "The Addams Family": "48M",
        "Medieval Madness": "9M",
        "Twilight Zone": "310,000,000",
        "Theatre of Magic": "28M",
        "Monster Bash": "66M",
    },
    "Dan": {
        "Attack from Mars": "900M",
        "The Addams Family": "72M",
        "Medieval Madness": "14M",
        "Twilight Zone": "150M",
        "Theatre of Magic": "31,500,000",
        "Monster Bash": "120M",
    },
    "Eve": {
        "Attack from Mars": "700M",
        "The Addams Family": "55M",
        "Medieval Madness": "22M",
        "Twilight Zone": "280M",
        "Theatre of Magic": "36M",
        "Monster Bash": "75M",
    },
    "Fay": {
        "Attack from Mars": "400M",
        "The Addams Family": "21M",
        "Medieval Madness": "12,250,000",
        "Twilight Zone": "90M",
        "Theatre of Magic": "22M",
        "Monster Bash": "45M",
    },
}
PRE_MAKEUPS = {  # Gus's pre-makeup scores, played with Fay (R3.1)
    "Attack from Mars": "500M",
    "The Addams Family": "30M",
    "Medieval Madness": "15M",
    "Twilight Zone": "200M",
    "Theatre of Magic": "26M",
    "Monster Bash": "50M",
}
VETOES = {"Cat": "Attack from Mars", "Fay": "Medieval Madness"}  # R4: lowest ranks' picks win
TYPO = ("Bob", 2, "4.0M")  # Bob first types 4.0M for 40M: rejected, typed again


def at(day: date, clock: str) -> datetime:
    hour, minute = map(int, clock.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZONE)


def raw(text: str) -> int:
    from bot.parsing import parse_score

    return parse_score(text)
