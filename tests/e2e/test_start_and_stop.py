"""The real `league-bot` process starting and stopping (bot/lifecycle.py).

SIGTERM and SIGINT stop it cleanly (exit 0, an interaction in flight still
answered, the database whole with its WAL checkpointed); a refused token, a
server the bot is not in and an unreachable Discord each end it with one line
and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl
from aiohttp import web

from bot.client import LeagueBot
from bot.config import Settings
from bot.endpoints import point_at
from bot.lifecycle import Patience, StartupError, Stop, bound_requests, log_in, serve
from bot.migrate import load_migrations, migrate
from bot.stage import running_bot
from standin import DiscordStandIn
from standin.rest import Rest
from tests.e2e.harness import TOKEN, World
from tests.e2e.process import environment, league_bot

READY = "start-up checks passed"
LATEST = load_migrations()[-1].version


def one_line_ending(log: str) -> str:
    """The last line, after checking the log has no traceback."""
    assert "Traceback" not in log, log
    return log.strip().splitlines()[-1]


def database_whole(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed at close


@contextlib.contextmanager
def held_replies(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The stand-in holds each answer to a deferred interaction (the deferral
    filled in, or a followup: a webhook request) until released."""
    arrived, release = asyncio.Event(), asyncio.Event()
    original = Rest._read_body  # looked up per request (routes are bound at start)

    async def held(self: Rest, request: web.Request) -> Any:
        if "/webhooks/" in request.path:
            arrived.set()
            await release.wait()
        return await original(self, request)

    monkeypatch.setattr(Rest, "_read_body", held)
    try:
        yield arrived, release
    finally:
        release.set()


