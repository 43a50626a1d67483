"""The `league-bot` console script's main job (README quick start)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.__main__ import main


def test_main_job_prints_a_scored_league_night(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "Group 1: Ann, Eve, Bob" in out  # R8.2: cut by skill, Cat unrated at 5.5
    assert "Gus  MP 15" in out
    assert "Next week (R8.3-R8.5):" in out
    assert "Payout from a $21.00 pot (R10.2): Gus $15.75, Ann $5.25" in out


def test_unknown_command_is_refused_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "explode"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert "invalid choice: 'explode'" in done.stderr
    assert "Traceback" not in done.stderr
