"""Clean starts and stops of the bot process.

Start: log in (a network failure is retried with exponential backoff, one log
line per attempt; a refused token is one line and exit 2), connect to the
gateway and wait for READY within a bound, run the start-up checks once
(`bot.checks`; a bot that is not in the league's server stops, exit 2).
Every request to Discord's REST API has connect and read timeouts in seconds.

Stop: SIGTERM or SIGINT stops reading the gateway (no new interactions), lets
the interactions in flight finish for a few seconds, then closes the client,
the scheduler and the database (which checkpoints its WAL) and returns: exit 0.

An expected failure never shows a traceback: `StartupError` carries the one
line `league-bot` prints and its exit code, and `OneLineNetworkErrors` shortens
discord.py's own reconnect logs to one line each.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import discord
import yarl

log = logging.getLogger(__name__)

EXIT_FAILED = 1  # Discord unreachable, the gateway gave up, the database (see __main__)
EXIT_SETTINGS = 2  # a setting must be fixed first: restarting will not help
# A failure worth retrying: no connection, no answer, or Discord's 5xx.
NETWORK_ERRORS = (OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError)
# Tasks discord.py starts for an interaction or an event: the work "in flight" at a stop.
IN_FLIGHT_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: ",
)
T = TypeVar("T")


class StartupError(Exception):
    """The bot cannot start (or go on); the message is the one line to print."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Patience:
    """How long the bot waits for Discord, in seconds."""

    attempts: int = 5  # logins tried on a network failure (waits 1, 2, 4, 8 s between)
    first_delay: float = 1.0
    connect: float = 10.0  # a TCP (and TLS) connection to the REST API
    read: float = 20.0  # an answer to a request, once connected
    ready: float = 30.0  # from opening the gateway to READY (discord.py retries within it)
    drain: float = 5.0  # interactions in flight at a stop
    check: float = 60.0  # the whole of `league-bot check`

    def timeout(self) -> aiohttp.ClientTimeout:
        return aiohttp.ClientTimeout(
            total=None, connect=self.connect, sock_connect=self.connect, sock_read=self.read
        )


def bound_requests(http: discord.http.HTTPClient, timeout: aiohttp.ClientTimeout) -> None:
    """Give every REST request `timeout` (aiohttp's default is 300 s in total),
    so a Discord that accepts connections but never answers fails in seconds."""
    request = http.request

    async def request_with_timeout(route: discord.http.Route, **kwargs: Any) -> Any:
        kwargs.setdefault("timeout", timeout)
        return await request(route, **kwargs)

    http.request = request_with_timeout  # type: ignore[method-assign]  # wraps discord.py's, in place


def describe(error: BaseException) -> str:
    """A network error in a few words."""
    if isinstance(error, discord.ConnectionClosed):
        return f"the gateway closed the connection (code {error.code})"
    text = str(error).strip()
    if isinstance(error, TimeoutError) and not text:
        return "no answer in time"
    name = type(error).__name__
    return f"{name}: {text}" if text else name


def rest_host() -> str:
    url = yarl.URL(discord.http.Route.BASE)
    return f"{url.host}:{url.port}" if url.port not in (None, 80, 443) else str(url.host)


