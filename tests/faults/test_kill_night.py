"""SIGKILL at random moments of a scripted night, restarting each time.

The real `league-bot` process runs against the stand-in with Discord's rate
limits on. The night: the day's scheduled posts (all owed at start: the
league's times are set just after midnight, so the bot makes them late),
8 players' 40 scores, the commissioner's approvals (group 1 by the buttons,
groups 2 and 3 with approve-all, which edits the posts), finalize. A killer sends
SIGKILL at a random moment of each run and the bot is started again, until
the kills are used up; then the night is played to its end uninterrupted.

A step whose answer never came (the bot died under it) is sent again, as a
player would. At the end every owed post exists exactly once, every score is
stored once, and the results equal an uninterrupted run's.

`FAULT_SEED` picks the kill moments (the seed is in the failure message), and
`FAULT_KILLS` how many (default the issue's 20; fewer for a quick run, e.g.
`FAULT_KILLS=4`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sqlite3
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.config import Settings
from bot.database import Database
from bot.migrate import migrate
from bot.services import setup
from standin import DiscordStandIn, Limits
from tests.e2e.harness import bot_settings, small_server
from tests.e2e.process import ROOT, environment

TOKEN = "kill-night-token.not-a-secret.0123456789"
SEED = int(os.environ.get("FAULT_SEED", "20260107"))
KILLS = int(os.environ.get("FAULT_KILLS", "20"))
PHASES = ("scheduled posts", "submissions", "approvals", "finalize")
PLAYERS = 8
GAMES = 5
READY = "start-up checks passed"


def zone_near_noon() -> str:
    """A fixed-offset zone where it is now about midday: the night's date stays
    today for the whole test, and times set just after midnight are past."""
    offset = 12 - datetime.now(UTC).hour  # hours east of UTC
    offset = max(-12, min(14, offset))
    return f"Etc/GMT{-offset:+d}"  # Etc/GMT-3 is UTC+3


def typed_score(player: int, game: int) -> int:
    return (player * 10 + game) * 1_000_000


@dataclass
class Night:
    standin: DiscordStandIn
    settings: Settings
    general: int
    announcements: int
    approvals: int
    koi: int
    players: list[int]
    names: dict[int, str]
    answers: list[str] = field(default_factory=list)

    @property
    def database(self) -> Path:
        return self.settings.database_path

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        with contextlib.closing(sqlite3.connect(self.database, timeout=10)) as conn:
            return conn.execute(sql).fetchall()

    def steps(self) -> list[tuple[str, Any]]:
        """The night after the scheduled posts: scores, approvals, finalize."""
        scores = [("score", (p, g)) for g in range(1, GAMES + 1) for p in range(PLAYERS)]
        return [*scores, *(("approve", p) for p in range(PLAYERS)), ("approve-all", "2"),
                ("approve-all", "3"), ("finalize", None)]  # fmt: skip

    def post_of(self, player: int, game: int) -> dict[str, Any] | None:
        wanted = f"**{self.names[self.players[player]]}**: {typed_score(player, game):,}\n"
        found = [m for m in self.standin.channel_messages(self.approvals) if wanted in m["content"]]
        return found[0] if found else None

    async def run(self, member: int, command: str, options: dict[str, Any]) -> None:
        await self.standin.wait_until_connected(timeout=30)
        exchange = await self.standin.invoke(member, command, options, channel_id=self.general)
        await exchange.done(timeout=60, quiet=0.0)  # cancelled at once if the bot is killed
        self.answers.append(exchange.content)

    async def step(self, kind: str, what: Any) -> None:
        if kind == "score":
            player, game = what
            score = str(typed_score(player, game))
            await self.run(self.players[player], "score", {"game": game, "score": score})
        elif kind == "approve":  # click Approve on each of the player's group 1 posts
            for game in range(1, GAMES + 1):
                while (post := self.post_of(what, game)) is None:  # noqa: ASYNC110 (owed: comes)
                    await asyncio.sleep(0.05)
                if "· Group 1 ·" not in post["content"] or not post.get("components"):
                    continue  # group 2's are approved all at once; or approved before a kill
                button = post["components"][0]["components"][0]["custom_id"]
                await self.standin.wait_until_connected(timeout=30)
                click = await self.standin.click(self.koi, int(post["id"]), button)
                await click.done(timeout=60, quiet=0.0)  # acknowledged (deferred update)
                while (self.standin.message(int(post["id"])) or {}).get("components"):  # noqa: ASYNC110
                    await asyncio.sleep(0.02)  # the click's own answer edits the post
                self.answers.append(click.content)
        elif kind == "approve-all":
            await self.run(self.koi, "league night approve-all", {"group": what})
        else:
            await self.run(self.koi, "league night finalize", {})

    async def play(self, progress: list[int]) -> None:
        """The steps from `progress[0]` on; a step counts once it was answered."""
        locked = "SELECT 1 FROM nights WHERE status != 'scheduled'"  # the lock post made
        while not self.query(locked):  # noqa: ASYNC110 (the bot's database: nothing to await)
            await asyncio.sleep(0.05)
        steps = self.steps()
        while progress[0] < len(steps):
            await self.step(*steps[progress[0]])
            progress[0] += 1

    def phase(self, progress: int) -> str:
        """Which phase of the scripted night a kill at step `progress` lands in."""
        if not self.query("SELECT 1 FROM nights WHERE status != 'scheduled'"):
            return "scheduled posts"
        steps = self.steps()
        kind = steps[progress][0] if progress < len(steps) else "finalize"
        return {"score": "submissions", "approve": "approvals", "approve-all": "approvals"}.get(
            kind, "finalize"
        )

    def owed(self) -> int:
        return self.query("SELECT count(*) FROM outbox WHERE status IN ('pending', 'sending')")[0][
            0
        ]

    def outcome(self) -> dict[str, Any]:
        """What the night left, in names (the two runs' Discord ids differ)."""
        scores = self.query(
            "SELECT p.name, g.number, s.score, s.status FROM scores s JOIN players p"
            " ON p.id = s.player_id JOIN games g ON g.id = s.game_id ORDER BY p.name, g.number"
        )
        results = self.query(
            "SELECT p.name, r.place, r.attendance, r.match_points, r.tns, r.league_points,"
            " r.tlp, r.week_result FROM night_results r JOIN players p ON p.id = r.player_id"
            " ORDER BY p.name"
        )
        announced = [m["content"] for m in self.standin.channel_messages(self.announcements)]
        approvals = [m["content"] for m in self.standin.channel_messages(self.approvals)]
        for member, name in self.names.items():  # mentions as names
            announced = [c.replace(f"<@{member}>", name) for c in announced]
            approvals = [c.replace(f"<@{member}>", name) for c in approvals]
        return {
            "scores": scores,
            "results": results,
            "announced": sorted(announced),
            "approvals": sorted(approvals),
        }


@contextlib.asynccontextmanager
async def night_in(folder: Path) -> AsyncIterator[Night]:
    # Discord's rate limits; per-channel windows of 1 s rather than 5 s, so that
    # the night's 40 approval posts take ~8 s of CI rather than ~40 s. What this
    # test proves (nothing lost or doubled across kills) does not depend on the
    # window's length, only on posts being paced and retried; Discord's own 5 s
    # window is exercised by the 60-score burst in tests/e2e/test_faults.py.
    limits = Limits(messages_per_channel=(5, 1.0), edits_per_channel=(5, 1.0))
    async with DiscordStandIn(token=TOKEN, limits=limits) as standin:
        server = small_server(standin, "Kill League", PLAYERS)
        guild, koi, players = server.guild, server.koi, list(server.players)
        database = folder / "league.sqlite3"
        await migrate(database)
        zone = zone_near_noon()
        today = datetime.now(ZoneInfo(zone)).date()
        await prepare(database, guild, players, zone, today)
        settings = bot_settings(standin, server, TOKEN, database, folder / "backups")
        names = {m: f"P{n}" for n, m in enumerate(players, start=1)} | {koi: "Koi"}
        yield Night(
            standin,
            settings,
            server.general,
            server.announcements,
            server.approvals,
            koi,
            players,
            names,
        )


async def prepare(database: Path, guild: int, players: list[int], zone: str, day: date) -> None:
    db = await Database.open(database)
    now = datetime.now(UTC) - timedelta(hours=1)
    try:
        await setup.create_league(db, guild, "Kill League", time_zone=zone, now=now)
        for name, at in (("groupings_time", time(0, 1)), ("late_cutoff", time(0, 2)),
                         ("picks_lock_time", time(0, 3)), ("grace_until", time(0, 4))):  # fmt: skip
            await setup.set_league_time(db, guild, name, at)
        await setup.start_season(db, guild, "Winter", day, weekday=f"{day:%A}", now=now)
        for n, member in enumerate(players, start=1):
            await setup.add_player(db, guild, f"P{n}", discord_id=member, skill=n, now=now)
        for n in range(6):
            await setup.add_machine(db, guild, f"Machine {n}", par=10**8, now=now)
    finally:
        await db.close()


async def spawn(night: Night, folder: Path) -> asyncio.subprocess.Process:
    """The bot, its log appended to folder/bot.log."""
    with (folder / "bot.log").open("ab") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", "--sync", "--env-file", str(folder / "none.env"),
            env=environment(night.settings), cwd=ROOT,
            stdout=asyncio.subprocess.DEVNULL, stderr=log,
        )  # fmt: skip


