"""bot/lifecycle.py at its edges, without Discord: the one line an unreachable
Discord ends with (where, how many attempts, what to check), the waits between
attempts, a stop during the login, the drain of interactions in flight at a
stop, and log lines the console filter passes untouched."""

from __future__ import annotations

import asyncio
import logging
import re

import discord
import pytest

from bot.lifecycle import (
    OneLineNetworkErrors,
    Patience,
    StartupError,
    Stop,
    describe,
    drain,
    log_in,
    serve,
)

CLOSED_PORT = "http://127.0.0.1:9/api/v10"  # nothing listens there: each connection is refused


class Unreachable(discord.Client):
    """A client on a network where Discord cannot be reached: each login is refused."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))

    async def login(self, token: str) -> None:
        raise ConnectionRefusedError(111, "Connect call failed")


async def given_up(client: discord.Client, patience: Patience) -> StartupError:
    with pytest.raises(StartupError) as refused:
        await log_in(client, "token", patience)
    return refused.value


async def test_an_unreachable_discord_com_is_named_alone_after_1_attempt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", "https://discord.com/api/v10")
    error = await given_up(Unreachable(), Patience(attempts=1))
    assert str(error) == (
        "Discord could not be reached at discord.com after 1 attempt "
        "(ConnectionRefusedError: [Errno 111] Connect call failed): "
        "check the network, then start again"
    )
    assert error.exit_code == 1


async def test_an_api_base_on_the_default_port_is_named_by_its_host_and_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1/api/v10")
    error = await given_up(Unreachable(), Patience(attempts=2, first_delay=0))
    assert str(error) == (
        "Discord could not be reached at 127.0.0.1 after 2 attempts "
        "(ConnectionRefusedError: [Errno 111] Connect call failed): "
        "check the network and DISCORD_API_BASE, then start again"
    )


async def test_each_failed_login_is_one_warning_and_the_wait_doubles(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", CLOSED_PORT)
    client = discord.Client(intents=discord.Intents(guilds=True))
    with caplog.at_level(logging.WARNING, logger="bot.lifecycle"):
        async with client:
            error = await given_up(client, Patience(attempts=4, first_delay=0.01))
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.lifecycle"]
    assert [re.search(r"\(attempt (\d of \d):", w)[1] for w in warnings] == [
        "1 of 4", "2 of 4", "3 of 4",
    ]  # fmt: skip
    assert [w.rsplit("trying again in ", 1)[1] for w in warnings] == ["0.01 s", "0.02 s", "0.04 s"]
    assert all(w.startswith("Discord could not be reached at 127.0.0.1:9 ") for w in warnings)
    assert str(error).startswith("Discord could not be reached at 127.0.0.1:9 after 4 attempts (")
    assert str(error).endswith("): check the network and DISCORD_API_BASE, then start again")


async def test_a_stop_while_logging_in_ends_the_start_quietly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SIGTERM while the login waits for an unreachable Discord: nothing after
    the login runs, nothing is raised, the client is closed."""
    monkeypatch.setattr(discord.http.Route, "BASE", CLOSED_PORT)
    client = discord.Client(intents=discord.Intents(guilds=True))
    ran: list[str] = []

    async def after_login() -> None:
        ran.append("after login")

    stop = Stop()
    stop.request("SIGTERM")
    async with asyncio.timeout(30):  # the login alone would wait a minute between attempts
        await serve(client, "token", stop=stop, after_login=after_login,
                    patience=Patience(first_delay=60))  # fmt: skip
    assert ran == []
    assert client.is_closed()


def in_flight(name: str, turns: int, done: list[str]) -> asyncio.Task[None]:
    """An interaction's task (named as discord.py names it) that needs a few
    turns of the loop to finish."""

    async def work() -> None:
        for _ in range(turns):
            await asyncio.sleep(0)
        done.append(name)

    return asyncio.create_task(work(), name=name)


async def test_a_stop_lets_an_interaction_in_flight_finish_first() -> None:
    done: list[str] = []
    in_flight("CommandTree-invoker", 3, done)
    await drain(0.5)
    assert done == ["CommandTree-invoker"]


async def test_a_stop_also_waits_for_what_an_interaction_started() -> None:
    """After a command, discord.py's on_app_command_completion runs as a task
    of its own (it posts what the command made owed)."""
    done: list[str] = []

    async def command() -> None:
        await asyncio.sleep(0)
        in_flight("discord.py: on_app_command_completion", 20, done)
        done.append("command")

    invoked = asyncio.create_task(command(), name="CommandTree-invoker")
    await drain(5)
    assert invoked.done()
    assert done == ["command", "discord.py: on_app_command_completion"]


async def test_an_interaction_that_never_finishes_is_given_up_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    stuck = asyncio.create_task(asyncio.Event().wait(), name="discord-ui-view-dispatch-1")
    try:
        with caplog.at_level(logging.INFO, logger="bot.lifecycle"):
            async with asyncio.timeout(30):
                await drain(0.2)
        assert not stuck.done()
        assert "1 interaction(s) still running after 0.2 s; stopping anyway" in caplog.messages
    finally:
        stuck.cancel()


async def test_a_stop_does_not_wait_for_the_bots_own_background_work(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The outbox, the scheduler and the gateway are closed in their turn, not drained."""
    background = asyncio.create_task(asyncio.Event().wait(), name="league-bot-outbox")
    try:
        with caplog.at_level(logging.INFO, logger="bot.lifecycle"):
            await drain(0.2)
        assert caplog.messages == []  # nothing in flight: no waiting, no warning
        assert not background.done()
    finally:
        background.cancel()


def test_an_error_without_text_is_named_by_its_kind_alone() -> None:
    assert describe(ConnectionResetError()) == "ConnectionResetError"


def test_the_console_filter_keeps_every_line_and_shortens_discords_tracebacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(OneLineNetworkErrors())
    logger = logging.getLogger("discord.client")
    monkeypatch.setattr(logger, "level", logging.INFO)
    logger.addHandler(handler)
    try:
        logger.info("logged in using static token")
        logger.error(
            "Attempting a reconnect in %.2fs", 2.5, exc_info=ConnectionResetError("reset by peer")
        )
    finally:
        logger.removeHandler(handler)
    assert lines == [
        "INFO discord.client: logged in using static token",
        "ERROR discord.client: Attempting a reconnect in 2.50s "
        "(ConnectionResetError: reset by peer)",
    ]


def test_a_connection_to_discord_is_bounded_including_its_name_lookup() -> None:
    """aiohttp's `sock_connect` starts after the DNS lookup; `connect` bounds the whole."""
    timeout = Patience().timeout()
    assert timeout.connect == timeout.sock_connect == 10
    assert timeout.sock_read == 20 and timeout.total is None