class NoVoiceWarnings(logging.Filter):
    """discord.py warns at every start that voice is not supported (PyNaCl,
    davey): the bot never uses voice, so the lines only alarm whoever reads
    the log. Put on the console handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.name == "discord.client" and "voice will NOT be supported" in record.getMessage()
        )


class OneLineNetworkErrors(logging.Filter):
    """discord.py logs each failed gateway connection ("Attempting a reconnect
    in 2.31s") with a whole traceback; an expected network failure becomes one
    line naming it. Put on the console handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        expected = (*NETWORK_ERRORS, discord.ConnectionClosed, discord.GatewayNotFound)
        if record.name.startswith("discord") and isinstance(error, expected):
            record.msg = f"{record.getMessage()} ({describe(error)})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


class Stop:
    """A request to stop, from SIGTERM or SIGINT (or `request()`)."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.reason: str | None = None

    def request(self, reason: str) -> None:
        if self.event.is_set():
            log.warning("%s: already stopping", reason)
            return
        self.reason = reason
        log.info("%s: stopping", reason)
        self.event.set()

    def is_set(self) -> bool:
        return self.event.is_set()

    def install(self) -> None:
        """Handle SIGTERM and SIGINT on the running loop (where the platform can)."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.request, sig.name)

    def uninstall(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)


async def unless_stopped(work: Coroutine[Any, Any, T], stop: Stop) -> tuple[bool, T | None]:
    """Run `work` until it ends or a stop is requested: (True, result) or (False, None)."""
    task = asyncio.ensure_future(work)
    waiting = asyncio.ensure_future(stop.event.wait())
    try:
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
    if task.done():
        return True, task.result()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return False, None


async def log_in(client: discord.Client, token: str, patience: Patience) -> None:
    """`client.login`, retried with backoff while Discord cannot be reached."""
    delay = patience.first_delay
    for attempt in range(1, patience.attempts + 1):
        try:
            await client.login(token)
            return
        except discord.LoginFailure:
            raise StartupError(
                "DISCORD_TOKEN was refused by Discord (401): copy the bot's token again from "
                "the developer portal",
                EXIT_SETTINGS,
            ) from None
        except discord.Forbidden as error:
            raise StartupError(_refused(error), EXIT_SETTINGS) from None
        except NETWORK_ERRORS as error:
            if client.application is not None:  # setup_hook had begun: no clean retry
                raise StartupError(
                    f"Discord failed while the bot was starting ({describe(error)})"
                ) from None
            await client.http.close()  # the next login makes a new session and connector
            client.http.connector = discord.utils.MISSING
            if attempt == patience.attempts:
                raise StartupError(
                    f"Discord could not be reached at {rest_host()} "
                    f"after {attempt} attempt{'s' if attempt > 1 else ''} "
                    f"({describe(error)}): check the network{_api_base_hint()}, then start again"
                ) from None
            log.warning(
                "Discord could not be reached at %s (attempt %d of %d: %s); trying again in %g s",
                rest_host(), attempt, patience.attempts, describe(error), delay,
            )  # fmt: skip
            await asyncio.sleep(delay)
            delay *= 2
        except discord.HTTPException as error:
            raise StartupError(f"Discord refused the start-up: {describe(error)}") from None


def _api_base_hint() -> str:
    return "" if rest_host() == "discord.com" else " and DISCORD_API_BASE"


def _refused(error: discord.Forbidden) -> str:
    return f"Discord refused the start-up (403 {error.text})"


def _gateway_failure(error: BaseException) -> StartupError:
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return StartupError("Discord refused the gateway intents the bot asked for", EXIT_SETTINGS)
    if isinstance(error, discord.ConnectionClosed) and error.code == 4004:
        return StartupError(
            "DISCORD_TOKEN was refused by Discord's gateway (4004): copy the token again",
            EXIT_SETTINGS,
        )
    return StartupError(f"the connection to Discord's gateway failed ({describe(error)})")


def _in_flight() -> set[asyncio.Task[Any]]:
    current = asyncio.current_task()
    return {
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(IN_FLIGHT_TASKS)
    }


async def drain(within: float) -> None:
    """Wait up to `within` seconds for the interactions (and events) being
    handled, and for what they start in turn (on_app_command_completion)."""
    pending = _in_flight()
    if not pending:
        return
    log.info("letting %d interaction(s) in flight finish (up to %g s)", len(pending), within)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while pending and (left := deadline - loop.time()) > 0:
        await asyncio.wait(pending, timeout=left)
        pending = _in_flight()
    if pending:
        log.warning("%d interaction(s) still running after %g s; stopping anyway",
                    len(pending), within)  # fmt: skip


async def serve(
    client: discord.Client,
    token: str,
    *,
    stop: Stop,
    at_ready: Callable[[], Awaitable[None]] | None = None,
    after_login: Callable[[], Awaitable[None]] | None = None,
    patience: Patience | None = None,
) -> None:
    """Log in, run `after_login` (e.g. ask GET /gateway/bot where to connect),
    connect, run `at_ready` after the first READY, and run until a stop is
    requested (then stop cleanly and return) or the gateway fails for good
    (StartupError). The client is closed when this returns or raises."""
    patience = patience or Patience()
    connecting: asyncio.Task[None] | None = None
    try:
        started, _ = await unless_stopped(log_in(client, token, patience), stop)
        if not started:
            return
        if after_login is not None:
            await after_login()
        connecting = asyncio.create_task(client.connect(reconnect=True), name="league-bot-gateway")
        ready = asyncio.ensure_future(client.wait_until_ready())
        stopping = asyncio.ensure_future(stop.event.wait())
        try:
            await asyncio.wait(
                {connecting, ready, stopping},
                timeout=patience.ready,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            ready.cancel()
            stopping.cancel()
        if stop.is_set():
            return
        if connecting.done():
            raise _gateway_failure(_ended(connecting))
        if not client.is_ready():
            raise StartupError(
                f"Discord's gateway did not get the bot ready within {patience.ready:g} s: "
                "check the network, then start again"
            )
        if at_ready is not None:
            done, _ = await unless_stopped(_awaited(at_ready), stop)
            if not done:
                return
        stopping = asyncio.ensure_future(stop.event.wait())
        try:
            await asyncio.wait({connecting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if not stop.is_set():
            raise _gateway_failure(_ended(connecting))
    finally:
        await _close(client, connecting, patience)


async def _awaited(function: Callable[[], Awaitable[None]]) -> None:
    await function()


def _ended(connecting: asyncio.Task[None]) -> BaseException:
    if connecting.cancelled():
        return ConnectionError("the gateway connection was cancelled")
    return connecting.exception() or ConnectionError("the gateway connection ended")


async def _close(
    client: discord.Client, connecting: asyncio.Task[None] | None, patience: Patience
) -> None:
    """Stop reading the gateway, let the work in flight finish, close the client."""
    if connecting is not None and not connecting.done():
        connecting.cancel()  # no new events, so no new interactions
        await asyncio.gather(connecting, return_exceptions=True)
    await drain(patience.drain)
    await client.close()