async def play_night(
    night: Night, folder: Path, kills: list[float], landed: list[str] | None = None
) -> None:
    """Play the night, killing the bot `kills[i]` s after its i-th start; then to the
    end. `landed` gets the phase of the night each kill landed in."""
    progress = [0]
    for delay in kills:
        process = await spawn(night, folder)
        try:
            player = asyncio.create_task(night.play(progress))
            await asyncio.wait({player}, timeout=delay)
            process.kill()
            if landed is not None:
                landed.append(night.phase(progress[0]))
            await process.wait()
            player.cancel()
            await asyncio.gather(player, return_exceptions=True)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    process = await spawn(night, folder)
    try:
        async with asyncio.timeout(60):
            await night.play(progress)
            while night.owed():  # noqa: ASYNC110 (the bot's database: nothing to await)
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.3)  # an edit recorded just after its request
    except TimeoutError:
        raise AssertionError(
            f"the night did not finish: step {progress[0]} of {len(night.steps())},"
            f" {night.owed()} post(s) owed; log:\n{(folder / 'bot.log').read_text()[-3000:]}"
        ) from None
    finally:
        process.kill()
        await process.wait()


async def test_sigkill_at_random_moments_of_a_night_loses_and_doubles_nothing(
    tmp_path: Path,
) -> None:
    rng = random.Random(SEED)
    kills = [rng.uniform(0.3, 2.5) for _ in range(KILLS)]
    reference_folder, killed_folder = tmp_path / "reference", tmp_path / "killed"
    reference_folder.mkdir()
    killed_folder.mkdir()
    async with night_in(reference_folder) as reference:
        await play_night(reference, reference_folder, [])
        expected = reference.outcome()
    landed: list[str] = []
    async with night_in(killed_folder) as killed:
        await play_night(killed, killed_folder, kills, landed)
        got = killed.outcome()
        failed = killed.query("SELECT kind, ref, last_error FROM outbox WHERE status = 'failed'")
    where = f"FAULT_SEED={SEED} FAULT_KILLS={KILLS}"
    # Where the kills landed (run with -s to see it). Not yet asserted to cover every
    # phase: the default seed's random moments land in approvals and finalize only.
    print(f"kills by phase ({where}): { {p: landed.count(p) for p in PHASES} }")
    assert len(expected["scores"]) == PLAYERS * GAMES
    assert {s for *_, s in expected["scores"]} == {"approved"}
    assert len(expected["results"]) == PLAYERS
    assert failed == [], where
    assert got["scores"] == expected["scores"], where  # each score stored once, all approved
    assert got["results"] == expected["results"], where
    assert got["approvals"] == expected["approvals"], where  # each approval post once
    assert got["announced"] == expected["announced"], where  # each scheduled and result post once
    assert not any("unexpected" in a or "Sorry" in a for a in killed.answers), where