async def test_sigterm_lets_a_reply_in_flight_finish_and_exits_0(
    standin: DiscordStandIn,
    world: World,
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with league_bot("run", "--sync", env=environment(settings), cwd=tmp_path) as bot:
        await bot.wait_for_line(READY)
        with held_replies(monkeypatch) as (arrived, release):
            exchange = await standin.invoke(
                world.commissioner, "league season setup", {"name": "Koi's League"},
                channel_id=world.general,
            )  # fmt: skip
            try:
                await asyncio.wait_for(arrived.wait(), 10)  # deferred, its answer on the way
            except TimeoutError:
                raise AssertionError(f"no answer on its way:\n{bot.log}") from None
            bot.signal(signal.SIGTERM)
            await bot.wait_for_line("SIGTERM: stopping")
            await asyncio.sleep(0.5)  # the bot waits for the held answer meanwhile
            release.set()
            code = await bot.exit_code(timeout=30)
    assert code == 0, bot.log
    await exchange.done(timeout=5)
    assert exchange.content == "League Koi's League is set up (America/New_York)."
    assert "letting 1 interaction(s) in flight finish" in bot.log
    assert "Traceback" not in bot.log, bot.log
    database_whole(settings.database_path)
    with contextlib.closing(sqlite3.connect(settings.database_path)) as conn:
        assert conn.execute("SELECT name FROM leagues").fetchall() == [("Koi's League",)]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_stops_the_idle_bot_with_exit_0_within_10_s(
    standin: DiscordStandIn, settings: Settings, tmp_path: Path, sig: signal.Signals
) -> None:
    async with league_bot("run", env=environment(settings), cwd=tmp_path) as bot:
        await bot.wait_for_line(READY)
        bot.signal(sig)
        code = await bot.exit_code(timeout=10)  # Docker's 10 s, as a timeout
    assert code == 0, bot.log
    assert f"{sig.name}: stopping" in bot.log and "bot.client: closed" in bot.log
    assert "Traceback" not in bot.log
    database_whole(settings.database_path)
    assert not standin.gateway.connected  # it closed its gateway connection


async def test_a_second_bot_on_the_same_database_stops_before_it_logs_in_with_exit_2(
    standin: DiscordStandIn, settings: Settings, tmp_path: Path
) -> None:
    """Two `league-bot run` on one database would both answer every interaction:
    the second stops with one line and exit 2, before any request to Discord."""
    env = environment(settings)
    async with league_bot("run", env=env, cwd=tmp_path) as first:
        await first.wait_for_line(READY)
        asked = len(standin.requests)
        async with league_bot("run", env=env, cwd=tmp_path) as second:
            code = await second.exit_code(timeout=30)
        assert code == 2, second.log
        assert second.stderr == [
            f"league-bot: another league-bot (process {first.process.pid}) is already running "
            f"on {settings.database_path}; one bot per database: stop the other first"
        ]
        assert len(standin.requests) == asked  # it never logged in
        first.signal(signal.SIGTERM)
        assert await first.exit_code(timeout=10) == 0, first.log
    async with league_bot("run", env=env, cwd=tmp_path) as again:  # the first's lock is gone
        await again.wait_for_line(READY)


async def test_a_refused_token_is_one_line_and_exit_2(
    standin: DiscordStandIn, settings: Settings, tmp_path: Path
) -> None:
    env = environment(settings, DISCORD_TOKEN="not-the-token.0123456789abcdefghijklmn")
    async with league_bot("run", env=env, cwd=tmp_path) as bot:
        code = await bot.exit_code()
    assert code == 2
    assert one_line_ending(bot.log) == (
        "league-bot: DISCORD_TOKEN was refused by Discord (401): copy the bot's token again "
        "from the developer portal"
    )
    assert [(r.path, r.status) for r in standin.rejected] == [("/api/v10/users/@me", 401)]


@pytest.mark.parametrize("args", [("run",), ("run", "--sync")], ids=["run", "run --sync"])
async def test_a_server_the_bot_is_not_in_stops_it_with_one_line_and_exit_2(
    standin: DiscordStandIn, settings: Settings, tmp_path: Path, args: tuple[str, ...]
) -> None:
    env = environment(settings, LEAGUE_GUILD_ID="123456789012345678")
    async with league_bot(*args, env=env, cwd=tmp_path) as bot:
        code = await bot.exit_code()
    assert code == 2
    last = one_line_ending(bot.log)
    assert last.startswith("league-bot: LEAGUE_GUILD_ID ") and "not in" in last
    assert "ERROR" not in bot.log  # the one line is the whole story
    database_whole(settings.database_path)


async def test_an_unreachable_discord_is_retried_then_one_line_and_exit_1(
    settings: Settings, tmp_path: Path
) -> None:
    env = environment(settings, DISCORD_API_BASE="http://127.0.0.1:9/api/v10")  # closed port
    async with league_bot("run", env=env, cwd=tmp_path) as bot:
        code = await bot.exit_code(timeout=90)
    assert code == 1
    attempts = [line for line in bot.stderr if "could not be reached at 127.0.0.1:9" in line]
    assert [line.split("(attempt ")[1][:6] for line in attempts[:-1]] == [
        "1 of 5", "2 of 5", "3 of 5", "4 of 5",
    ]  # fmt: skip
    assert one_line_ending(bot.log).startswith(
        "league-bot: Discord could not be reached at 127.0.0.1:9 after 5 attempts"
    )


async def test_check_prints_one_line_per_setting_and_exits_0(
    standin: DiscordStandIn, world: World, settings: Settings, tmp_path: Path
) -> None:
    async with running_bot(settings, standin=standin):  # run once: the database, the commands
        pass
    before = standin.gateway.identifies
    async with league_bot("check", env=environment(settings), cwd=tmp_path) as bot:
        code = await bot.exit_code()
    assert code == 0, bot.log
    assert bot.stdout == [
        f"DATABASE_PATH {settings.database_path}: ok (schema version {LATEST})",
        f"commands: {len(standin.registered_commands())} registered",
        f"LEAGUE_GUILD_ID {world.guild}: ok (Koi's Pinball)",
        f"ANNOUNCEMENT_CHANNEL_ID {world.announcements}: ok (#league-announcements)",
        f"APPROVALS_CHANNEL_ID {world.approvals}: ok (#score-approvals)",
        f"COMMISSIONER_ROLE_ID {world.commissioner_role}: ok (@Commissioner)",
        "all checks passed",
    ]
    assert standin.gateway.identifies == before  # REST only: a running bot's session untouched
    assert "voice" not in bot.log  # discord.py's warnings of voice the bot never uses


async def test_check_names_each_problem_and_exits_1(
    standin: DiscordStandIn, world: World, settings: Settings, tmp_path: Path
) -> None:
    env = environment(settings, APPROVALS_CHANNEL_ID="999999999999999999")
    async with league_bot("check", env=env, cwd=tmp_path) as bot:
        code = await bot.exit_code()
    assert code == 1
    assert (
        "APPROVALS_CHANNEL_ID 999999999999999999: there is no such channel in Koi's Pinball"
        in bot.stdout
    )
    assert bot.stdout[:2] == [
        f"DATABASE_PATH {settings.database_path}: there is no database (league-bot run makes one)",
        "commands: none registered; run league-bot run --sync once",
    ]  # the bot never ran here
    assert bot.stdout[-1] == "3 of 6 checks failed"
    assert not settings.database_path.exists()  # the check makes nothing
    assert "Traceback" not in bot.log


async def test_check_with_a_refused_token_exits_1(
    standin: DiscordStandIn, settings: Settings, tmp_path: Path
) -> None:
    env = environment(settings, DISCORD_TOKEN="not-the-token.0123456789abcdefghijklmn")
    async with league_bot("check", env=env, cwd=tmp_path) as bot:
        code = await bot.exit_code()
    assert code == 1
    assert bot.stdout == [
        "DISCORD_TOKEN was refused by Discord (401): copy the bot's token again from the "
        "developer portal"
    ]
    assert "Traceback" not in bot.log


@contextlib.asynccontextmanager
async def silent_server() -> AsyncIterator[int]:
    """A port that accepts connections and never answers; yields the port."""
    held: list[asyncio.StreamWriter] = []

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        for writer in held:
            writer.close()
        server.close()
        await server.wait_closed()


async def test_a_rest_api_that_never_answers_fails_in_seconds_not_minutes() -> None:
    async with silent_server() as port:
        point_at(f"http://127.0.0.1:{port}/api/v10")
        client = discord.Client(intents=discord.Intents(guilds=True))
        patience = Patience(attempts=2, first_delay=0.1, connect=1, read=1)
        bound_requests(client.http, patience.timeout())
        async with client:
            with pytest.raises(StartupError, match=r"after 2 attempts \(\w*TimeoutError"):
                async with asyncio.timeout(30):  # aiohttp's default would wait 300 s each
                    await log_in(client, TOKEN, patience)


async def test_a_gateway_that_never_answers_is_given_up_on_within_the_bound(
    standin: DiscordStandIn, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with silent_server() as port:
        silent = f"ws://127.0.0.1:{port}/gateway"
        point_at(standin.api_base)
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(silent)
        monkeypatch.setattr(DiscordStandIn, "gateway_url", property(lambda self: silent))
        await migrate(settings.database_path)
        bot = LeagueBot(settings)
        with pytest.raises(StartupError, match="did not get the bot ready within 2 s"):
            async with asyncio.timeout(30):  # discord.py alone waits 60 s, then retries forever
                await serve(bot, TOKEN, stop=Stop(), patience=Patience(ready=2))
        assert bot.is_closed()
    database_whole(settings.database_path)
