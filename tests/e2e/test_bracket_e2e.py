"""A playoff bracket through the real bot and the loopback Discord (R13.3,
R13.5, R13.6): a qualifier who is not there is replaced at the end of the
grace period, the field of three plays its semifinal (2 v 3) and the final
against seed 1, the higher seed picks, the commissioner records each game, the
bracket advances by itself, the champion and the summary are posted, and a
correction after the champion decides again."""

from __future__ import annotations

from datetime import date, datetime

from bot.config import Settings
from standin import DiscordStandIn
from tests.e2e.harness import World, running_bot
from tests.e2e.test_playoffs_e2e import FIRST, MACHINES, PLAYOFFS, announced, at
from tests.e2e.test_standin import run


async def test_a_bracket_playoff_night_through_discord(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    koi, (ann, bob, cat, dan) = world.commissioner, world.players[:4]
    general = world.general

    async def command(member: int, name: str, options: dict[str, object], when: datetime) -> str:
        standin.set_time(when)
        answer = await run(standin, member, name, options, channel=general)
        assert answer.ephemeral, (name, answer.content)
        return answer.content

    async def league(name: str, options: dict[str, object], when: datetime) -> str:
        return await command(koi, name, options, when)

    async with running_bot(settings) as bot:
        set_up = at(date(2026, 1, 2), "10:00")
        await league("league season setup", {"name": "Koi's League",
                                              "time_zone": "America/New_York"}, set_up)  # fmt: skip
        await league("league season start", {"name": "Spring", "start": FIRST.isoformat()}, set_up)
        for name, value in (("regular_nights", "1"), ("playoff_format", "bracket"),
                            ("playoff_best_of", "1"), ("playoff_max", "3"),
                            ("playoff_min", "3")):  # fmt: skip
            await league("league season setting", {"name": name, "value": value}, set_up)
        for member, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat"), (dan, "Dan")):
            await league("league player add", {"member": member, "name": name}, set_up)
        for machine in MACHINES:
            await league("league machine add", {"name": machine, "par": "1B"}, set_up)

        # The one regular night: Ann > Bob > Cat > Dan in every game.
        await league("league night lock", {}, at(FIRST, "19:15"))
        for member, score in ((ann, "400M"), (bob, "300M"), (cat, "200M"), (dan, "100M")):
            for game in range(1, 6):
                said = await command(member, "score", {"game": game, "score": score},
                                     at(FIRST, "20:00"))  # fmt: skip
                assert said.startswith("Submitted"), said
        await league("league night approve-all", {"group": "1"}, at(FIRST, "22:00"))
        assert await league("league night finalize", {}, at(FIRST, "23:00")) == "Week 1 is final."
        (field,) = await announced(standin, world, "**Playoffs: Wednesday 14 January**")
        assert "League: 1. Ann, 2. Bob, 3. Cat\n  Alternates, in order: Dan" in field

        # Playoff night: Cat does not come; Dan, the alternate, does (R13.5).
        said = await league("playoffs checkin", {"players": "Ann, Bob, Dan"},
                            at(PLAYOFFS, "19:05"))  # fmt: skip
        assert said == "Checked in: Ann, Bob, Dan."
        scheduler = bot.scheduler_of(world.guild)  # its own grace job body, at 19:30
        assert scheduler is not None
        standin.set_time(at(PLAYOFFS, "19:30"))
        await scheduler.post("grace", at(PLAYOFFS, "19:30"))
        (replaced,) = await announced(standin, world, "**Playoffs: the grace period is over")
        assert "- Cat is not checked in: Dan takes the place." in replaced
        said = await league("playoffs start", {"machines": ", ".join(MACHINES[:3])},
                            at(PLAYOFFS, "19:31"))  # fmt: skip
        assert said.startswith("Playoff night has started: the bracket is drawn on")
        (drawn,) = await announced(standin, world, "**Playoffs: play starts**")
        assert "**League · Semifinal**: 2. Bob v 3. Dan · 0–0" in drawn

        # R13.3: the higher seed picks game 1's machine.
        refused = await command(dan, "playoffs pick", {"machine": "Twilight Zone"},
                                at(PLAYOFFS, "19:35"))  # fmt: skip
        assert refused == "Bob picks game 1's machine (the higher seed picks game 1)."
        picked = await command(bob, "playoffs pick", {"machine": "Medieval Madness"},
                               at(PLAYOFFS, "19:36"))  # fmt: skip
        assert picked == "Game 1 of your semifinal: Medieval Madness."
        refused = await command(bob, "score", {"game": 1, "score": "900M"}, at(PLAYOFFS, "19:40"))
        assert refused.startswith("Tonight's playoffs are a bracket")
        tie = await league("playoffs game", {"player": "Dan", "score": "500M",
                           "opponent_score": "500M"}, at(PLAYOFFS, "19:50"))  # fmt: skip
        assert tie.startswith("An exact tie is replayed on the same machine")
        await league("playoffs game", {"player": "Dan", "score": "500M",
                     "opponent_score": "400M"}, at(PLAYOFFS, "19:55"))  # fmt: skip
        (semi,) = await announced(standin, world, "**League · Semifinal**: Dan beats Bob")
        assert "Next: final, 1. Ann v 3. Dan; Ann picks game 1's machine on its card." in semi
        assert "Semifinal · 2. Bob v 3. Dan: **Dan** 1–0\nFinal · 1. Ann v 3. Dan: to play" in semi

        # The final on its card (R13.3): Ann taps Pick the machine and picks from
        # a private menu; the commissioner taps Enter a game and fills in the form.
        await bot.outbox.settled()
        (card,) = [m for m in standin.channel_messages(world.announcements)
                   if m["embeds"] and m["embeds"][0]["title"] == "League · Final"]  # fmt: skip
        buttons = {c["label"]: c["custom_id"] for row in card["components"]
                   for c in row["components"]}  # fmt: skip
        assert list(buttons) == ["Pick the machine", "Enter a game"]
        standin.set_time(at(PLAYOFFS, "20:10"))
        refused = await (await standin.click(dan, card["id"], buttons["Pick the machine"])).done(
            timeout=10, quiet=0.05
        )
        assert (refused.ephemeral, refused.content) == (
            True, "Ann picks game 1's machine (the higher seed picks game 1).")  # fmt: skip
        offered = await (await standin.click(ann, card["id"], buttons["Pick the machine"])).done(
            timeout=10, quiet=0.05
        )
        private = offered.messages[-1]
        (menu,) = [c for row in private["components"] for c in row["components"]]
        chosen = next(o["value"] for o in menu["options"] if o["label"] == "Attack from Mars")
        clicked = await standin.click(ann, private["id"], menu["custom_id"], values=[chosen])
        picked = await clicked.done(timeout=10, quiet=0.05)
        assert picked.content == "Game 1 of your final: Attack from Mars."
        standin.set_time(at(PLAYOFFS, "20:15"))
        opened = await (await standin.click(koi, card["id"], buttons["Enter a game"])).done(
            timeout=10, quiet=0.05
        )
        assert opened.modal is not None
        boxes = [row["component"] for row in opened.modal["components"]]
        assert [row["label"] for row in opened.modal["components"]] == ["Ann's score",
                                                                        "Dan's score"]  # fmt: skip
        done = await standin.submit_modal(
            koi, opened.modal["custom_id"],
            {boxes[0]["custom_id"]: "1B", boxes[1]["custom_id"]: "2B"}, channel_id=general,
        )  # fmt: skip
        said = (await done.done(timeout=10, quiet=0.05)).content
        assert said.startswith("Game 1 of the final recorded.")
        await bot.outbox.settled()
        (card,) = [m for m in standin.channel_messages(world.announcements)
                   if m["embeds"] and m["embeds"][0]["title"] == "League · Final"]  # fmt: skip
        assert card["embeds"][0]["description"].splitlines() == [
            "1. Ann v 3. Dan · best of 1",
            "Game 1 · Attack from Mars (Ann's pick): Ann 1,000,000,000, Dan 2,000,000,000 → Dan",
            "**Dan wins 1–0**",
        ]
        assert card["components"] == []  # decided: its buttons are gone
        (champion,) = await announced(standin, world, "**Playoffs · League champion")
        assert (
            champion
            == "**Playoffs · League champion: Dan**\nWon the final 1–0.\n2nd: Ann\n3rd: Bob"
        )
        (summary,) = await announced(standin, world, "**Spring: the season is over**")
        assert "League champion: Dan (won the playoffs)" in summary

        # A correction after the champion was posted: Ann had the higher score.
        said = await league("playoffs fix", {"player": "Ann", "round": "final", "game": 1,
                            "score": "3B", "opponent_score": "2B",
                            "reason": "read the wrong display"}, at(PLAYOFFS, "21:00"))  # fmt: skip
        assert said.startswith("Game 1 of the final corrected.")
        posts = await announced(standin, world, "**Playoffs · League champion", count=2)
        assert [p.split("\n")[0] for p in posts] == [
            "**Playoffs · League champion: Dan**", "**Playoffs · League champion: Ann**",
        ]  # fmt: skip
        board = await command(cat, "playoffs bracket", {}, at(PLAYOFFS, "21:05"))
        assert "🏆 League champion: Ann" in board
