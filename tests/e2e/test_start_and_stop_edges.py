"""Starting and stopping at the edges, in the test's own process (bot/lifecycle.py
against the stand-in): the one line each failure of Discord at start-up ends
with, and its exit code; the gateway failing for good while the bot runs; a
real SIGTERM to a running bot letting the answer in flight finish after the
gateway is closed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import pytest
import yarl

from bot.__main__ import run_bot
from bot.client import LeagueBot
from bot.config import Settings
from bot.endpoints import point_at, use_gateway_of
from bot.lifecycle import Patience, StartupError, Stop, log_in, serve
from bot.migrate import migrate
from standin import DiscordStandIn
from standin.gateway import Connection, Gateway
from tests.e2e.harness import TOKEN, World
from tests.e2e.test_start_and_stop import database_whole, held_replies, silent_server

DRAINING = "letting 1 interaction(s) in flight finish (up to 5 s)"


async def started(settings: Settings, *, sync: bool = False) -> LeagueBot:
    await migrate(settings.database_path)
    point_at(settings.api_base or "")
    return LeagueBot(settings, sync_commands=sync)


async def refused_start(bot: LeagueBot, **patience: Any) -> StartupError:
    with pytest.raises(StartupError) as refused:
        async with asyncio.timeout(60):

            async def after_login() -> None:
                await use_gateway_of(bot)

            await serve(bot, TOKEN, stop=Stop(), after_login=after_login,
                        patience=Patience(**patience))  # fmt: skip
    assert bot.is_closed()
    return refused.value


@contextlib.asynccontextmanager
async def in_the_background(work: Any) -> AsyncIterator[asyncio.Task[None]]:
    """`work` as a task, cancelled (and so closed) if the test leaves it running."""
    running: asyncio.Task[None] = asyncio.create_task(work)
    try:
        yield running
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


async def refused_login(bot: LeagueBot, token: str = TOKEN) -> StartupError:
    """The StartupError `log_in` ends with; the bot closed whatever happens."""
    try:
        with pytest.raises(StartupError) as refused:
            await log_in(bot, token, Patience())
    finally:
        await bot.close()
    return refused.value


def gateway_closes_at_identify(monkeypatch: pytest.MonkeyPatch, code: int, reason: str) -> None:
    """Discord's gateway answers the IDENTIFY by closing with `code`."""

    async def refuse(self: Gateway, connection: Connection, data: dict[str, Any]) -> None:
        await connection.close(code, reason)

    monkeypatch.setattr(Gateway, "_identify", refuse)


async def test_a_token_the_gateway_refuses_is_one_line_and_exit_2(
    standin: DiscordStandIn, settings: Settings
) -> None:
    bot = await started(settings)

    async def after_login() -> None:
        await use_gateway_of(bot)
        standin.token = "reset-in-the-portal.0123456789abcdefghij"  # REST took the old one

    with pytest.raises(StartupError) as refused:
        async with asyncio.timeout(60):
            await serve(bot, TOKEN, stop=Stop(), after_login=after_login)
    assert str(refused.value) == (
        "DISCORD_TOKEN was refused by Discord's gateway (4004): copy the token again"
    )
    assert refused.value.exit_code == 2
    assert bot.is_closed()


