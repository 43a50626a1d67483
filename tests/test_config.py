"""Settings from the environment: every problem named in one line, the token never shown."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import LEGACY, ConfigError, Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "MTA1Mjk4NzY1NDMyMTAxMjM0NQ.GxYz12.abcdefghijklmnopqrstuvwxyz0123456789AB"
VALID = {
    "DISCORD_TOKEN": TOKEN,
    "LEAGUE_GUILD_ID": "111111111111111111",
    "COMMISSIONER_ROLE_ID": "222222222222222222",
    "ANNOUNCEMENT_CHANNEL_ID": "333333333333333333",
    "APPROVALS_CHANNEL_ID": "444444444444444444",
}
REQUIRED = list(VALID)


def refused(env: dict[str, str]) -> str:
    with pytest.raises(ConfigError) as caught:
        load_settings(env=env)
    message = str(caught.value)
    assert "\n" not in message and message.strip() == message, "one line"
    return message


def test_valid_settings_and_defaults() -> None:
    settings = load_settings(env=VALID)
    assert settings.token.reveal() == TOKEN
    assert (settings.guild_id, settings.commissioner_role_id) == (
        111111111111111111, 222222222222222222,
    )  # fmt: skip
    assert (settings.announcement_channel_id, settings.approvals_channel_id) == (
        333333333333333333, 444444444444444444,
    )  # fmt: skip
    assert settings.time_zone == "America/New_York"  # R1.3's default
    assert settings.log_level == "INFO"
    assert settings.api_base is None
    assert settings.database_path == Path("league.sqlite3")
    assert settings.backup_dir == Path("backups")


def test_optional_settings_are_read() -> None:
    settings = load_settings(
        env={**VALID, "LEAGUE_TIME_ZONE": " America/Chicago ", "LOG_LEVEL": "debug",
             "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10", "DATABASE_PATH": "x.db",
             "BACKUP_DIR": "/tmp/league-backups", "LEAGUE_GUILD_ID": " 111111111111111111 "}
    )  # fmt: skip
    assert settings.time_zone == "America/Chicago"
    assert settings.log_level == "DEBUG"
    assert settings.api_base == "http://127.0.0.1:8080/api/v10"
    assert settings.database_path == Path("x.db")
    assert settings.backup_dir == Path("/tmp/league-backups")
    assert settings.guild_id == 111111111111111111


@pytest.mark.parametrize("name", REQUIRED)
@pytest.mark.parametrize("absent", ["missing", "empty", "blank"])
def test_a_missing_required_setting_is_named(name: str, absent: str) -> None:
    env = dict(VALID)
    if absent == "missing":
        del env[name]
    else:
        env[name] = "" if absent == "empty" else "   "
    message = refused(env)
    assert message.startswith(f"{name} is not set")
    assert ".env" in message  # says where to put it


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DISCORD_TOKEN", "too-short"),
        ("DISCORD_TOKEN", "a token with spaces in the middle of it"),
        ("LEAGUE_GUILD_ID", "my-server"),
        ("LEAGUE_GUILD_ID", "12345"),  # far too short for a Discord id
        ("LEAGUE_GUILD_ID", "-111111111111111111"),
        ("COMMISSIONER_ROLE_ID", "1.5e17"),
        ("COMMISSIONER_ROLE_ID", "123456789012345678901"),  # 21 digits
        ("ANNOUNCEMENT_CHANNEL_ID", "#announcements"),
        ("APPROVALS_CHANNEL_ID", "４４４４４４４４４４４４４４４４４４"),  # full-width digits
        ("APPROVALS_CHANNEL_ID", "4²4444444444444444"),  # isdigit() but not int()-able
        ("LEAGUE_TIME_ZONE", "Mars/Olympus"),
        ("LEAGUE_TIME_ZONE", "../../etc/passwd"),
        ("LOG_LEVEL", "LOUD"),
        ("DISCORD_API_BASE", "localhost:8080"),
        ("DISCORD_API_BASE", "ftp://127.0.0.1/api/v10"),
    ],
)
def test_a_malformed_setting_is_named(name: str, value: str) -> None:
    message = refused({**VALID, name: value})
    assert message.startswith(name)
    if name == "DISCORD_TOKEN":
        assert value not in message  # a token is never echoed, even a wrong one


def test_the_token_never_shows() -> None:
    settings = load_settings(env=VALID)
    for shown in (repr(settings), str(settings), repr(settings.token), str(settings.token),
                  f"{settings.token}", f"{settings!r}"):  # fmt: skip
        assert TOKEN not in shown
        assert TOKEN[:10] not in shown
    assert "token=Secret('**********')" in repr(settings)


# --- .env.example documents every variable --------------------------------------------------


def documented() -> list[str]:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return [
        match.group(1)
        for line in text.splitlines()
        if (match := re.match(r"\s*([A-Z][A-Z0-9_]*)\s*=", line))
    ]


def read_in_source() -> set[str]:
    source = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    names = set(re.findall(r"""env\.get\(\s*["']([A-Z][A-Z0-9_]*)["']""", source))
    # the Discord ids are read by a helper that is handed the variable's name
    names |= set(re.findall(r"""_snowflake\(\s*env,\s*["']([A-Z][A-Z0-9_]*)["']""", source))
    names |= set(re.findall(r"""_whole\(\s*env,\s*["']([A-Z][A-Z0-9_]*)["']""", source))
    return names


class Recording(dict[str, str]):
    """An environment that remembers every name asked for."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.asked: set[str] = set()

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return super().__getitem__(key)

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("load_settings should ask for names, not list the environment")


def test_env_example_documents_every_variable_load_settings_reads() -> None:
    """Every variable of the process is documented; an older .env's four ids
    (now set in Discord with /setup) are named in a comment only."""
    env = Recording(VALID)
    load_settings(env=env)
    older = {name for name, _ in LEGACY}
    assert env.asked - older == read_in_source()  # the regex sees what the function reads
    names = documented()
    assert len(names) == len(set(names)), "a variable is documented twice"
    assert sorted(set(names)) == sorted(env.asked - older)
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert all(name in text for name in older)


def test_env_example_holds_no_secret_and_no_ids() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    values = dict(line.split("=", 1) for line in text.splitlines() if re.match(r"[A-Z_]+=", line))
    assert values["DISCORD_TOKEN"] == ""
    assert all(not re.fullmatch(r"\d{15,20}", v.strip()) for v in values.values())


def test_settings_are_frozen() -> None:
    settings = load_settings(env=VALID)
    with pytest.raises(AttributeError, match="cannot assign to field"):
        settings.guild_id = 1  # type: ignore[misc]
    assert isinstance(settings, Settings)


# --- start-up with a bad environment ------------------------------------------------------


def start(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    return subprocess.run(
        [sys.executable, "-m", "bot", "run", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_run_with_an_empty_environment_names_the_token_and_exits_2(tmp_path: Path) -> None:
    assert not (tmp_path / ".env").exists()
    done = start(tmp_path)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "DISCORD_TOKEN" in lines[0]
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_run_reads_dotenv_and_names_the_bad_variable(tmp_path: Path) -> None:
    lines = [f"{k}={v}" for k, v in VALID.items()] + ["LOG_LEVEL=LOUD"]
    (tmp_path / ".env").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = start(tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "league-bot: LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'."
    ]
    assert TOKEN not in done.stderr + done.stdout
