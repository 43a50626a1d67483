"""Settings at their edges: the shortest and longest ids and tokens taken, each
refusal's exact words as the operator reads them, and `.env` read from where the
bot starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from tests.test_config import TOKEN, VALID

IDS = {
    "LEAGUE_GUILD_ID": "Discord server (guild) id",
    "COMMISSIONER_ROLE_ID": "commissioner role id",
    "ANNOUNCEMENT_CHANNEL_ID": "announcement channel id",
    "APPROVALS_CHANNEL_ID": "approvals channel id",
}


def refusal(env: dict[str, str]) -> str:
    with pytest.raises(ConfigError) as caught:
        load_settings(env=env)
    return str(caught.value)


def test_ids_of_15_and_of_20_digits_are_taken() -> None:
    """Discord's ids are 17 to 19 digits today; 15 to 20 are let through."""
    settings = load_settings(
        env={**VALID, "LEAGUE_GUILD_ID": "1" * 15, "APPROVALS_CHANNEL_ID": "9" * 20}
    )
    assert settings.guild_id == int("1" * 15)
    assert settings.approvals_channel_id == int("9" * 20)


def test_an_id_of_14_digits_is_refused() -> None:
    assert refusal({**VALID, "COMMISSIONER_ROLE_ID": "2" * 14}).startswith(
        "COMMISSIONER_ROLE_ID must be"
    )


@pytest.mark.parametrize("name", list(IDS))
def test_a_missing_id_says_which_id_to_put_in_dotenv(name: str) -> None:
    env = {k: v for k, v in VALID.items() if k != name}
    assert refusal(env) == f"{name} is not set: put the {IDS[name]} in .env (see .env.example)."


@pytest.mark.parametrize("name", list(IDS))
def test_a_malformed_id_says_what_it_must_be_and_where_to_copy_it(name: str) -> None:
    assert refusal({**VALID, name: "#league"}) == (
        f"{name} must be the {IDS[name]}, a number of 15 to 20 digits "
        "(Discord: Developer Mode, right-click, Copy ID)."
    )


def test_a_token_of_20_characters_is_taken() -> None:
    assert load_settings(env={**VALID, "DISCORD_TOKEN": "t" * 20}).token.reveal() == "t" * 20


def test_a_token_of_19_characters_is_refused() -> None:
    assert refusal({**VALID, "DISCORD_TOKEN": "t" * 19}) == (
        "DISCORD_TOKEN does not look like a bot token; copy it again."
    )


def test_a_missing_token_says_where_to_find_it() -> None:
    env = {k: v for k, v in VALID.items() if k != "DISCORD_TOKEN"}
    assert refusal(env) == (
        "DISCORD_TOKEN is not set: copy the bot token from the Discord developer portal "
        "into .env (see .env.example)."
    )


def test_a_wrong_log_level_lists_the_four_it_may_be() -> None:
    assert refusal({**VALID, "LOG_LEVEL": "loud"}) == (
        "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'."
    )


def test_an_https_api_base_is_taken_and_a_bare_host_refused_with_an_example() -> None:
    https = "https://discord.example/api/v10"
    assert load_settings(env={**VALID, "DISCORD_API_BASE": https}).api_base == https
    assert refusal({**VALID, "DISCORD_API_BASE": "discord.example"}) == (
        "DISCORD_API_BASE must be a URL like http://127.0.0.1:8080/api/v10."
    )


def write_env(path: Path, values: dict[str, str]) -> None:
    path.write_text("".join(f"{k}={v}\n" for k, v in values.items()), encoding="utf-8")


@pytest.fixture
def bare_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The process environment without any of the bot's settings, started in tmp_path."""
    for name in [*VALID, "LEAGUE_TIME_ZONE", "LOG_LEVEL", "DATABASE_PATH", "BACKUP_DIR",
                 "DISCORD_API_BASE"]:  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_dotenv_in_the_folder_the_bot_starts_in_is_read(bare_environment: Path) -> None:
    write_env(bare_environment / ".env", {**VALID, "LOG_LEVEL": "warning"})
    settings = load_settings()
    assert settings.token.reveal() == TOKEN
    assert settings.guild_id == int(VALID["LEAGUE_GUILD_ID"])
    assert settings.log_level == "WARNING"


def test_the_process_environment_wins_over_dotenv(
    bare_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_env(bare_environment / ".env", {**VALID, "LOG_LEVEL": "warning"})
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    assert load_settings().log_level == "ERROR"


def test_a_named_env_file_is_read_and_no_other(bare_environment: Path) -> None:
    """`league-bot run --env-file league.env`: that file, not the `.env` beside it."""
    write_env(bare_environment / ".env", {**VALID, "LOG_LEVEL": "warning"})
    write_env(bare_environment / "league.env", {**VALID, "LOG_LEVEL": "debug"})
    assert load_settings(env_file="league.env").log_level == "DEBUG"
    assert load_settings(env_file=str(bare_environment / "league.env")).log_level == "DEBUG"


def test_with_no_env_file_the_process_environment_alone_is_read(
    bare_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in VALID.items():
        monkeypatch.setenv(name, value)
    settings = load_settings(env_file="absent.env")
    assert settings.token.reveal() == TOKEN
    assert settings.log_level == "INFO"
