"""The bot's start-up and shut-down, without a network: setup_hook and close()."""

from __future__ import annotations

import logging
from pathlib import Path
from zoneinfo import ZoneInfo

import discord
import pytest

import bot.client as client_module
from bot.client import LeagueBot
from bot.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]
# Every module of cogs/ (a feature's package included) with a setup() is an
# extension the bot finds and loads.
EXTENSIONS = {
    ".".join(p.relative_to(ROOT).with_suffix("").parts)
    for p in (ROOT / "cogs").rglob("*.py")
    if "\nasync def setup(" in p.read_text(encoding="utf-8")
}


def commands_of(bot: LeagueBot) -> set[str]:
    """The top-level slash commands the loaded cogs define (a group cog's: its group)."""
    names = set()
    for cog in bot.cogs.values():
        group = getattr(cog, "__cog_app_commands_group__", None)
        names |= {group.name} if group is not None else {c.name for c in cog.get_app_commands()}
    return names


GUILD = 111111111111111111


def settings(tmp_path: Path) -> Settings:
    return load_settings(
        env={
            "DISCORD_TOKEN": "x" * 59,
            "LEAGUE_GUILD_ID": "111111111111111111",
            "COMMISSIONER_ROLE_ID": "222222222222222222",
            "ANNOUNCEMENT_CHANNEL_ID": "333333333333333333",
            "APPROVALS_CHANNEL_ID": "444444444444444444",
            "DATABASE_PATH": str(tmp_path / "league.sqlite3"),
        }
    )


async def test_setup_hook_opens_the_database_loads_cogs_and_buttons(tmp_path: Path) -> None:
    bot = LeagueBot(settings(tmp_path))
    synced: list[object] = []

    async def no_sync(**kwargs: object) -> list[object]:
        synced.append(kwargs)
        return []

    bot.tree.sync = no_sync  # type: ignore[method-assign]
    try:
        await bot.setup_hook()
        assert set(bot.extensions) == EXTENSIONS and "cogs.scores.scores_cog" in EXTENSIONS
        names = {c.name for c in bot.tree.get_commands()}
        assert names == commands_of(bot) and {"score", "league", "rules"} <= names
        assert all(c.guild_only for c in bot.tree.get_commands())
        assert bot.failed_cogs == []
        assert synced == []  # commands are synced only on request (--sync or /league admin sync)
        assert bot.scheduler_of(GUILD) is not None and bot.schedulers[GUILD].scheduler.running
        async with bot.db.read() as conn, conn.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone())[0] >= 1
        # The approval buttons are registered to survive a restart.
        assert any("score" in p.pattern for p in bot._connection._view_store._dynamic_items)
    finally:
        await bot.close()
    assert bot.schedulers[GUILD] is not None and not bot.schedulers[GUILD].scheduler.running
    with pytest.raises(RuntimeError, match="not open"):
        _ = bot.db


async def test_one_broken_cog_is_logged_and_the_others_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    found = client_module.extensions()
    monkeypatch.setattr(client_module, "extensions", lambda: ["cogs.does_not_exist", *found])
    bot = LeagueBot(settings(tmp_path))
    try:
        with caplog.at_level(logging.ERROR, logger="bot.client"):
            await bot.setup_hook()
        assert bot.failed_cogs == ["cogs.does_not_exist"]
        assert "cog cogs.does_not_exist failed to load" in caplog.text
        assert {c.name for c in bot.tree.get_commands()} == commands_of(bot)
        assert set(bot.extensions) == EXTENSIONS
    finally:
        await bot.close()


def test_only_the_guilds_intent_and_no_mentions(tmp_path: Path) -> None:
    bot = LeagueBot(settings(tmp_path))
    # Everything arrives as interactions: no server messages, members or presences to parse.
    assert bot.intents == discord.Intents(guilds=True)
    assert not (bot.intents.guild_messages or bot.intents.members or bot.intents.presences)
    mentions = bot.allowed_mentions
    assert mentions is not None
    assert (mentions.everyone, mentions.users, mentions.roles) == (False, False, False)


def test_the_token_is_never_in_the_settings_repr(tmp_path: Path) -> None:
    shown = repr(settings(tmp_path))
    assert "x" * 20 not in shown and "**********" in shown


async def test_the_schedule_is_rebuilt_after_a_schedule_command(tmp_path: Path) -> None:
    from datetime import UTC, date, datetime, time

    from bot.services import setup
    from tests.cogs.fakes import COMMISSIONER_ROLE, FakeInteraction, FakeMember, FakeRole

    bot = LeagueBot(settings(tmp_path))
    now = datetime(2026, 3, 1, 15, tzinfo=UTC)
    try:
        await bot.setup_hook()
        assert (
            bot.scheduler_of(GUILD) is not None and bot.schedulers[GUILD].jobs() == {}
        )  # no season yet
        guild = bot.settings.guild_id
        await setup.create_league(bot.db, guild, "League", now=now)
        await setup.start_season(bot.db, guild, "Spring", date(2026, 3, 4), now=now)
        await setup.set_league_time(bot.db, guild, "groupings_time", time(11, 30))

        [command] = [c for c in bot.tree.walk_commands()
                     if c.qualified_name == "league season time"]  # fmt: skip
        koi = FakeInteraction(bot, FakeMember(2, "Koi", [FakeRole(COMMISSIONER_ROLE)]), now)  # type: ignore[arg-type]
        await koi.response.defer(ephemeral=True)
        await bot.on_app_command_completion(koi, command)  # type: ignore[arg-type]
        job = bot.schedulers[GUILD].jobs()["post:groupings"]
        fire = job.trigger.get_next_fire_time(None, now)  # type: ignore[attr-defined]
        local = fire.astimezone(ZoneInfo("America/New_York"))
        assert local.strftime("%A %H:%M") == "Wednesday 11:30"
    finally:
        await bot.close()
