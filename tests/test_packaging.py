"""An installed bot (a wheel, not a checkout) carries its migrations and finds them."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("pyproject.toml", "README.md", "bot", "cogs", "standin", "migrations", "docs")


def test_the_wheel_ships_the_migrations_where_the_bot_looks_for_them(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=skip)
        else:
            shutil.copy2(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-c",
         "from setuptools import build_meta; print(build_meta.build_wheel('dist'))"],
        cwd=source, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = source / "dist" / built.stdout.strip().splitlines()[-1]

    installed = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(installed)
    sql = sorted(
        p.name for p in (ROOT / "migrations").iterdir() if p.suffix in (".sql", ".py")
    )  # SQL files and Python migrations (0002_exact_scores.py)
    assert sql and all(f"migrations/{name}" in names for name in sql)
    assert not any(name.startswith("tests/") for name in names)
    assert "docs/rules.md" in names  # /rules names its sections (cogs/rulebook/rulebook_text.py)
    assert "docs/commands.md" in names  # the exports answer names it for the CSV columns

    # The installed copy, run from elsewhere, loads every migration from itself.
    probe = (
        "import bot, bot.migrate as m; "
        "print(bot.__file__); print(m.DEFAULT_MIGRATIONS); print(len(m.load_migrations())); "
        "import cogs.rulebook.rulebook_text as r; print(r.RULES_FILE); print(len(r.sections()))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
        env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"}, timeout=60,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    module, folder, count, rules, sections = ran.stdout.split("\n")[:5]
    assert Path(module).is_relative_to(installed)
    assert Path(folder) == installed / "migrations"
    assert int(count) == len(sql)
    # The standings picture's font and its licence ship inside the package.
    assert {"bot/ui/fonts/DejaVuSans.ttf", "bot/ui/fonts/LICENSE_DEJAVU.txt"} <= set(names)
    assert Path(rules) == installed / "docs" / "rules.md"
    assert int(sections) == 13  # R1 … R13, read from the installed copy
