"""Playoff night through the real bot and the loopback Discord (R13.3-R13.6):
the last regular night announces the field; on playoff night the commissioner
checks players in, a qualifier who is not there is replaced at the end of the
grace period, the final group is played with /score and approved, the
champion, the prizes and the summary are posted, and a correction after the
champion was posted decides again."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from bot.config import Settings
from bot.transcript import shown
from standin import DiscordStandIn
from tests.e2e.harness import World, running_bot
from tests.e2e.test_standin import run

NEW_YORK = ZoneInfo("America/New_York")
FIRST = date(2026, 1, 7)  # the season's one regular night, a Wednesday
PLAYOFFS = date(2026, 1, 14)  # the Wednesday after: playoff night
MACHINES = ["Attack from Mars", "Medieval Madness", "Twilight Zone", "Monster Bash", "Tron"]


def at(day: date, clock: str) -> datetime:
    return datetime.combine(day, time.fromisoformat(clock), NEW_YORK)


async def announced(standin: DiscordStandIn, world: World, start: str, count: int = 1) -> list[str]:
    """The announcements whose text starts with `start`, once the outbox sent
    `count` of them (or what it sent in 5 s)."""
    found: list[str] = []
    for _ in range(100):
        found = [shown(m) for m in standin.channel_messages(world.announcements)
                 if shown(m).startswith(start)]  # fmt: skip
        if len(found) >= count:
            return found
        await asyncio.sleep(0.05)
    return found


async def test_a_final_group_playoff_night_through_discord(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    koi, (ann, bob, cat) = world.commissioner, world.players[:3]
    general = world.general

    async def league(command: str, options: dict[str, object], when: datetime) -> str:
        standin.set_time(when)
        answer = await run(standin, koi, command, options, channel=general)
        assert answer.ephemeral, (command, answer.content)
        return answer.content

    async def player(member: int, command: str, options: dict[str, object], when: datetime) -> str:
        standin.set_time(when)
        answer = await run(standin, member, command, options, channel=general)
        assert answer.ephemeral, (command, answer.content)
        return answer.content

    async with running_bot(settings):
        set_up = at(date(2026, 1, 2), "10:00")
        await league("league season setup", {"name": "Koi's League",
                                              "time_zone": "America/New_York"}, set_up)  # fmt: skip
        await league("league season start", {"name": "Spring", "start": FIRST.isoformat()}, set_up)
        await league("league season setting", {"name": "regular_nights", "value": "1"}, set_up)
        for member, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            await league("league player add", {"member": member, "name": name}, set_up)
        for machine in MACHINES:
            await league("league machine add", {"name": machine, "par": "1B"}, set_up)

        # The one regular night: Ann 300M, Bob 200M, Cat 100M in every game.
        await league("league night lock", {}, at(FIRST, "19:15"))
        for member, score in ((ann, "300M"), (bob, "200M"), (cat, "100M")):
            for game in range(1, 6):
                said = await player(member, "score", {"game": game, "score": score},
                                    at(FIRST, "20:00"))  # fmt: skip
                assert said.startswith("Submitted"), said
        await league("league night approve-all", {"group": "1"}, at(FIRST, "22:00"))
        assert await league("league night finalize", {}, at(FIRST, "23:00")) == "Week 1 is final."
        (field,) = await announced(standin, world, "**Playoffs: Wednesday 14 January**")
        # R13.1: 3 players // 3 = 1 spot, clamped up to 2: Ann and Bob; Cat waits.
        assert "League: 1. Ann, 2. Bob\n  Alternates, in order: Cat" in field

        # Playoff night: Bob does not come; Cat, the alternate, does (R13.5).
        said = await league("playoffs checkin", {"players": "Ann, Cat"}, at(PLAYOFFS, "19:05"))
        assert said == "Checked in: Ann, Cat."
        said = await league("playoffs start", {"machines": ", ".join(MACHINES)},
                            at(PLAYOFFS, "19:31"))  # fmt: skip
        assert said.startswith("Playoff night has started: 1 final group on Attack from Mars")
        (games,) = await announced(standin, world, "**Playoffs: play starts**")
        assert "League: 1. Ann, 2. Cat" in games
        refused = await player(bob, "score", {"game": 1, "score": "900M"}, at(PLAYOFFS, "19:40"))
        assert (
            refused == "You are not in the playoff field tonight; only its players' scores count."
        )

        # Cat beats Ann in every game: the playoffs, not the standings, decide.
        for member, score in ((ann, "100M"), (cat, "250M")):
            for game in range(1, 6):
                said = await player(member, "score", {"game": game, "score": score},
                                    at(PLAYOFFS, "20:00"))  # fmt: skip
                assert said.startswith("Submitted:\nPlayoffs · Game"), said
        await league("league night approve-all", {"group": "1"}, at(PLAYOFFS, "21:00"))
        (champion,) = await announced(standin, world, "**Playoffs · League champion")
        assert champion.startswith("**Playoffs · League champion: Cat**")
        (summary,) = await announced(standin, world, "**Spring: the season is over**")
        assert "League champion: Cat (won the playoffs)" in summary

        # A correction after the champion was posted (R12.2 on playoff night: its week
        # is the one after the last regular night): Cat's games become 0.
        for game in range(1, 6):
            await league("league score change", {"week": 2, "player": "Cat", "game": game,
                         "kind": "penalty", "reason": "tilted Ann's ball away"},
                         at(PLAYOFFS, "21:30"))  # fmt: skip
        posts = await announced(standin, world, "**Playoffs · League champion", count=2)
        assert [p.split("\n")[0] for p in posts] == [
            "**Playoffs · League champion: Cat**", "**Playoffs · League champion: Ann**",
        ]  # fmt: skip
