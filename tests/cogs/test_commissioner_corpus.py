"""Every /league command option, attacked: hostile values get a clear, private
refusal (never the generic apology) and change nothing.

The callbacks are called directly, as the cog tests do, so Discord's own option
limits (`app_commands.Range`, choices) are bypassed: what a changed client, a
global registration or a future refactor could send still meets a refusal here.
The league is mid-night: week 1's picks are locked and P1 has a pending score.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from discord import app_commands

from bot.services import scores
from bot.ui.replies import APOLOGY
from cogs.commissioner import Commissioner
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, GUILD, FakeBot, FakeMember, invoke
from tests.cogs.league_play import lock, snapshot
from tests.cogs.test_roster_import_cog import upload

COG = Commissioner()
COMMANDS = {
    command.qualified_name.removeprefix("league "): command
    for command in COG.walk_app_commands()
    if isinstance(command, app_commands.Command)
}
TONIGHT = at(FIRST_NIGHT, "20:00")
ZED = FakeMember(800000000000000042, "Zed")

# A valid call of each command; each attack replaces one option.
VALID: dict[str, dict[str, Any]] = {
    "season setup": {"name": "League"},
    "season start": {"name": "Summer", "start": "2026-06-03"},
    "season setting": {"name": "dues_cents", "value": "600"},
    "season time": {"name": "play_time", "value": "19:00"},
    "season skip": {"date": "2026-01-14", "reason": "ice"},
    "season playoffs": {"unavailable": ""},
    "player add": {"member": ZED, "name": "Zed"},
    "player remove": {"name": "P6"},
    "player skill": {"name": "P1", "value": 5.0},
    "player grant": {"name": "P1", "nights": 1},
    "player ifpa": {"name": "P1", "number": "12345"},
    "player import": {"file": upload(b"name\nZed\n")},
    "admin export": {},
    "machine add": {"name": "Funhouse", "par": "1M"},
    "machine par": {"machine": "Monster Bash", "value": "1M"},
    "machine working": {"machine": "Monster Bash", "working": False},
    "night lock": {"week": 1},
    "night games": {"group": "1", "machines": "Monster Bash"},
    "night approve-all": {"group": "1"},
    "night waiting": {},
    "night mark": {"player": "P3", "status": "late"},
    "night finalize": {"week": 1},
    "score change": {"kind": "correction", "week": 1, "player": "P1", "game": 1,
                     "reason": "typo", "score": "1000"},
    "score tie": {"week": 1, "game": 1, "players": "P1, P2"},
    "score audit": {},
    "money dues": {"players": "P1", "week": 1, "amount": "6.00"},
    "money fund": {"amount": "10.00", "note": ""},
    "money prizes": {},
    "money summary": {},
    "admin backup": {},
    "admin sync": {},
    "admin resend": {"week": 1},
    "admin status": {},
}  # fmt: skip

HUGE = [10**12, 2**63, -(2**63)]
WEEKS = [0, -1, 53, *HUGE]
GAMES = [0, -1, 11, *HUGE]
TEXT = ["", "   ", "\u0000", "x" * 5000, "\u202e\u200b", "１２３"]
DATES = [
    "9999-12-31",
    "10000-01-01",
    "0001-01-01",
    "2026-02-30",
    "12/31/9999",
    "99999999",
    "２０２６-０１-０７",
    "2026-01-07T00:00",
    "",
    "-2026-01-07",
]
SCORES = ["1e999", "NaN", "inf", "-0", "١٢٣", "9" * 400, "99999999999999T", "0.5", ",", "1,2,3"]
MONEY = ["1e9", "NaN", "999999999999", "-0.01", "٦", "6.001", "$", ".50", "6.5.0", "0.00"]

# (command, option, hostile values): each must be refused, privately, with nothing changed.
ATTACKS: list[tuple[str, str, list[Any]]] = [
    ("season setup", "name", [*TEXT[:4], "x" * 101]),
    (
        "season setup",
        "time_zone",
        [
            "",
            "Mars/Olympus",
            "../../etc/passwd",
            "\u0000",
            "x" * 5000,
            "UTC\u0000",
            "/usr/share/zoneinfo/UTC",
        ],
    ),
    ("season start", "name", [*TEXT[:4], "x" * 101]),
    ("season start", "start", DATES),
    ("season start", "weekday", ["", "Funday", "８", "x" * 5000, "Wed\u0000"]),
    ("season start", "nights", [0, -1, 53, *HUGE]),
    ("season setting", "value", ["", "-1", "100001", "１", "1e3", "9" * 5000, "0x10", "1_000"]),
    ("season setting", "name", ["", "nonsense", "x" * 5000]),
    ("season time", "value", ["25:61", "24:00", "99:99", "-1:00", "１９:１５", "", "19:15:00"]),
    ("season time", "name", ["", "lunch_time"]),
    ("season skip", "date", DATES),
    ("season skip", "reason", ["x" * 201, "x" * 5000]),
    ("season playoffs", "unavailable", ["Nobody", "P1, Nobody", "x" * 5000]),
    ("player add", "name", [*TEXT[1:4], "x" * 65, "p1"]),  # "": their display name
    ("player add", "skill", [0.0, 11.0, -1.0, math.nan, math.inf, -math.inf, 1e308]),
    ("player remove", "name", ["", "Nobody", "x" * 5000, "\u0000"]),
    ("player skill", "name", ["", "Nobody"]),
    ("player skill", "value", [0.0, 11.0, math.nan, math.inf, -math.inf]),
    ("player grant", "name", ["", "Nobody"]),
    ("player grant", "nights", [0, -1, 11, *HUGE]),
    ("machine add", "name", [*TEXT[:4], "x" * 65, "monster bash"]),
    ("machine add", "par", [*SCORES, "0"]),
    ("machine par", "machine", ["", "Nobody", "x" * 5000]),
    ("machine par", "value", [*SCORES, "0", "MEDIAN!"]),
    ("machine working", "machine", ["", "Nobody"]),
    ("night lock", "week", WEEKS),
    ("night games", "group", ["", "0", "99", "Z9", "１", "x" * 5000]),
    ("night games", "machines", ["", ",,,", "Nobody", "x" * 5000]),
    ("night approve-all", "group", ["", "0", "99", "A", "１", "x" * 5000, "-1"]),
    ("night mark", "player", ["", "Nobody", "x" * 5000]),
    ("night mark", "status", ["", "present", "x" * 5000]),
    ("night mark", "date", DATES[:8]),
    ("night finalize", "week", WEEKS),
    ("score change", "kind", ["", "bribe"]),
    ("score change", "week", WEEKS),
    ("score change", "player", ["", "Nobody", "x" * 5000]),
    ("score change", "game", GAMES),
    ("score change", "reason", ["", "   ", "x" * 501]),
    ("score change", "score", SCORES),
    ("score tie", "week", WEEKS),
    ("score tie", "game", GAMES),
    ("score tie", "players", ["", "P1", "P1, Nobody", "P1, P1", "P1, P4", ",,,", "x" * 5000]),
    ("score audit", "week", WEEKS),
    ("score audit", "player", ["", "Nobody", "x" * 5000]),
    ("money dues", "players", ["", "Nobody", "x" * 5000, "P1, Nobody", "P1, P1", ",,,"]),
    ("money dues", "week", WEEKS),
    ("money dues", "amount", MONEY),
    ("money summary", "week", WEEKS),
    ("money fund", "amount", MONEY),
    ("money fund", "note", ["x" * 5000]),
    ("admin resend", "week", WEEKS),
    ("admin export", "season", ["", "Nobody", "x" * 5000]),
    ("player ifpa", "name", ["", "Nobody", "x" * 5000]),
    ("player ifpa", "number", ["abc", "-1", "1e5", "12345678", "１２３", "0", "x" * 5000]),
    (
        "player import",
        "file",
        [
            upload(data)
            for data in (
                b"\xff\xfe",
                b"name\n\x00\n",
                b"name,skill\nZed,99\n",
                b"name\nP1\n",
                b"skill\n5\n",
                b"name\n" + b"x" * 5000 + b"\n",
                b'name\n"Zed\n',
                b"x" * 200_000,
            )
        ],
    ),
]
CASES = [
    pytest.param(command, option, value, id=f"{command}-{option}-{index}")
    for command, option, values in ATTACKS
    for index, value in enumerate(values)
]


def test_the_corpus_attacks_every_option_of_every_command() -> None:
    attacked = {(c, o) for c, o, _ in ATTACKS}
    for name, command in COMMANDS.items():
        for parameter in command.parameters:
            if parameter.type.name == "boolean" or parameter.name == "member":
                continue  # Discord sends only true/false, or a member it resolved
            assert (name, parameter.name) in attacked, f"/league {name} {parameter.name}"
    assert set(VALID) == set(COMMANDS)


@pytest.mark.parametrize(("command", "option", "value"), CASES)
async def test_a_hostile_value_is_refused_clearly_and_changes_nothing(
    league: FakeBot, command: str, option: str, value: Any
) -> None:
    bot = league
    await lock(bot)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 1000, now=TONIGHT)
    before = await snapshot(bot)  # delivers what was owed before the attack (the approval)
    posted = [len(bot.channels[c].sent) for c in (ANNOUNCEMENTS, APPROVALS)]
    options = {**VALID[command], option: value}
    said = await invoke(COMMANDS[command], COG, as_user(bot, COMMISSIONER, TONIGHT), **options)
    assert said.replies and all(r.ephemeral for r in said.replies)
    assert APOLOGY not in said.text and "Traceback" not in said.text
    assert len(said.text) < 1000, said.text[:200]  # a refusal, not an echo of 5,000 characters
    assert await snapshot(bot) == before, said.text
    assert [len(bot.channels[c].sent) for c in (ANNOUNCEMENTS, APPROVALS)] == posted


# Before the first night, so that "a night is being played" does not hide the answer.
EARLY = (
    [
        pytest.param("season start", {**VALID["season start"], "start": day}, id=f"start-{day}")
        for day in DATES
    ]
    + [
        pytest.param("season start", {**VALID["season start"], "nights": n}, id=f"nights-{n}")
        for n in [0, -1, 53, *HUGE]
    ]
    + [pytest.param("season skip", {"date": day}, id=f"skip-{day}") for day in DATES]
    + [
        pytest.param(
            "night mark", {"player": "P3", "status": "absent", "date": day}, id=f"mark-{day}"
        )
        for day in DATES[:8]
    ]
)


@pytest.mark.parametrize(("command", "options"), EARLY)
async def test_far_dates_and_huge_numbers_before_the_season_are_refused(
    league: FakeBot, command: str, options: dict[str, Any]
) -> None:
    bot = league
    before = await snapshot(bot)
    said = await invoke(COMMANDS[command], COG, as_user(bot, COMMISSIONER, TONIGHT), **options)
    assert said.replies and all(r.ephemeral for r in said.replies)
    assert APOLOGY not in said.text and len(said.text) < 1000
    assert await snapshot(bot) == before, said.text
