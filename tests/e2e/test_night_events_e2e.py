"""League nights in the server's Events, through the real bot and the loopback
Discord: a server administrator sets the venue with /setup-night; without
Manage Events the bot says so and nothing else changes; given it, each night
still to come is an external event at the venue and the league's play time
(R1.3), moved when a date is skipped (R1.2) or the time changes, linked to
the groupings once they are posted, and gone when the venue is taken away.
/setup-night also sets the weekday of the next season and the league's times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.demo_script import NIGHT, at
from standin import CommandNotPermitted, DiscordStandIn
from tests.e2e.demo_league import demo_league

MANAGE_EVENTS = 1 << 33
VENUE = "Pinball Pub, 12 Main St"


def starts(event: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(event["scheduled_start_time"]).astimezone(UTC)


def by_start(standin: DiscordStandIn, guild: int) -> list[dict[str, Any]]:
    return sorted(standin.scheduled_events(guild), key=starts)


async def test_league_nights_are_events_at_the_venue_kept_in_line_R1_2_R1_3(
    tmp_path: Path,
) -> None:
    async with demo_league(tmp_path) as league:
        standin, world, night, bot = league.standin, league.world, league.night, league.bot
        koi, guild = world.commissioner, world.guild
        await night.set_up()  # Winter 2026: ten Wednesdays from NIGHT, play at 19:15
        with pytest.raises(CommandNotPermitted):  # Discord offers it to admins only
            await standin.invoke(world.players["Ann"], "setup-night", {"venue": VENUE},
                                 channel_id=world.general)  # fmt: skip

        said = await night.run(koi, "setup-night", {"venue": VENUE}, quiet=True)
        assert said.ephemeral
        assert f"Events: each league night is in the server's Events, at {VENUE}." in (said.content)
        assert (
            "- League nights in the server's Events: the bot's role lacks Manage Events "
            "(Server Settings → Roles). Until then, league nights do not show in the "
            "server's Events."
        ) in said.content
        await bot.night_events.sync(guild)
        assert standin.scheduled_events(guild) == []  # nothing else breaks
        status = await night.run(koi, "league admin status", quiet=True)
        assert "League nights in the server's Events: the bot's role lacks" in status.content

        # Week 1's event made just before a stop, not recorded: taken over, not doubled.
        made_before = standin.add_scheduled_event(guild, standin.bot_user.id, {
            "name": "Koi's Pinball League · Week 1", "entity_type": 3,
            "scheduled_start_time": at(NIGHT, "19:15").isoformat(),
            "scheduled_end_time": at(NIGHT, "23:15").isoformat(),
            "entity_metadata": {"location": VENUE}, "privacy_level": 2,
        })  # fmt: skip
        standin.grant_bot(guild, MANAGE_EVENTS)
        await bot.night_events.sync(guild)
        events = by_start(standin, guild)
        assert len(events) == 10 and events[0]["id"] == str(made_before)
        first = events[0]
        assert first["name"] == "Koi's Pinball League · Week 1"
        assert first["entity_type"] == 3 and first["entity_metadata"] == {"location": VENUE}
        assert starts(first) == at(NIGHT, "19:15")  # the league's play time, its zone
        assert starts(events[1]) == at(NIGHT + timedelta(days=7), "19:15")
        assert "groupings are posted in the league's channel" in first["description"]
        again = await night.run(koi, "league admin status", quiet=True)
        assert "League nights in the server's Events: ok" in again.content
        assert ("League nights: Wednesdays · groupings 12:00 · late notices by 15:00 · "
                "play 19:15") in again.content  # fmt: skip

        # A date skipped: the nights from it move a week on, and so do their events.
        week_2 = (NIGHT + timedelta(days=7)).isoformat()
        await night.run(koi, "league season skip", {"date": week_2}, quiet=True)
        await bot.night_events.sync(guild)
        moved = by_start(standin, guild)
        assert [e["id"] for e in moved] == [e["id"] for e in events]  # edited, not made again
        assert starts(moved[1]) == at(NIGHT + timedelta(days=14), "19:15")

        # One deleted by someone in Discord stays deleted until its night changes.
        del standin.events.by_id[int(by_start(standin, guild)[-1]["id"])]
        await bot.night_events.sync(guild)
        assert len(standin.scheduled_events(guild)) == 9
        # The play time changed by the administrator: every event follows (and the
        # deleted one is made again).
        late = await night.run(koi, "setup-night", {"starts": "19:30"}, quiet=True)
        assert late.content == (
            "Play (19:30) must come before the grace end (19:30). Nothing was changed."
        )
        changed = await night.run(koi, "setup-night", {"starts": "19:30", "grace_until": "20:00"},
                                  quiet=True)  # fmt: skip
        assert "play 19:30, grace until 20:00" in changed.content
        await bot.night_events.sync(guild)
        assert starts(by_start(standin, guild)[0]) == at(NIGHT, "19:30")
        assert len(standin.scheduled_events(guild)) == 10

        # The groupings posted: the night's event links to them.
        await night.scheduled("groupings", at(NIGHT, "12:00"))
        await bot.night_events.sync(guild)
        (post,) = [m for m in standin.channel_messages(world.announcements)
                   if m["embeds"] and "Group 1" in str(m["embeds"])][:1]  # fmt: skip
        link = f"https://discord.com/channels/{guild}/{world.announcements}/{post['id']}"
        assert link in by_start(standin, guild)[0]["description"]
        # Picks locked before play starts: tonight's event stays.
        standin.set_time(at(NIGHT, "18:30"))
        await night.run(koi, "league night lock", quiet=True)
        await bot.night_events.sync(guild)
        assert len(standin.scheduled_events(guild)) == 10
        assert starts(by_start(standin, guild)[0]) == at(NIGHT, "19:30")

        # No venue any more: the events still to come go.
        off = await night.run(koi, "setup-night", {"venue": "none"}, quiet=True)
        assert "Events: off" in off.content
        await bot.night_events.sync(guild)
        assert standin.scheduled_events(guild) == []


async def test_setup_night_sets_the_weekday_of_the_next_season_and_the_times_R1_1_R1_3(
    tmp_path: Path,
) -> None:
    async with demo_league(tmp_path) as league:
        standin, world, night, bot = league.standin, league.world, league.night, league.bot
        koi = world.commissioner
        standin.set_time(at(NIGHT - timedelta(days=9), "10:00"))
        early = await night.run(koi, "setup-night", {"starts": "20:00"}, quiet=True)
        assert early.content == (
            "The league's times are set once it is named: a commissioner names it with "
            "/league season setup. Nothing was changed."
        )
        shown = await night.run(koi, "setup-night", quiet=True)
        assert "Times: set once a commissioner names the league" in shown.content
        await night.run(koi, "league season setup", {"name": "Koi's Pinball League"},
                        quiet=True)  # fmt: skip
        set_ = await night.run(koi, "setup-night", {
            "weekday": "Thursday", "starts": "20:00", "late_notices_by": "16:00",
            "grace_until": "20:15", "picks_lock_at": "19:45",
            "group_threads": True,
        }, quiet=True)  # fmt: skip
        assert set_.content.startswith("Saved. The league nights:")
        assert "Weekday: Thursdays." in set_.content
        assert "late notices by 16:00" in set_.content and "play 20:00" in set_.content
        assert "Thread per group: on." in set_.content
        typed = {"late_notices_by": "21:00", "weekday": "Friday"}
        backwards = await night.run(koi, "setup-night", typed, quiet=True)
        assert backwards.content == (
            "The late-notice cutoff (21:00) must come before picks lock (19:45). Nothing was "
            "changed."
        )
        bad = await night.run(koi, "setup-night", {"starts": "25:00", "weekday": "Friday"},
                              quiet=True)  # fmt: skip
        assert bad.ephemeral and "is not a time; type it as 19:15" in bad.content
        kept = await night.run(koi, "setup-night", quiet=True)
        assert "Weekday: Thursdays." in kept.content  # nothing of the bad one was saved
        long = await night.run(koi, "setup-night", {"venue": "\u200b\u200b"}, quiet=True)
        assert "venue" in long.content and "Events: off" not in long.content
        # A season started with no weekday given takes the administrator's.
        started = await night.run(koi, "league season start",
                                  {"name": "Winter 2026", "start": NIGHT.isoformat()},
                                  quiet=True)  # fmt: skip
        assert started.content.startswith("Season Winter 2026: Thursdays.")
        later = await night.run(koi, "setup-night", {"weekday": "Tuesday"}, quiet=True)
        assert ("Weekday: Tuesdays from the next season; this season's nights stay on "
                "Thursdays.") in later.content  # fmt: skip
        scheduler = bot.scheduler_of(world.guild)
        assert scheduler is not None
        job = scheduler.jobs()["post:cutoff"]  # the cutoff post follows the new time
        assert str(job.trigger) == "cron[day_of_week='3', hour='16', minute='0']"
