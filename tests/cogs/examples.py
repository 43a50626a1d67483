"""Each player command as the tests that go over every command invoke it.

A command's example lives in its own test file, as `EXAMPLES` (a list of
`Example`), not in a list here: the acknowledgement-first test gathers them
from every `tests/cogs/test_*.py` and fails, naming the command, when one of the
registered commands has none.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Example:
    name: str  # the command as a player types it
    cog: Any  # an instance of its cog
    callback: str  # the cog's method for it
    options: dict[str, Any] = field(default_factory=dict)  # valid options
    reads_first: list[str] = field(default_factory=list)  # what it may read before acknowledging
    before_the_lock: bool = False  # taken before the picks lock and the cutoff (else at 20:00)


def gathered() -> list[Example]:
    """Every test file's `EXAMPLES`, in the files' order."""
    found: list[Example] = []
    for path in sorted(HERE.glob("test_*.py")):
        if "\nEXAMPLES" in path.read_text(encoding="utf-8"):
            found.extend(importlib.import_module(f"tests.cogs.{path.stem}").EXAMPLES)
    return found
