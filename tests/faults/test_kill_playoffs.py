"""SIGKILL at random moments of a playoff night played as a bracket, restarting
each time (R13.3-R13.6).

As tests/faults/test_kill_night.py does for a league night: the real
`league-bot` process against the stand-in with Discord's rate limits on and
its posts answered late. The regular season (one night) is over and playoff
night is today: its announcement is owed, the field is checked in but for one
qualifier, and the day's posts (playoff night's groupings post and, at the
grace, the replacements) are made late at start. Then the commissioner starts
the bracket, records every game of the four matches, and corrects one game
after the champion was posted. Kills land while the day's posts are on their
way, and within random games and commands; a command whose answer never came
is sent again, as the commissioner would. At the end every game is stored
once, the places are an uninterrupted run's, and every post was made exactly
once.

`FAULT_SEED` picks the kill moments; `FAULT_PLAYOFF_KILLS` how many (default 8).
"""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.database import Database
from bot.migrate import migrate
from bot.services import (
    approvals,
    finalize,
    machine_list,
    membership,
    picks,
    playoff_checkin,
    scores,
    setup,
)
from bot.transcript import shown
from standin import DiscordStandIn, Limits
from tests.e2e.harness import bot_settings, small_server
from tests.faults.test_kill_night import SEED, TOKEN, Night, play_night, zone_near_noon

KILLS = int(os.environ.get("FAULT_PLAYOFF_KILLS", "8"))
PLAYERS = 6  # the field: P1-P4 by standing; P4 does not come, P5 takes the place
M = 1_000_000
# Each game: (the player named, their score, the opponent's, the machine), in the
# order played. The field by standing is P1, P4, P2, P5 (alternates P3, P6); P4
# does not come and P3 takes the place, so the seeds are P1, P2, P5, P3: the
# semifinals P1 v P3 and P2 v P5, then the final P1 v P5 and the match for third
# P2 v P3. The scores differ, so a game sent again is known for what it is.
GAMES = [
    ("P1", 310, 110, "Machine 0"), ("P1", 320, 120, "Machine 1"),
    ("P5", 330, 130, "Machine 0"), ("P2", 340, 140, "Machine 1"), ("P5", 350, 150, "Machine 2"),
    ("P5", 360, 160, "Machine 3"), ("P5", 370, 170, "Machine 2"),
    ("P3", 380, 180, "Machine 0"), ("P2", 390, 190, "Machine 1"), ("P3", 400, 200, "Machine 2"),
]  # fmt: skip
MACHINES = "Machine 0, Machine 1, Machine 2, Machine 3"
FIX = {"player": "P2", "round": "third", "game": 3, "score": "410M", "opponent_score": "400M",
       "reason": "read the wrong display"}  # fmt: skip


class PlayoffNight(Night):
    """The playoff night's script: start, the games, the correction."""

    def steps(self) -> list[tuple[str, Any]]:
        return [("start", None), *(("game", g) for g in GAMES), ("fix", None)]

    def phase_of(self, kind: str) -> str:
        return "submissions" if kind == "game" else "approvals"

    def scheduled_undelivered(self) -> bool:
        """Playoff night's announcement and its two posts of the day, not all delivered."""
        made = self.query(
            "SELECT status FROM outbox WHERE kind IN ('post', 'playoff_night')"
            " AND (kind = 'playoff_night' OR ref GLOB 'g*')"
        )
        return len(made) < 3 or any(s != "sent" for (s,) in made)

    async def step(self, kind: str, what: Any) -> None:
        if kind == "start":
            await self.run(self.koi, "playoffs start", {"machines": MACHINES})
        elif kind == "game":
            player, mine, theirs, machine = what
            await self.run(self.koi, "playoffs game", {"player": player, "score": f"{mine}M",
                           "opponent_score": f"{theirs}M", "machine": machine})  # fmt: skip
        else:
            await self.run(self.koi, "playoffs fix", FIX)

    def outcome(self) -> dict[str, Any]:
        games = self.query(
            "SELECT m.pool, m.round, m.slot, h.name, l.name, g.game, c.name, p.name,"
            " g.high_score, g.low_score FROM playoff_games g"
            " JOIN playoff_matches m ON m.id = g.match_id JOIN players h ON h.id = m.high_id"
            " JOIN players l ON l.id = m.low_id JOIN machines c ON c.id = g.machine_id"
            " JOIN players p ON p.id = g.picked_by ORDER BY m.round, m.slot, g.game"
        )
        places = self.query(
            "SELECT p.name, f.place, f.replaced_by IS NOT NULL FROM playoff_field f"
            " JOIN players p ON p.id = f.player_id ORDER BY f.standing"
        )
        changes = self.query("SELECT game, old_high, old_low, new_high, new_low, reason"
                             " FROM playoff_game_changes")  # fmt: skip
        announced = [self.names_in(m) for m in self.standin.channel_messages(self.announcements)]
        return {"games": games, "places": places, "changes": changes,
                "announced": sorted(announced)}  # fmt: skip

    def names_in(self, message: dict[str, Any]) -> str:
        text = shown(message)
        for member, name in self.names.items():
            text = text.replace(f"<@{member}>", name)
        return text


