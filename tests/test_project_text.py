"""The project's text stands on its own for someone who clones it: no code,
doc or test cites an issue number (they mean nothing outside the tracker),
and every project file a comment, doc or test names exists (a path
like `bot/services/standings.py`, from the project root or from the citing
file's folder)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT = (".py", ".md", ".sql", ".sh", ".toml", ".txt", ".example")
FOLDERS = "bot|cogs|migrations|docs|tests|scripts|standin|bench"
CITED = re.compile(rf"(?<![\w/.-])((?:{FOLDERS})/[\w./-]+\.(?:py|sql|md|sh|txt|toml|json|ttf|png))")
ISSUE = re.compile(r"\b(?:issues?|tickets?) *#? *\d+\b|(?<![\w&#])#\d{1,3}\b(?![\w-])", re.I)


def tracked() -> list[Path]:
    """The project's text files as a clone has them."""
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed if name.endswith(TEXT) or name.startswith(".ci/")]


def test_the_project_has_text_files_to_check() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in tracked()}
    assert {"README.md", "docs/rules.md", "bot/client.py", ".ci/run"} <= names


@pytest.mark.parametrize(
    "text",
    ["See issue #14.", "(issue 13)", "fixed in #21", "Issues #20 and 21"],
)
def test_an_issue_number_is_found(text: str) -> None:
    assert ISSUE.search(text)


@pytest.mark.parametrize(
    "text",
    ["colour #1f8b4c", "R13.4", "week 13", "`#league`", "&#39;", "x#1", "#1-night"],
)
def test_what_is_not_an_issue_number_is_left_alone(text: str) -> None:
    assert not ISSUE.search(text)


# A migration is never edited once it has landed, not even its comments (a
# league's database was built from it as it was): these four keep the issue
# numbers their first comment was written with. Every new one is checked.
LANDED = {f"migrations/{name}.sql" for name in ("0005_score_photos", "0007_cards",
                                               "0008_movement", "0009_exports")}  # fmt: skip


def landed(path: Path) -> bool:
    return path.relative_to(ROOT).as_posix() in LANDED


def test_no_file_cites_an_issue_number() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in tracked()
        if path != Path(__file__) and not landed(path)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ISSUE.search(line)
    ]
    assert found == []


def test_every_cited_project_file_exists() -> None:
    missing = sorted(
        f"{path.relative_to(ROOT)} cites {cited}"
        for path in tracked()
        for cited in {m.group(1).rstrip(".") for m in CITED.finditer(path.read_text("utf-8"))}
        if not (ROOT / cited).exists() and not (path.parent / cited).exists()
    )
    assert missing == []


def test_no_two_test_files_share_a_name() -> None:
    """pytest imports test files by their name: two of one name in different
    folders stop the whole run at collection."""
    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
