"""The real `league-bot` process against a stand-in in the test's own loop.

`BotProcess` starts `python -m bot …` with the settings as environment
variables, collects its stderr line by line while it runs, and is always
killed (and reaped) when the test leaves it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def environment(settings: Settings, **overrides: str) -> dict[str, str]:
    """The settings as the variables `league-bot` reads (no .env file)."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": settings.token.reveal(),
        "LEAGUE_GUILD_ID": str(settings.guild_id),
        "COMMISSIONER_ROLE_ID": str(settings.commissioner_role_id),
        "ANNOUNCEMENT_CHANNEL_ID": str(settings.announcement_channel_id),
        "APPROVALS_CHANNEL_ID": str(settings.approvals_channel_id),
        "DATABASE_PATH": str(settings.database_path),
        "DISCORD_API_BASE": settings.api_base or "",
        "LOG_LEVEL": "INFO",
    }
    if "MUTANT_UNDER_TEST" in os.environ:  # a mutation run: the bot runs the same mutant
        env["MUTANT_UNDER_TEST"] = os.environ["MUTANT_UNDER_TEST"]
    env.update(overrides)
    return env


class BotProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.stderr: list[str] = []
        self.stdout: list[str] = []
        self._readers = [
            asyncio.create_task(self._read(process.stderr, self.stderr)),
            asyncio.create_task(self._read(process.stdout, self.stdout)),
        ]

    async def _read(self, stream: asyncio.StreamReader | None, into: list[str]) -> None:
        assert stream is not None
        while line := await stream.readline():
            into.append(line.decode(errors="replace").rstrip("\n"))

    async def wait_for_line(self, text: str, timeout: float = 30.0) -> str:  # noqa: ASYNC109
        """The first stderr line containing `text`; fails after `timeout` s or at exit."""
        async with asyncio.timeout(timeout):
            while True:
                for line in self.stderr:
                    if text in line:
                        return line
                if all(r.done() for r in self._readers):
                    raise AssertionError(f"the bot exited without {text!r}:\n{self.log}")
                await asyncio.sleep(0.05)

    async def exit_code(self, timeout: float = 60.0) -> int:  # noqa: ASYNC109
        """Its exit code, once it has exited and its output is read."""
        async with asyncio.timeout(timeout):
            code = await self.process.wait()
            await asyncio.gather(*self._readers)
        return code

    def signal(self, sig: signal.Signals) -> None:
        self.process.send_signal(sig)

    @property
    def log(self) -> str:
        return "\n".join(self.stderr)

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        for reader in self._readers:
            reader.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)


@asynccontextmanager
async def league_bot(*args: str, env: Mapping[str, str], cwd: Path) -> AsyncIterator[BotProcess]:
    """`python -m bot *args`; killed on the way out if it is still running."""
    (cwd / "none.env").write_text("")  # an empty settings file: all comes from `env`
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        "--env-file",
        str(cwd / "none.env"),
        env=dict(env),
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    running = BotProcess(process)
    try:
        yield running
    finally:
        await running.kill()
