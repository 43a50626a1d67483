"""Runs the container image that `deploy/build-image WORK_DIR` built, as a
server would, against the Discord stand-in on this machine:

- `league-bot --version` in the image;
- the image's own command (`league-bot run --sync`) with only a token in its
  environment and its database on a volume: it connects and registers the
  commands, a server administrator sets the league up with `/setup`, and it
  answers the commissioner's `/league admin status`;
- the image's health check passes while it runs;
- stopped as `docker stop` / `podman stop` does (SIGTERM), it exits at once
  and cleanly, and the health check then fails.

    python deploy/check_image.py WORK_DIR
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.world import TOKEN, World  # noqa: E402  (the checkout's, beside this script)
from standin import DiscordStandIn  # noqa: E402

IMAGE = "localhost/league-bot:check"
NAME = "league-bot-check"
BOT = "/opt/league-bot/.venv/bin/league-bot"
# A sandbox may refuse a container limits above its own: these are below them.
LIMITS = ("--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096")


def _podman(work: Path, args: tuple[str, ...], check: bool) -> subprocess.CompletedProcess[str]:
    command = ["podman", "--root", str(work / "storage"), "--runroot", str(work / "run"),
               "--storage-driver", "vfs", "--runtime", "runc", *args]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if check and done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} failed ({done.returncode}): {done.stderr.strip()}")
    return done


async def podman(work: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """podman, in a thread: the stand-in on this event loop goes on answering."""
    return await asyncio.to_thread(_podman, work, args, check)


def expect(ok: bool, what: str) -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)
    if not ok:
        raise SystemExit(1)


async def check(work: Path) -> None:
    version = metadata.version("league-bot")
    shown = await podman(work, "run", "--rm", *LIMITS, "--network", "none", "--no-healthcheck",
                         IMAGE, BOT, "--version")  # fmt: skip
    expect(shown.stdout.strip() == f"league-bot {version}", f"--version: {shown.stdout.strip()}")
    data = work / "data"  # the volume: a new league every run
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    async with DiscordStandIn(token=TOKEN) as standin:
        world = World(standin, players=4)
        # The process's settings only: the league is set up from Discord.
        env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": standin.api_base}
        await podman(work, "rm", "--force", NAME, check=False)
        # The image's own health check, run on demand (no systemd timer here).
        await podman(work, "run", "--detach", "--name", NAME, "--network", "host", *LIMITS,
                     "--health-interval", "disable",
                     "--volume", f"{data}:/data:U", *(f"--env={k}={v}" for k, v in env.items()),
                     IMAGE)  # fmt: skip
        try:
            await _while_running(work, standin, world, version, env)
        except BaseException:
            logs = await podman(work, "logs", NAME, check=False)
            print(logs.stderr[-3000:], file=sys.stderr)
            raise
        finally:
            await podman(work, "rm", "--force", NAME, check=False)


async def _while_running(
    work: Path, standin: DiscordStandIn, world: World, version: str, env: dict[str, str]
) -> None:
    for _ in range(3000):  # up to five minutes to start, beside the tests in a slow sandbox
        if standin.gateway.identifies and standin.registered_commands():
            break
        await asyncio.sleep(0.1)
    expect(bool(standin.registered_commands()), "the bot in the image connected and "
                                                "registered its commands")  # fmt: skip
    await asyncio.sleep(1)  # the guilds and the sender start
    places = {"announcements": world.announcements, "approvals": world.approvals,
              "commissioners": world.role}  # fmt: skip
    setup = await standin.invoke(world.koi, "setup", places, channel_id=world.general)
    await setup.done(timeout=120)  # beside the tests, on a busy machine
    expect(
        setup.ephemeral and "set up" in setup.content,
        f"a server administrator set the league up with /setup: {setup.content.splitlines()[0]}",
    )
    asked = await standin.invoke(world.koi, "league admin status", {}, channel_id=world.general)
    await asked.done(timeout=120)
    expect(version in asked.content and asked.ephemeral,
           "it answered /league admin status, privately, with its version")  # fmt: skip
    health = await podman(work, "healthcheck", "run", NAME, check=False)
    said = (health.stdout + health.stderr).strip() or "healthy"
    expect(health.returncode == 0, f"the image's health check passes while it runs: {said}")
    stopped = await podman(work, "stop", "--time", "15", NAME, check=False)
    inspected = await podman(work, "inspect", "--format", "{{.State.ExitCode}}", NAME)
    code = inspected.stdout.strip()
    expect(stopped.returncode == 0 and code == "0", f"SIGTERM stops it cleanly (exit {code})")
    volume = f"{work / 'data'}:/data:U"
    after = await podman(work, "run", "--rm", *LIMITS, "--network", "none", "--volume", volume,
                         "--no-healthcheck", *(f"--env={k}={v}" for k, v in env.items()),
                         IMAGE, BOT, "health", check=False)  # fmt: skip
    said = (after.stdout + after.stderr).strip()
    expect(after.returncode != 0, f"the health check fails once it stopped: {said}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    asyncio.run(check(Path(sys.argv[1]).resolve()))
