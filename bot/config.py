"""The bot's settings: read once from the environment and `.env`, checked, frozen.

`.env.example` documents every variable. A missing or malformed one stops the
bot at start with one line naming it and saying how to fix it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dotenv import dotenv_values

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """A setting is missing or malformed; the message names it and the fix."""


class Secret:
    """A value that never shows itself in logs, reprs or tracebacks."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__


@dataclass(frozen=True)
class Settings:
    """The process's settings. A league's places in Discord are set in Discord
    (/setup, kept in the database); the four ids below come only from an older
    `.env`, and are moved into the database once (`bot.checks.legacy_setup`)."""

    token: Secret
    guild_id: int | None
    commissioner_role_id: int | None
    announcement_channel_id: int | None
    approvals_channel_id: int | None
    database_path: Path
    time_zone: str
    log_level: str
    api_base: str | None  # DISCORD_API_BASE: a Discord stand-in (tests, the demo)
    backup_dir: Path
    backup_hour: int = 4  # BACKUP_HOUR: the daily backup's hour, in LEAGUE_TIME_ZONE
    backup_keep: int = 14  # BACKUP_KEEP: daily backups kept (0: no daily backup)


LEGACY = (
    ("LEAGUE_GUILD_ID", "Discord server (guild) id"),
    ("ANNOUNCEMENT_CHANNEL_ID", "announcement channel id"),
    ("APPROVALS_CHANNEL_ID", "approvals channel id"),
    ("COMMISSIONER_ROLE_ID", "commissioner role id"),
)


def _snowflake(env: Mapping[str, str | None], name: str, what: str) -> int:
    raw = (env.get(name) or "").strip()
    if not raw:
        raise ConfigError(f"{name} is not set: put the {what} in .env (see .env.example).")
    if not (raw.isascii() and raw.isdigit()) or not 15 <= len(raw) <= 20:  # not "²", "４"
        raise ConfigError(
            f"{name} must be the {what}, a number of 15 to 20 digits "
            "(Discord: Developer Mode, right-click, Copy ID)."
        )
    return int(raw)


def _place(path: Path, folder: Path | None, from_environment: bool) -> Path:
    """A relative path from the env file (or its default) is in the env file's
    folder; one the process environment sets otherwise, in the current folder."""
    if folder is None or path.is_absolute() or from_environment:
        return path
    return folder / path


def _whole(env: Mapping[str, str | None], name: str, default: int, low: int, high: int) -> int:
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not {raw!r}.")
    return int(raw)


def load_settings(
    env: Mapping[str, str | None] | None = None,
    env_file: str = ".env",
    *,
    required: bool = False,
) -> Settings:
    """Settings from `env` (the process environment by default) over the env
    file. Relative paths in the env file are taken from the env file's own
    folder, never from the current one. `required`: the env file was named (a
    missing one is an error, not silence)."""
    folder: Path | None = None  # the env file's: its relative paths (and defaults) are there
    own: set[str] = set()  # names set by the process's environment, not by the env file
    if env is None:
        file = Path(env_file)
        if required and not file.is_file():
            raise ConfigError(f"there is no settings file {file.resolve()} (--env-file).")
        from_file: dict[str, str | None] = dict(dotenv_values(file)) if file.is_file() else {}
        # systemd's EnvironmentFile puts the file's own values in the environment too
        own = {k for k, v in os.environ.items() if from_file.get(k) != v}
        env = {**from_file, **os.environ}
        folder = file.resolve().parent if file.is_file() else None
    token = (env.get("DISCORD_TOKEN") or "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: copy the bot token from the Discord developer portal "
            "into .env (see .env.example)."
        )
    if any(c.isspace() for c in token) or len(token) < 20:
        raise ConfigError("DISCORD_TOKEN does not look like a bot token; copy it again.")
    zone = (env.get("LEAGUE_TIME_ZONE") or "America/New_York").strip()
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"LEAGUE_TIME_ZONE {zone!r} is not a time zone; use a name like America/New_York."
        ) from None
    level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
    database = (env.get("DATABASE_PATH") or "league.sqlite3").strip()
    api_base = (env.get("DISCORD_API_BASE") or "").strip() or None
    if api_base is not None and not api_base.startswith(("http://", "https://")):
        raise ConfigError("DISCORD_API_BASE must be a URL like http://127.0.0.1:8080/api/v10.")
    # An older .env names the league's places: all four, or none (set with /setup).
    given = [name for name, _ in LEGACY if (env.get(name) or "").strip()]
    ids: dict[str, int | None] = {name: None for name, _ in LEGACY}
    if given:
        ids = {name: _snowflake(env, name, what) for name, what in LEGACY}
    return Settings(
        token=Secret(token),
        guild_id=ids["LEAGUE_GUILD_ID"],
        commissioner_role_id=ids["COMMISSIONER_ROLE_ID"],
        announcement_channel_id=ids["ANNOUNCEMENT_CHANNEL_ID"],
        approvals_channel_id=ids["APPROVALS_CHANNEL_ID"],
        database_path=_place(Path(database), folder, "DATABASE_PATH" in own),
        time_zone=zone,
        log_level=level,
        api_base=api_base,
        backup_dir=_place(
            Path((env.get("BACKUP_DIR") or "backups").strip()), folder, "BACKUP_DIR" in own
        ),
        backup_hour=_whole(env, "BACKUP_HOUR", 4, 0, 23),
        backup_keep=_whole(env, "BACKUP_KEEP", 14, 0, 3650),
    )