@contextlib.asynccontextmanager
async def playoff_night_in(folder: Path) -> AsyncIterator[PlayoffNight]:
    limits = Limits(messages_per_channel=(5, 1.0), edits_per_channel=(5, 1.0))
    async with DiscordStandIn(token=TOKEN, limits=limits) as standin:
        for route in ("POST /channels/*/messages", "PATCH /channels/*/messages/*"):
            standin.slow(route, 0.3)
        server = small_server(standin, "Kill League", PLAYERS)
        players = list(server.players)
        database = folder / "league.sqlite3"
        await migrate(database)
        await prepare(database, server.guild, players, zone_near_noon())
        settings = bot_settings(standin, server, TOKEN, database, folder / "backups")
        names = {m: f"P{n}" for n, m in enumerate(players, start=1)} | {server.koi: "Koi"}
        yield PlayoffNight(standin, settings, server.general, server.announcements,
                           server.approvals, server.koi, players, names)  # fmt: skip


async def prepare(database: Path, guild: int, players: list[int], zone: str) -> None:
    """The one regular night a week ago (P1 > P2 > … in every game), finalized;
    today is playoff night, and P1, P2, P5 and the first alternate P3 are
    checked in just after midnight (P4 is not: replaced at the grace)."""
    tz = ZoneInfo(zone)
    today = datetime.now(tz).date()
    last = today - timedelta(days=7)

    def at(day: Any, clock: time) -> datetime:
        return datetime.combine(day, clock, tz)

    db = await Database.open(database)
    try:
        now = datetime.now(UTC) - timedelta(days=8)
        await setup.create_league(db, guild, "Kill League", time_zone=zone, now=now)
        times = (("groupings_time", time(0, 1)), ("late_cutoff", time(0, 2)),
                 ("picks_lock_time", time(0, 3)), ("grace_until", time(0, 4)))  # fmt: skip
        for name, clock in times:
            await setup.set_league_time(db, guild, name, clock)
        await setup.start_season(db, guild, "Winter", last, weekday=f"{last:%A}", now=now)
        settings = (("regular_nights", 1), ("playoff_format", "bracket"), ("playoff_best_of", 3),
                    ("playoff_max", 4), ("playoff_min", 4))  # fmt: skip
        for name, value in settings:
            await setup.change_setting(db, guild, name, value, now=now)
        for n, member in enumerate(players, start=1):
            await membership.add_player(db, guild, f"P{n}", discord_id=member, skill=n, now=now)
        for n in range(4):
            await machine_list.add_machine(db, guild, f"Machine {n}", par=10**8, now=now)
        await picks.lock_picks(db, guild, now=at(last, time(0, 3)))
        async with db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT g.number, m.player_id FROM games g JOIN group_members m"
                " ON m.group_id = g.group_id"
            )
        for number, player_id in rows:
            member = players[player_id - 1]
            await scores.submit(db, guild, member, number, (PLAYERS + 1 - player_id) * 100 * M,
                                now=at(last, time(20, 0)))  # fmt: skip
        async with db.read() as conn:
            groups = await conn.execute_fetchall("SELECT position FROM night_groups")
        for (position,) in groups:
            await approvals.approve_all(db, guild, str(position), by=1, now=at(last, time(22, 0)))
        await finalize.finalize(db, guild, by=1, now=at(last, time(23, 0)))
        await playoff_checkin.check_in(db, guild, "P1, P2, P3, P5", now=at(today, time(0, 0, 30)))
    finally:
        await db.close()


async def test_sigkill_at_random_moments_of_a_bracket_playoff_night(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    # The day's posts; the start; games; the correction after the champion.
    kills = ["scheduled posts", "approvals", *["submissions"] * (KILLS - 3), "approvals"]
    reference_folder, killed_folder = tmp_path / "reference", tmp_path / "killed"
    reference_folder.mkdir()
    killed_folder.mkdir()
    async with playoff_night_in(reference_folder) as reference:
        await play_night(reference, reference_folder, [], rng, [], {})
        expected = reference.outcome()
    landed: list[str] = []
    async with playoff_night_in(killed_folder) as killed:
        await play_night(killed, killed_folder, kills, rng, landed, reference.took)
        got = killed.outcome()
        failed = killed.query("SELECT kind, ref, last_error FROM outbox WHERE status = 'failed'")
    where = f"FAULT_SEED={SEED} FAULT_PLAYOFF_KILLS={KILLS}"
    assert landed == kills, f"{where}: kills were for {kills}, landed {landed}"
    assert len(expected["games"]) == len(GAMES)
    # The reference: P3 took P4's place; P5 champion, P1 2nd, and P2 3rd after the
    # correction (P3 4th), in standings order.
    assert expected["places"] == [
        ("P1", 2, 0), ("P4", None, 1), ("P2", 3, 0), ("P5", 1, 0), ("P3", 4, 0), ("P6", None, 0)
    ]  # fmt: skip
    champions = [a for a in expected["announced"] if a.startswith("**Playoffs · League champion")]
    assert len(champions) == 2, champions  # posted, then posted again after the correction
    assert failed == [], where
    assert got["games"] == expected["games"], where  # each game stored once
    assert got["places"] == expected["places"], where
    assert got["changes"] == expected["changes"], where  # the correction audited once
    assert got["announced"] == expected["announced"], where  # each post exactly once
    assert not any("unexpected" in a or "Sorry" in a for a in killed.answers), where
