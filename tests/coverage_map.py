"""Which test files cover each rule and each slash command: the tables of
`tests/README.md`, made from the tests themselves.

A file covers a rule when it cites the rule's id (`R3.4` in a docstring,
`r3_4` in a test's name). It covers a command when it names the command as
players type it (`/league night lock`; `"league night lock"` as the e2e tests
invoke it, `"night lock"` as the cog tests run it), or imports the command's
cog and invokes its callback (`invoke(COG.lock, …)`). The rule ids are read
from `docs/rules.md`, the commands from the bot's real command tree.

    python -m tests.coverage_map      rewrites the tables in tests/README.md

`tests/test_coverage_map.py` fails when the tables are out of date, or when a
rule or a command has no test file at all.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "tests" / "README.md"
BEGIN = "<!-- tables made by `python -m tests.coverage_map`: do not edit below -->"
MAP_TEST = "test_coverage_map.py"  # cites ids and commands as examples, not as tests
RULE_ID = re.compile(r"\*\*R(\d+)\.(\d+)\*\*")


@dataclass(frozen=True)
class Command:
    name: str  # as typed, without the slash: "league night lock"
    callback: str  # the method: "lock"
    cogs: tuple[tuple[str, str], ...]  # (module, class) that has it: the group's, the cog's


def rule_ids() -> list[str]:
    """Every rule id docs/rules.md defines, in its order (R1.1 … R13.2)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return list(dict.fromkeys(f"R{a}.{b}" for a, b in RULE_ID.findall(text)))


async def _tree() -> list[Command]:
    from bot.client import LeagueBot
    from tests.test_client import settings

    with tempfile.TemporaryDirectory() as folder:
        bot = LeagueBot(settings(Path(folder)))
        try:
            await bot.setup_hook()
            found = []
            for command in bot.tree.walk_commands():
                callback = getattr(command, "callback", None)
                if callback is None:
                    continue  # a group
                owner, _, method = callback.__qualname__.rpartition(".")
                cog = type(command.binding)  # the cog the group is mixed into
                owners = ((callback.__module__, owner), (cog.__module__, cog.__name__))
                found.append(Command(command.qualified_name, method, tuple(dict.fromkeys(owners))))
            return found
        finally:
            await bot.close()


def commands() -> list[Command]:
    """Every slash command the bot registers, as discord.py's tree has it."""
    return asyncio.run(_tree())


def _test_files() -> dict[str, str]:
    files = sorted(p for p in (ROOT / "tests").rglob("test_*.py") if p.name != MAP_TEST)
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in files}


def _cites(rule: str, text: str) -> bool:
    major, minor = rule[1:].split(".")
    return re.search(rf"(?<![A-Za-z0-9])[Rr]{major}[._]{minor}(?!\d)", text) is not None


def _names(command: Command, text: str) -> bool:
    typed = [f"/{command.name}", f'"{command.name}"']
    if command.name.startswith("league "):  # the cog tests' `run(bot, "night lock")`
        typed.append(f'"{command.name.removeprefix("league ")}"')
    if any(name in text for name in typed):
        return True
    imports_cog = any(
        re.search(rf"from {re.escape(module)} import [^\n]*\b{cog}\b", text)
        for module, cog in command.cogs
    )
    called = re.search(rf"invoke\(\w+\.{command.callback}\b", text)
    return imports_cog and called is not None


def by_rule(files: dict[str, str]) -> dict[str, list[str]]:
    return {rule: [f for f, text in files.items() if _cites(rule, text)] for rule in rule_ids()}


def by_command(files: dict[str, str], found: list[Command]) -> dict[str, list[str]]:
    return {c.name: [f for f, text in files.items() if _names(c, text)] for c in found}


def _table(title: str, head: str, rows: dict[str, list[str]]) -> list[str]:
    lines = [f"## {title}", "", f"| {head} | test files |", "|---|---|"]
    for key, found in rows.items():
        listed = ", ".join(f"`{f.removeprefix('tests/')}`" for f in found) or "none"
        lines.append(f"| {key} | {listed} |")
    return [*lines, ""]


def tables(found: list[Command] | None = None) -> str:
    files = _test_files()
    found = commands() if found is None else found
    slash = {f"/{c}": f for c, f in by_command(files, found).items()}
    lines = [BEGIN, "", *_table("By rule", "rule", by_rule(files)),
             *_table("By command", "command", slash)]  # fmt: skip
    return "\n".join(lines)


def written() -> str:
    """The README's own text above the tables."""
    return README.read_text(encoding="utf-8").split(BEGIN)[0]


def main() -> int:
    README.write_text(written() + tables(), encoding="utf-8")
    print(f"wrote {README.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
