"""The rules module is pure: no discord, database, file, network or clock
(docs/architecture.md, "Layout")."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = [*sorted((ROOT / "bot" / "rules").glob("*.py")), ROOT / "bot" / "scoring.py"]

FORBIDDEN_MODULES = {
    "aiohttp", "aiosqlite", "asyncio", "discord", "http", "io", "os", "pathlib", "random",
    "requests", "shutil", "socket", "sqlite3", "subprocess", "tempfile", "time", "urllib",
    "zoneinfo", "apscheduler",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "now", "today", "utcnow", "time_ns", "perf_counter"}


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def _calls(tree: ast.AST) -> set[str]:
    called = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    return called


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_rules_import_nothing_impure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _imports(tree) & FORBIDDEN_MODULES == set()


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_rules_read_no_clock_and_open_no_file(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _calls(tree) & FORBIDDEN_CALLS == set()


def test_rule_files_are_found() -> None:
    """Guards the two tests above against silently checking nothing."""
    names = {p.name for p in RULE_FILES}
    assert {"scoring.py", "games.py", "match.py", "groups.py", "night.py"} <= names


def test_importing_the_rules_loads_no_discord_or_database() -> None:
    code = (
        "import sys, bot.scoring; "
        "print(sorted(m for m in ('discord', 'aiosqlite', 'sqlite3', 'apscheduler') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_the_purity_check_catches_an_impure_module() -> None:
    tree = ast.parse("import discord\nfrom datetime import datetime\nx = datetime.now()\n")
    assert "discord" in _imports(tree) & FORBIDDEN_MODULES
    assert "now" in _calls(tree) & FORBIDDEN_CALLS
