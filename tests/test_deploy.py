"""The ways to keep the bot running (docs/operating.md): the systemd service
file is checked by systemd itself; the container files name only what the
checkout has and commands the bot really takes. (No image registry can be
reached from the test machines, so the image itself is not built here: what is
tested is said in docs/operating.md.)"""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

from bot.__main__ import _parser

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"


def unit() -> configparser.ConfigParser:
    parsed = configparser.ConfigParser(strict=False, interpolation=None)
    parsed.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parsed.read(DEPLOY / "league-bot.service", encoding="utf-8")
    return parsed


def test_the_service_file_restarts_on_failure_but_not_after_a_setting_to_fix() -> None:
    service = unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == "2"  # a setting to fix first (bot/lifecycle)
    assert service["WorkingDirectory"] == "/opt/league-bot"
    assert service["EnvironmentFile"] == "/opt/league-bot/.env"
    assert service["ExecStart"].split()[1:] == ["run", "--env-file", "/opt/league-bot/.env"]
    assert int(service["TimeoutStopSec"]) > 10  # the bot stops within 10 s of SIGTERM


def test_systemd_verifies_the_service_file(tmp_path: Path) -> None:
    """`systemd-analyze verify` on the file, installed at this checkout (its
    paths the checkout's; run as the current user): no error, no warning."""
    analyze = shutil.which("systemd-analyze")
    assert analyze is not None, "systemd-analyze is missing: apt-get install systemd"
    league_bot = Path(sys.executable).parent / "league-bot"  # this environment's, installed
    text = (DEPLOY / "league-bot.service").read_text(encoding="utf-8")
    text = text.replace("/opt/league-bot/.venv/bin/league-bot", str(league_bot))
    text = text.replace("/opt/league-bot", str(ROOT))
    text = re.sub(r"^User=.*$", "User=root", text, flags=re.M)
    installed = tmp_path / "league-bot.service"
    installed.write_text(text, encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(installed)], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert (done.returncode, done.stderr.strip()) == (0, ""), done.stderr
    broken = tmp_path / "broken.service"
    broken.write_text(text.replace("Restart=on-failure", "Restart=sometimes"), encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(broken)], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert "restart specifier" in done.stderr  # the check would see a mistake


def test_the_container_files_name_what_the_checkout_has() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    for source in re.findall(r"^COPY (.+) \S+$", dockerfile, flags=re.M):
        for name in source.split():
            assert (ROOT / name).exists(), f"the Dockerfile copies {name}, which is missing"
    commands = re.findall(r'"/opt/league-bot/\.venv/bin/league-bot", ([^\]]+)\]', dockerfile)
    assert len(commands) == 2  # the health check and the bot itself
    for arguments in commands:
        words = [w.strip().strip('"') for w in arguments.split(",")]
        _parser().parse_args(words)  # a command the bot takes (argparse exits otherwise)
    assert 'VOLUME ["/data"]' in dockerfile and "DATABASE_PATH=/data/" in dockerfile
    compose = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    assert "dockerfile: deploy/Dockerfile" in compose and "league-data:/data" in compose
    assert "restart: on-failure" in compose
