"""bot/lifecycle.py without a network: one-line logs, the timeouts' defaults."""

from __future__ import annotations

import logging
import sys

import aiohttp
import pytest

from bot.lifecycle import OneLineNetworkErrors, Patience, describe

FORMAT = logging.Formatter("%(levelname)s %(name)s: %(message)s")


def formatted(logger: str, error: BaseException) -> str:
    try:
        raise error
    except BaseException:
        record = logging.LogRecord(
            logger, logging.ERROR, __file__, 1, "Attempting a reconnect in %.2fs", (1.5,),
            sys.exc_info(),
        )  # fmt: skip
    OneLineNetworkErrors().filter(record)
    return FORMAT.format(record)


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (OSError(111, "Connect call failed"),
         "(ConnectionRefusedError: [Errno 111] Connect call failed)"),
        (aiohttp.ServerTimeoutError("Timeout on reading data from socket"),
         "(ServerTimeoutError: Timeout on reading data from socket)"),
        (TimeoutError(), "(no answer in time)"),
    ],
    ids=["refused", "read timeout", "bare timeout"],
)  # fmt: skip
def test_discords_reconnect_traceback_becomes_one_line(error: BaseException, shown: str) -> None:
    line = formatted("discord.client", error)
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith("ERROR discord.client: Attempting a reconnect in 1.50s")
    assert line.endswith(shown)


def test_other_tracebacks_are_kept() -> None:
    assert "Traceback" in formatted("bot.client", OSError(5, "I/O error"))
    assert "Traceback" in formatted("discord.client", ValueError("a bug"))


def test_describe_names_the_error_in_a_few_words() -> None:
    assert describe(TimeoutError()) == "no answer in time"
    assert describe(ConnectionResetError("reset")) == "ConnectionResetError: reset"


def test_the_defaults_wait_seconds_not_minutes() -> None:
    patience = Patience()
    timeout = patience.timeout()
    assert timeout.sock_connect is not None and timeout.sock_connect <= 30
    assert timeout.sock_read is not None and timeout.sock_read <= 30
    assert patience.ready <= 60 and patience.drain < 10
    # The login is tried a bounded number of times: 1 + 2 + 4 + 8 s between them.
    assert patience.attempts == 5 and patience.first_delay == 1.0