async def test_privileged_intents_refused_by_the_gateway_is_one_line_and_exit_2(
    standin: DiscordStandIn, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    gateway_closes_at_identify(monkeypatch, 4014, "Disallowed intent(s).")
    error = await refused_start(await started(settings))
    assert str(error) == "Discord refused the gateway intents the bot asked for"
    assert error.exit_code == 2


async def test_another_gateway_refusal_is_one_line_naming_its_code_and_exit_1(
    standin: DiscordStandIn, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    gateway_closes_at_identify(monkeypatch, 4013, "Invalid intent(s).")
    error = await refused_start(await started(settings))
    assert str(error) == (
        "the connection to Discord's gateway failed (the gateway closed the connection (code 4013))"
    )
    assert error.exit_code == 1


async def test_a_gateway_that_never_gets_the_bot_ready_says_what_to_check(
    standin: DiscordStandIn, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with silent_server() as port:
        silent = f"ws://127.0.0.1:{port}/gateway"
        monkeypatch.setattr(DiscordStandIn, "gateway_url", property(lambda self: silent))
        error = await refused_start(await started(settings), ready=0.5)
    assert str(error) == (
        "Discord's gateway did not get the bot ready within 0.5 s: "
        "check the network, then start again"
    )
    assert error.exit_code == 1
    database_whole(settings.database_path)


async def test_the_gateway_failing_for_good_while_running_stops_the_bot_with_one_line(
    standin: DiscordStandIn, settings: Settings
) -> None:
    """After READY and the start-up checks the bot runs until a stop; a gateway
    that then ends the session for good (the token reset in the portal) ends
    the run with the same one line as at start-up."""
    bot = await started(settings)
    checked = asyncio.Event()

    async def at_ready() -> None:
        checked.set()

    async def after_login() -> None:
        await use_gateway_of(bot)

    async with in_the_background(
        serve(
            bot,
            TOKEN,
            stop=Stop(),
            at_ready=at_ready,
            after_login=after_login,
            patience=Patience(ready=300),
        )
    ) as running:
        async with asyncio.timeout(60):  # READY comes at once; the bound is 300 s
            await checked.wait()
        assert not running.done()
        for connection in list(standin.gateway.connections):
            await connection.close(4004, "Authentication failed.")
        with pytest.raises(StartupError) as refused:
            async with asyncio.timeout(60):
                await running
        assert str(refused.value) == (
            "DISCORD_TOKEN was refused by Discord's gateway (4004): copy the token again"
        )
        assert bot.is_closed()


@contextlib.asynccontextmanager
async def gateway_through_a_flaky_network(
    standin: DiscordStandIn, monkeypatch: pytest.MonkeyPatch, *, cut: set[int]
) -> AsyncIterator[None]:
    """The stand-in's gateway behind a relay that cuts the connections numbered
    in `cut` at once (a network down for a moment) and passes the others."""
    target = yarl.URL(standin.gateway_url)
    opened = 0

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal opened
        opened += 1
        if opened in cut:
            writer.close()
            return
        upstream = await asyncio.open_connection(target.host, target.port)
        await asyncio.gather(pipe(reader, upstream[1]), pipe(upstream[0], writer))

    server = await asyncio.start_server(relay, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    relayed = str(target.with_port(port))
    monkeypatch.setattr(DiscordStandIn, "gateway_url", property(lambda self: relayed))
    try:
        yield
    finally:
        server.close()


async def test_a_gateway_unreachable_for_a_moment_is_reconnected_to(
    standin: DiscordStandIn, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gateway connection drops and the first try to resume finds no
    network (aiohttp's own second try too): the bot tries again after
    discord.py's backoff, resumes and runs on."""
    async with gateway_through_a_flaky_network(standin, monkeypatch, cut={2, 3}):
        bot = await started(settings)
        stop = Stop()
        checked = asyncio.Event()

        async def at_ready() -> None:
            checked.set()

        async def after_login() -> None:
            await use_gateway_of(bot)

        async with in_the_background(
            serve(bot, TOKEN, stop=stop, at_ready=at_ready, after_login=after_login)
        ) as running:
            async with asyncio.timeout(30):
                await checked.wait()
            await standin.drop_gateway(resumable=True)
            async with asyncio.timeout(30):
                while standin.gateway.resumes == 0:
                    assert not running.done(), running.exception()
                    await asyncio.sleep(0.05)
            await standin.wait_until_connected()
            assert not running.done()
            stop.request("SIGTERM")
            async with asyncio.timeout(30):
                await running
    assert bot.is_closed()


async def test_a_refused_token_at_login_is_one_line_and_exit_2(
    standin: DiscordStandIn, settings: Settings
) -> None:
    error = await refused_login(await started(settings), "not-the-token.0123456789abcdefghijklmn")
    assert str(error) == (
        "DISCORD_TOKEN was refused by Discord (401): copy the bot's token again from the "
        "developer portal"
    )
    assert error.exit_code == 2


async def test_a_rate_limit_ban_at_login_is_one_line(
    standin: DiscordStandIn, settings: Settings
) -> None:
    standin.fail_next("GET /users/@me", status=429, retry_after=30)
    error = await refused_login(await started(settings))
    assert str(error).startswith(
        "Discord refused the start-up: HTTPException: 429 Too Many Requests"
    )
    assert error.exit_code == 1


async def test_discord_failing_while_the_commands_are_registered_is_one_line_exit_1(
    standin: DiscordStandIn, settings: Settings
) -> None:
    """Once the bot has begun setting up (its application known, the database
    open), a login cannot be tried again cleanly: one line, exit 1, restart."""
    # (a .env-named server's own command copies are cleared first: that may fail too)
    standin.fail_next("PUT /applications/*/commands", status=503, times=2)
    error = await refused_login(await started(settings, sync=True))
    assert str(error).startswith(
        "Discord failed while the bot was starting (DiscordServerError: 503 Service Unavailable"
    )
    assert error.exit_code == 1


async def logged(caplog: pytest.LogCaptureFixture, line: str, running: asyncio.Task[None]) -> None:
    """Until the bot has logged `line` (it must not have ended before)."""
    async with asyncio.timeout(30):
        while not any(line in message for message in caplog.messages):
            assert not running.done(), caplog.text
            await asyncio.sleep(0.05)


async def test_sigterm_lets_the_answer_in_flight_finish_then_returns(
    standin: DiscordStandIn,
    world: World,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    async with in_the_background(run_bot(settings, sync=True)) as running:
        await logged(caplog, "start-up checks passed", running)
        with held_replies(monkeypatch) as (arrived, release):
            exchange = await standin.invoke(
                world.commissioner, "league season setup", {"name": "Koi's League"},
                channel_id=world.general,
            )  # fmt: skip
            async with asyncio.timeout(10):
                await arrived.wait()  # deferred, its answer on the way
            os.kill(os.getpid(), signal.SIGTERM)
            await logged(caplog, DRAINING, running)
            assert not running.done()
            release.set()
            async with asyncio.timeout(30):
                await running
        await exchange.done(timeout=5)
        assert exchange.content == "League Koi's League is set up (America/New_York)."
        assert "SIGTERM: stopping" in caplog.messages
        database_whole(settings.database_path)
        with contextlib.closing(sqlite3.connect(settings.database_path)) as conn:
            assert conn.execute("SELECT name FROM leagues").fetchall() == [("Koi's League",)]


async def test_after_sigterm_no_new_command_is_read_and_a_stuck_answer_is_given_up(
    standin: DiscordStandIn,
    world: World,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The stop stops reading the gateway before it waits for the work in
    flight: a command sent meanwhile is never taken up (Discord tells the
    member the bot did not respond), and an answer still stuck after 5 s is
    given up so the bot does stop."""
    caplog.set_level(logging.INFO)
    async with in_the_background(run_bot(settings, sync=True)) as running:
        await logged(caplog, "start-up checks passed", running)
        with held_replies(monkeypatch) as (arrived, _release):
            await standin.invoke(
                world.commissioner, "league season setup", {"name": "Koi's League"},
                channel_id=world.general,
            )  # fmt: skip
            async with asyncio.timeout(10):
                await arrived.wait()
            os.kill(os.getpid(), signal.SIGTERM)
            await logged(caplog, DRAINING, running)
            late = await standin.invoke(
                world.commissioner, "league season setup", {"name": "Another League"},
                channel_id=world.general,
            )  # fmt: skip
            async with asyncio.timeout(30):
                await running  # the held answer is never released
        assert "1 interaction(s) still running after 5 s; stopping anyway" in caplog.messages
        assert not late.acknowledged
        assert not standin.gateway.connected
        database_whole(settings.database_path)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_to_the_idle_bot_stops_it_cleanly(
    standin: DiscordStandIn,
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    sig: signal.Signals,
) -> None:
    caplog.set_level(logging.INFO)
    async with in_the_background(run_bot(settings, sync=False)) as running:
        await logged(caplog, "start-up checks passed", running)
        os.kill(os.getpid(), sig)
        async with asyncio.timeout(30):
            await running
        assert f"{sig.name}: stopping" in caplog.messages
        assert not standin.gateway.connected
        database_whole(settings.database_path)
        # The handlers are gone with the bot: the loop no longer answers the signal.
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
