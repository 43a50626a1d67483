"""`league-bot demo --playoffs`: the demo's night as the season's last, then its
playoff night, through the stand-in only (R13). The regular night is played as
in the plain demo but summed up in a line; the season is one night long, so its
finalizing sets playoff night a week later with the top two of the standings.
On playoff night the second seed cannot come, the first alternate checks in and
takes the place at the end of the grace period, the final group is played and
approved from its scorecard, and the champion, prizes and summary are posted.
"""

from __future__ import annotations

from datetime import timedelta

from bot.demo_night import LeagueNight
from bot.demo_script import MACHINES, NIGHT, at
from bot.services import playoffs
from bot.services.outcomes.playoffs import PlayoffNightShown
from bot.transcript import Transcript

PLAYOFFS = NIGHT + timedelta(days=7)
SCORES = (410_000_000, 330_000_000)  # the champion's and the runner-up's, every game


class PlayoffNight:
    """Playoff night after the demo's regular night (`night`, played but not
    finalized yet)."""

    def __init__(self, night: LeagueNight) -> None:
        self.night = night

    async def last_night(self) -> PlayoffNightShown:
        """The season made one night long, the night finalized: playoff night is
        announced (only its announcement is shown)."""
        n = self.night
        koi = n.world.commissioner
        when = at(NIGHT, "22:45")
        n.standin.set_time(when)
        n.t.heading(when, "the last regular night is finalized")
        await n.run(koi, "league season setting", {"name": "regular_nights", "value": "1"})
        shown_so_far, n.t = n.t, Transcript(n.t.names, n.t.channels)  # its posts: not shown
        await n.run(koi, "league night finalize", expect="is final")
        n.t = shown_so_far
        n.t.say("Koi finalizes the night (/league night finalize); its results, standings and "
                "the regular season's summary are posted (not shown)")  # fmt: skip
        for message in n.standin.channel_messages(n.world.announcements):
            if (message.get("content") or "").startswith("**Playoffs:"):
                n.t.posted(n.world.announcements, message)
        assert n.bot is not None
        shown = await playoffs.night_shown(n.bot.db, n.bot.settings.guild_id or 0)
        assert isinstance(shown, PlayoffNightShown)
        return shown

    async def play(self, shown: PlayoffNightShown) -> None:
        n = self.night
        koi = n.world.commissioner
        (field,) = shown.divisions
        first, second = field.qualifiers
        alternate = field.alternates[0]
        await n.scheduled("groupings", at(PLAYOFFS, "12:00"))
        when = at(PLAYOFFS, "14:00")
        n.standin.set_time(when)
        n.t.heading(when, f"{second} cannot come")
        await n.run(n.member(second), "absent", expect="cannot come to playoff night")
        when = at(PLAYOFFS, "19:10")
        n.standin.set_time(when)
        n.t.heading(when, "check-in")
        await n.run(koi, "playoffs checkin", {"players": f"{first}, {alternate}"},
                    expect="Checked in")  # fmt: skip
        await n.scheduled("grace", at(PLAYOFFS, "19:30"))
        when = at(PLAYOFFS, "19:31")
        n.standin.set_time(when)
        n.t.heading(when, "the final group")
        machines = ", ".join(list(MACHINES)[:5])
        await n.run(koi, "playoffs start", {"machines": machines}, expect="has started")
        when = at(PLAYOFFS, "21:00")
        n.standin.set_time(when)
        for player, score in ((alternate, SCORES[0]), (first, SCORES[1])):
            for game in range(1, 6):
                options = {"game": game, "score": f"{score:,}"}
                await n.run(n.member(player), "score", options, expect="Submitted", quiet=True)
        n.t.say(f"{alternate} and {first} send their five scores each with /score (not shown)")
        when = at(PLAYOFFS, "21:30")
        n.standin.set_time(when)
        n.t.heading(when, "the commissioner approves: the champion")
        for card in n.approvals():
            await n.click(koi, card, "Approve all complete")
