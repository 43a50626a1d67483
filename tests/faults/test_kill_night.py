"""SIGKILL at random moments of a scripted night, restarting each time.

The real `league-bot` process runs against the stand-in with Discord's rate
limits on, and its posts and edits answered SLOW s late (the message is made at
once; the bot hears of it later), so that kills land mid-send. The night, in
four phases: the day's scheduled posts (all owed at start: the league's times
are set just after midnight, so the bot makes them late); 8 players' 40 scores;
the commissioner's approvals on the scorecards (group 1 game by game through
"Approve one game…", group 2 with "Approve all complete", group 3 with
`/league night approve-all`, which edits its card); finalize, with its results
and standings posts.

The kills are allotted to the phases in turn (the default 20: five each), each
at a random moment within its phase: during the scheduled posts and finalize,
while an announcement is on its way; during submissions and approvals, within a
random step, up to as long after sending it as its answer took in an
uninterrupted run. The script waits where the kill is due, so a kill never
slips into the next phase; where each landed is checked from the script and the
bot's database at the kill (the scheduled posts not all delivered; the night's
posts not all sent). After each kill the bot is started again; after the last
the night is played to its end uninterrupted.

A step whose answer never came (the bot died under it) is sent again, as a
player would. At the end every owed post exists exactly once (one card per
group, every score on it approved; the scheduled, results and standings posts),
every score is stored once, and the results equal an uninterrupted run's.

`FAULT_SEED` picks the kill moments (the seed is in the failure message), and
`FAULT_KILLS` how many (default 20; fewer for a quick run, e.g.
`FAULT_KILLS=4`, one in each phase).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.config import Settings
from bot.database import Database
from bot.migrate import migrate
from bot.services import announcements, machine_list, membership, setup
from bot.transcript import shown
from standin import DiscordStandIn, Exchange, Limits
from tests.e2e.harness import bot_settings, small_server
from tests.e2e.process import ROOT, environment

TOKEN = "kill-night-token.not-a-secret.0123456789"
SEED = int(os.environ.get("FAULT_SEED", "20260107"))
KILLS = int(os.environ.get("FAULT_KILLS", "20"))
LOG = os.environ.get("FAULT_LOG", "INFO")  # the bot's log level (its log: bot.log)
PHASES = ("scheduled posts", "submissions", "approvals", "finalize")
SCHEDULED = len(announcements.KINDS)  # the day's scheduled posts, all owed at start
PLAYERS = 8
GROUPS = 3  # of 3, 3 and 2 players
GAMES = 5
SLOW = 0.3  # s: the stand-in answers a post or an edit this late
ACK = 3.0  # s: Discord's deadline for the bot to acknowledge an interaction


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
    doing: str = PHASES[0]  # what the script is doing now
    started: int = -1  # the step it sent last in this run
    took: dict[int, float] = field(default_factory=dict)  # step -> seconds to its answer
    holding: bool = False  # waiting at the end of `doing` for this run's kill

    @property
    def database(self) -> Path:
        return self.settings.database_path

    def query(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with contextlib.closing(sqlite3.connect(self.database, timeout=10)) as conn:
            return conn.execute(sql, args).fetchall()

    def steps(self) -> list[tuple[str, Any]]:
        """The night after the scheduled posts: scores; approvals on the cards
        (group 1 game by game, group 2 with Approve all complete, group 3 with
        /league night approve-all); finalize."""
        scores = [("score", (p, g)) for g in range(1, GAMES + 1) for p in range(PLAYERS)]
        games = [("approve game", g) for g in range(1, GAMES + 1)]
        return [*scores, *games, ("approve complete", 2), ("approve-all", "3"), ("finalize", None)]

    def phase_of(self, kind: str) -> str:
        return {"score": "submissions", "finalize": "finalize"}.get(kind, "approvals")

    def scheduled_undelivered(self) -> bool:
        """The day's scheduled posts are not all made, or not all delivered."""
        made = self.query("SELECT status FROM outbox WHERE kind = 'post' AND ref GLOB ?", "[gcl]*")
        return len(made) < SCHEDULED or any(s != "sent" for (s,) in made)

    def card(self, group: int) -> dict[str, Any] | None:
        """Group `group`'s approval card as the approvals channel shows it now."""
        title = f"**Week 1 · Group {group}**"
        found = [m for m in self.standin.channel_messages(self.approvals) if title in shown(m)]
        assert len(found) <= 1, f"group {group} has {len(found)} cards"
        return found[0] if found else None

    def waiting(self, group: int, game: int | None = None) -> int:
        """How many of the group's scores (of one game) wait for approval."""
        return self.query(
            "SELECT count(*) FROM scores s JOIN games g ON g.id = s.game_id"
            " JOIN night_groups n ON n.id = g.group_id WHERE n.position = ?"
            " AND (? IS NULL OR g.number = ?) AND s.status = 'pending'",
            group, game, game,
        )[0][0]  # fmt: skip

    async def answered(self, send: Callable[[], Awaitable[Exchange]]) -> None:
        """Send an interaction until the bot takes it, then wait for its answer. One
        sent while no live bot was connected (the killed one's connection not yet
        seen closed, the next not yet identified) is never acknowledged: Discord
        shows the member "This interaction failed" after 3 s, and they try again."""
        while True:
            await self.standin.wait_until_connected(timeout=30)
            exchange = await send()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ACK + 2):
                    while not exchange.acknowledged:  # noqa: ASYNC110 (the stand-in's state)
                        await asyncio.sleep(0.02)
                    break
        await exchange.done(timeout=60, quiet=0.0)  # cancelled at once if the bot is killed
        self.answers.append(exchange.content)

    async def run(self, member: int, command: str, options: dict[str, Any]) -> None:
        await self.answered(
            lambda: self.standin.invoke(member, command, options, channel_id=self.general)
        )

    async def choose(self, group: int, placeholder: str, value: str | None) -> None:
        """The commissioner picks `value` in the card's menu `placeholder` (or
        clicks the button of that label, value None), once the card offers it."""
        while True:
            card = self.card(group)
            items = [c for row in (card or {}).get("components", []) for c in row["components"]]
            item = next(
                (c for c in items if placeholder in (c.get("placeholder"), c.get("label"))), None
            )
            offered = item is not None and (
                value is None or value in [o["value"] for o in item.get("options", [])]
            )
            if card is not None and offered:
                break
            await asyncio.sleep(0.05)  # the card's post or edit is owed: it comes
        values = None if value is None else [value]
        message, custom_id = int(card["id"]), item["custom_id"]
        await self.answered(  # the answer: "Approved 3 scores: …"
            lambda: self.standin.click(self.koi, message, custom_id, values=values)
        )

    async def step(self, kind: str, what: Any) -> None:
        if kind == "score":
            player, game = what
            score = str(typed_score(player, game))
            await self.run(self.players[player], "score", {"game": game, "score": score})
        elif kind == "approve game":  # group 1, game by game through the menu
            if self.waiting(1, what):  # not approved before a kill
                await self.choose(1, "Approve one game…", str(what))
        elif kind == "approve complete":
            if self.waiting(what):
                await self.choose(what, "Approve all complete", None)
        elif kind == "approve-all":
            await self.run(self.koi, "league night approve-all", {"group": what})
        else:
            await self.run(self.koi, "league night finalize", {})

    async def hold(self) -> None:
        """Wait here for this run's kill (so that it lands where it was meant to)."""
        self.holding = True
        await asyncio.Event().wait()  # cancelled by the kill

    async def play(
        self, progress: list[int], kill_in: str | None = None, kill_at: int | None = None
    ) -> None:
        """The night from `progress[0]` on (a step counts once it was answered).
        With a kill to come in `kill_in`, the script waits for it at the end of
        that phase, or just after step `kill_at` (a submission or an approval)."""
        self.doing, self.holding, self.started = PHASES[0], False, -1
        while self.scheduled_undelivered():  # noqa: ASYNC110 (the bot's database: nothing to await)
            await asyncio.sleep(0.05)
        if kill_in == PHASES[0]:
            await self.hold()
        steps = self.steps()
        while progress[0] < len(steps):
            kind, what = steps[progress[0]]
            self.doing, self.started = self.phase_of(kind), progress[0]
            sent = asyncio.get_running_loop().time()
            await self.step(kind, what)
            self.took[progress[0]] = asyncio.get_running_loop().time() - sent
            progress[0] += 1
            if kill_at is not None and progress[0] > kill_at:
                await self.hold()
        self.doing = "finalize"  # until everything owed (the results posts, the cards) is sent
        while self.owed():  # noqa: ASYNC110 (the bot's database: nothing to await)
            await asyncio.sleep(0.05)
        if kill_in is not None:
            await self.hold()
        self.doing = "done"

    def landed(self) -> str:
        """The phase a kill fired now lands in: what the script was doing, if that
        phase was not over (the scheduled posts not all delivered; the night not
        finalized with its posts delivered)."""
        if self.doing == PHASES[0]:
            return PHASES[0] if self.scheduled_undelivered() else "between"
        if self.doing == "finalize" and self.holding and not self.owed():
            return "after the night"
        return self.doing

    def posting(self, since: int) -> bool:
        """A post to the announcements channel is on its way (the stand-in has it;
        its answer has not reached the bot), among requests since number `since`."""
        path = f"/api/v10/channels/{self.announcements}/messages"
        return any(
            r.method == "POST" and r.path == path and r.status == 0
            for r in self.standin.requests[since:]
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
        announced = [shown(m) for m in self.standin.channel_messages(self.announcements)]
        approvals = [shown(m) for m in self.standin.channel_messages(self.approvals)]
        for member, name in self.names.items():  # mentions as names
            announced = [c.replace(f"<@{member}>", name) for c in announced]
            approvals = [c.replace(f"<@{member}>", name) for c in approvals]
        return {
            "scores": scores,
            "results": results,
            "announced": sorted(announced),
            "approvals": sorted(approvals),
            "buttons": [m.get("components") for m in self.standin.channel_messages(self.approvals)],
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
        for route in ("POST /channels/*/messages", "PATCH /channels/*/messages/*"):
            standin.slow(route, SLOW)
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
            await membership.add_player(db, guild, f"P{n}", discord_id=member, skill=n, now=now)
        for n in range(6):
            await machine_list.add_machine(db, guild, f"Machine {n}", par=10**8, now=now)
    finally:
        await db.close()


async def spawn(night: Night, folder: Path) -> asyncio.subprocess.Process:
    """The bot, its log appended to folder/bot.log."""
    (folder / "none.env").write_text("")  # an empty settings file: all comes from env
    with (folder / "bot.log").open("ab") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", "--sync", "--env-file", str(folder / "none.env"),
            env=environment(night.settings, LOG_LEVEL=LOG), cwd=ROOT,
            stdout=asyncio.subprocess.DEVNULL, stderr=log,
        )  # fmt: skip


def allot(kills: int) -> list[str]:
    """The phase each kill is for, in the night's order: as even as can be (the
    default 20: five each), so that with 12 or more every phase gets at least 3."""
    return [p for n, p in enumerate(PHASES) for _ in range(kills // 4 + (n < kills % 4))]


def kill_step(
    night: Night, phase: str, nth: tuple[int, int], progress: int, rng: random.Random
) -> int:
    """The step a kill in `phase` (a submission or an approval) comes at: for the
    i-th of k kills (`nth`), a random one of the i-th k-th of the phase's steps."""
    steps = [n for n, (kind, _) in enumerate(night.steps()) if night.phase_of(kind) == phase]
    i, k = nth
    part = steps[i * len(steps) // k : max((i + 1) * len(steps) // k, i * len(steps) // k + 1)]
    return max(progress, rng.choice(part))


async def kill_moment(
    night: Night, step: int | None, pace: dict[int, float], since: int, rng: random.Random
) -> None:
    """Return at this run's kill moment, a random one (`rng`) within its phase.
    Scheduled posts and finalize (`step` None): while an announcement is on its
    way (its answer slowed by SLOW s, so the bot dies not knowing it was made).
    Submissions and approvals: a random moment of step `step`, from its sending
    to as long after as its answer took in the uninterrupted run (`pace`; 2 s at most)."""
    if step is None:
        while not night.posting(since) and not night.holding:  # noqa: ASYNC110 (the script's state)
            await asyncio.sleep(0.01)
        await asyncio.sleep(rng.uniform(0.0, 0.8 * SLOW))
        return
    while night.started < step and not night.holding:  # noqa: ASYNC110 (the script's state)
        await asyncio.sleep(0.002)
    await asyncio.sleep(rng.uniform(0.0, min(pace.get(step, SLOW), 2.0)))


async def play_night(
    night: Night,
    folder: Path,
    kills: list[str],
    rng: random.Random,
    landed: list[str],
    pace: dict[int, float],
) -> None:
    """Play the night, killing the bot once per entry of `kills` at a random
    moment of that phase and starting it again; then to the end. `landed` gets
    the phase each kill landed in; `pace` is how long each step took uninterrupted."""
    progress = [0]
    for n, phase in enumerate(kills):
        since = len(night.standin.requests)
        step = None
        if phase in ("submissions", "approvals"):
            nth = (kills[:n].count(phase), kills.count(phase))
            step = kill_step(night, phase, nth, progress[0], rng)
        process = await spawn(night, folder)
        try:
            player = asyncio.create_task(night.play(progress, phase, step))
            killer = asyncio.create_task(kill_moment(night, step, pace, since, rng))
            await asyncio.wait({player, killer}, return_when=asyncio.FIRST_COMPLETED, timeout=60)
            process.kill()
            if player.done() and player.exception() is not None:
                raise player.exception()  # type: ignore[misc] (a failed check of the script)
            landed.append(
                night.landed() if killer.done() else f"never (stuck; {night.owed()} owed)"
            )
            print(f"kill {len(landed)}: {landed[-1]}, step {progress[0]}, held {night.holding}")
            await process.wait()
            for task in (player, killer):
                task.cancel()
            await asyncio.gather(player, killer, return_exceptions=True)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    process = await spawn(night, folder)
    try:
        async with asyncio.timeout(90):
            await night.play(progress)
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
    kills = allot(KILLS)
    reference_folder, killed_folder = tmp_path / "reference", tmp_path / "killed"
    reference_folder.mkdir()
    killed_folder.mkdir()
    async with night_in(reference_folder) as reference:
        await play_night(reference, reference_folder, [], rng, [], {})
        expected = reference.outcome()
        slowest = max(reference.took, key=reference.took.__getitem__)
        print(f"slowest step uninterrupted: {slowest}, {reference.took[slowest]:.2f} s")
    landed: list[str] = []
    async with night_in(killed_folder) as killed:
        await play_night(killed, killed_folder, kills, rng, landed, reference.took)
        got = killed.outcome()
        failed = killed.query("SELECT kind, ref, last_error FROM outbox WHERE status = 'failed'")
    where = f"FAULT_SEED={SEED} FAULT_KILLS={KILLS}"
    tally = {p: landed.count(p) for p in PHASES}
    print(f"kills by phase ({where}): {tally}")  # run with -s to see it
    # Every kill landed in the phase it was for: with 12 or more, at least 3 in each.
    assert landed == kills, f"{where}: kills were for {kills}, landed {landed}"
    assert all(n >= min(3, KILLS // 4) for n in tally.values()), (where, tally)
    assert len(expected["scores"]) == PLAYERS * GAMES
    assert {s for *_, s in expected["scores"]} == {"approved"}
    assert len(expected["results"]) == PLAYERS
    # One card per group, every score on it approved, no menus left.
    cards = [c for c in expected["approvals"] if c.startswith("**Week 1 · Group")]
    (board,) = [c for c in expected["approvals"] if c.startswith("**Attendance · week 1")]
    assert board.endswith("The night is finalized.")  # the night's attendance board, once
    assert len(cards) + 1 == len(expected["approvals"]) and len(cards) == GROUPS, cards
    assert all(c.endswith("All decided.") for c in cards), cards
    lines = [line for c in cards for line in c.split("\n") if line.startswith("P")]
    assert len(lines) == PLAYERS * GAMES and all(x.endswith(" ✓") for x in lines), lines
    # The cards and the board: none has a button or menu left once the night is final.
    assert expected["buttons"] in ([[]] * (GROUPS + 1), [None] * (GROUPS + 1))
    assert failed == [], where
    assert got["scores"] == expected["scores"], where  # each score stored once, all approved
    assert got["results"] == expected["results"], where
    assert got["approvals"] == expected["approvals"], where  # each card once, all approved
    assert got["buttons"] == expected["buttons"], where
    assert got["announced"] == expected["announced"], where  # each scheduled and result post once
    assert not any("unexpected" in a or "Sorry" in a for a in killed.answers), where
