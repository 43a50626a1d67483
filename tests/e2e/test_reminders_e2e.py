"""Reminders through the real bot and the loopback Discord: players who asked
with /remind get their league-day DM with the day's groupings (their time and
group, and the attendance buttons), a tap on "Can't make it" in that DM is
their absence in their league (the board says so), a player who did not ask
gets nothing, and one whose DMs are closed is never pinged in public."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import demo, stage
from bot.demo_night import LeagueNight
from bot.demo_script import NIGHT, TOKEN, at
from bot.transcript import Transcript, shown
from standin import DiscordStandIn
from standin.commands import InvalidInvocation


async def test_league_day_reminders_and_their_buttons_in_a_dm(tmp_path: Path) -> None:
    standin = DiscordStandIn(token=TOKEN)
    await standin.start()
    try:
        world = demo.build_world(standin)
        night = LeagueNight(standin, world, Transcript(world.names(), {}, out=None))
        settings = demo.settings_for(standin, world, tmp_path / "league.sqlite3")
        async with stage.running_bot(settings) as bot:
            night.bot = bot
            await night.set_up()
            ann, bob, cat = (world.players[n] for n in ("Ann", "Bob", "Cat"))
            for member in (ann, bob):
                asked = await night.run(member, "remind", {"league_day": True}, quiet=True)
                assert asked.ephemeral and "- on: league day" in asked.content
            standin.close_dms(bob)
            await night.scheduled("groupings", at(NIGHT, "12:00"))
            (dm,) = standin.dms(ann)
            assert dm["content"] == (
                "**League night tonight** · week 1 at 19:15, Group 1 with Bob and Cat.\n"
                "Running late or can't come? Tell us by 15:00 with one tap:"
            )
            buttons = {c["label"]: c["custom_id"] for row in dm["components"]
                       for c in row["components"]}  # fmt: skip
            assert list(buttons) == ["Running late…", "Can't make it", "Cancel my notice"]
            assert standin.dms(bob) == [] and standin.dms(cat) == []
            public = [shown(m) for m in standin.channel_messages(world.announcements)]
            assert not any(f"<@{bob}>" in text for text in public)  # closed DMs: nothing
            standin.set_time(at(NIGHT, "13:00"))
            with pytest.raises(InvalidInvocation):  # only Ann sees her DM
                await standin.click(cat, int(dm["id"]), buttons["Can't make it"])
            tapped = await standin.click(ann, int(dm["id"]), buttons["Can't make it"])
            await tapped.done(timeout=10, quiet=0.05)
            assert tapped.ephemeral
            assert tapped.content.startswith("Noted: Ann will be absent on week 1")
            await night.delivered()
            board = next(shown(m) for m in standin.channel_messages(world.approvals)
                         if shown(m).startswith("**Attendance · week 1"))  # fmt: skip
            assert "**Out (1):** Ann" in board
    finally:
        await standin.stop()
