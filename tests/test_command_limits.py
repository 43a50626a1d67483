"""Every slash command the bot registers fits Discord's documented limits.

Discord refuses a whole bulk registration when one command breaks a limit,
so these are checked on the real command tree, as `/league admin sync` sends it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.client import LeagueBot
from tests.test_client import settings

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
SUBCOMMAND, GROUP = 1, 2
MAX_PER_LEVEL = 25  # subcommands and groups of a command or group; options of a command
MAX_CHOICES = 25
MAX_CHARS = 4000  # names, descriptions and choices of one command, all levels
HEADROOM = 0.15  # /league keeps this much of MAX_CHARS free for what comes


@pytest.fixture
async def payload(tmp_path: Path) -> list[dict[str, Any]]:
    bot = LeagueBot(settings(tmp_path))
    try:
        await bot.setup_hook()
        commands = bot.tree.get_commands()
        return [command.to_dict(bot.tree) for command in commands]
    finally:
        await bot.close()


def _chars(item: dict[str, Any]) -> int:
    own = len(item["name"]) + len(item.get("description", ""))
    own += sum(len(c["name"]) + len(str(c["value"])) for c in item.get("choices") or [])
    return own + sum(_chars(o) for o in item.get("options") or [])


def _problems(item: dict[str, Any], path: str, depth: int) -> list[str]:
    """Discord's limits for one command, group or option (depth 0 is the command)."""
    found = []
    if not NAME.match(item["name"]):
        found.append(f"{path}: name {item['name']!r}")
    if not 1 <= len(item.get("description", "")) <= 100:
        found.append(f"{path}: description of {len(item.get('description', ''))} characters")
    if len(item.get("choices") or []) > MAX_CHOICES:
        found.append(f"{path}: {len(item['choices'])} choices")
    options = item.get("options") or []
    if len(options) > MAX_PER_LEVEL:
        found.append(f"{path}: {len(options)} entries")
    kinds = {o["type"] for o in options}
    if kinds & {SUBCOMMAND, GROUP} and kinds - {SUBCOMMAND, GROUP}:
        found.append(f"{path}: subcommands mixed with options")
    if item.get("type") == GROUP and kinds - {SUBCOMMAND}:
        found.append(f"{path}: a group holds only subcommands")
    if GROUP in kinds and depth > 0:
        found.append(f"{path}: nested deeper than command > group > subcommand")
    required = [bool(o.get("required")) for o in options if o["type"] not in (1, 2)]
    if required != sorted(required, reverse=True):
        found.append(f"{path}: a required option after an optional one")
    if len({o["name"] for o in options}) != len(options):
        found.append(f"{path}: two entries with one name")
    for option in options:
        found += _problems(option, f"{path} {option['name']}", depth + 1)
    return found


async def test_every_command_fits_discords_limits(payload: list[dict[str, Any]]) -> None:
    assert len(payload) <= 100  # guild commands of one kind
    problems = []
    for command in payload:
        problems += _problems(command, "/" + command["name"], 0)
        if _chars(command) > MAX_CHARS:
            problems.append(f"/{command['name']}: {_chars(command)} characters")
    assert problems == []


async def test_league_is_grouped_with_room_to_grow(payload: list[dict[str, Any]]) -> None:
    league = next(c for c in payload if c["name"] == "league")
    groups = {g["name"]: [s["name"] for s in g["options"]] for g in league["options"]}
    assert all(g["type"] == GROUP for g in league["options"])
    assert list(groups) == ["season", "player", "machine", "night", "score", "money", "admin"]
    assert all(len(leaves) < MAX_PER_LEVEL for leaves in groups.values())
    assert _chars(league) <= MAX_CHARS * (1 - HEADROOM), _chars(league)


def test_the_checker_finds_what_discord_refuses() -> None:
    """The checker itself: each broken limit is reported."""
    option = {"name": "x", "description": "d", "type": 3}
    bad = {
        "name": "Bad Name",
        "description": "",
        "options": [
            {**option, "name": "late", "required": False},
            {**option, "name": "first", "required": True,
             "choices": [{"name": str(n), "value": n} for n in range(26)]},
        ],
    }  # fmt: skip
    found = _problems(bad, "/bad", 0)
    assert found == [
        "/bad: name 'Bad Name'",
        "/bad: description of 0 characters",
        "/bad: a required option after an optional one",
        "/bad first: 26 choices",
    ]
    deep = {"name": "a", "description": "d", "options": [
        {"name": "b", "description": "d", "type": GROUP, "options": [
            {"name": "c", "description": "d", "type": GROUP, "options": []}]}]}  # fmt: skip
    assert _problems(deep, "/a", 0) == [
        "/a b: a group holds only subcommands",
        "/a b: nested deeper than command > group > subcommand",
    ]
    # ab + cde, Bad Name, late + d, first + d, then 26 choices named and valued 0..25.
    choices = sum(2 * len(str(n)) for n in range(26))
    assert _chars({"name": "ab", "description": "cde", "options": [bad]}) == 5 + 8 + 5 + 6 + choices


def test_the_commands_the_schedule_follows_say_so_themselves() -> None:
    """The week's posts are worked out again after a command that says so
    (`extras=RESCHEDULES`): those that change the season's dates, its clock
    times or its settings. A renamed command keeps saying it."""
    from bot.league_client import reschedules
    from cogs.commissioner import Commissioner

    said = {c.qualified_name for c in Commissioner().walk_app_commands() if reschedules(c)}
    assert said == {"league season setup", "league season start", "league season time",
                    "league season skip", "league season setting"}  # fmt: skip
    assert not reschedules(object()) and not reschedules(type("C", (), {"extras": None})())


RULE_ID = re.compile(r"\bR\d+(\.\d+)?\b")


def _shown(item: dict[str, Any], path: str) -> list[str]:
    """Every text of a command Discord shows a user, with where it is."""
    texts = [f"{path}: {item.get('description', '')}"]
    texts += [f"{path} choice: {c['name']}" for c in item.get("choices") or []]
    for option in item.get("options") or []:
        texts += _shown(option, f"{path} {option['name']}")
    return texts


async def test_no_command_shows_an_internal_rule_id(payload: list[dict[str, Any]]) -> None:
    """Rule ids are for code and tests; Discord shows descriptions to players."""
    texts = [t for command in payload for t in _shown(command, "/" + command["name"])]
    assert len(texts) > 100  # every command, group and option was read
    assert [t for t in texts if RULE_ID.search(t)] == []
