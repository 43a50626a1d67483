"""A league night you can watch without a Discord account.

`league-bot demo` starts the loopback Discord stand-in (`standin`), the real
bot against it, and plays a scripted night: the commissioner sets up a season,
seven players get their groups, one is late after the cutoff, one is absent and
scored from pre-makeups, dues are paid in one command, the scores come in by
/score-form (one scorekeeper enters a game for the group), the commissioner
rejects a typo from its scorecard with a reason, its player hears why by DM,
looks at /me and sends it again, the cards are approved, the night finalized.
It prints the transcript as a person in the server would read it, in under
200 lines of at most 100 characters (repetitive set-up summed up in a line,
long answers cut to their first lines, saying how many are left out), and
leaves the SQLite file behind to look at.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from bot import stage
from bot.config import Settings
from bot.demo_night import LeagueNight
from bot.demo_playoffs import PlayoffNight
from bot.demo_script import ABSENT, PLAYERS, TOKEN
from bot.stage import Stage, build_stage, running_bot
from bot.transcript import Transcript
from standin import DiscordStandIn


def build_world(standin: DiscordStandIn) -> Stage:
    """The demo league's server: Koi and the seven players."""
    return build_stage(standin, "Koi's Pinball League", PLAYERS)


def settings_for(standin: DiscordStandIn, world: Stage, database: Path) -> Settings:
    """The demo bot's settings, with the demo's token."""
    return stage.settings_for(standin, world, database, TOKEN)


def _fresh_database(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("demo-league.sqlite3*"):
        stale.unlink()
    return folder / "demo-league.sqlite3"


async def run_demo(
    folder: Path, out: Callable[[str], None] = print, *, playoffs: bool = False
) -> Path:
    """Play the scripted night; return the SQLite file it leaves behind. With
    `playoffs`, the night is summed up, is the season's last, and its playoff
    night is played to the champion (`bot.demo_playoffs`)."""
    database = await asyncio.to_thread(_fresh_database, folder)
    standin = DiscordStandIn(token=TOKEN, bot_name="League Bot")
    await standin.start()
    try:
        world = build_world(standin)
        names = world.names()
        channels = {world.announcements: "league-announcements", world.approvals: "score-approvals"}
        transcript = Transcript(names, channels, out=None if playoffs else out)
        night = LeagueNight(standin, world, transcript)
        async with running_bot(settings_for(standin, world, database)) as bot:
            night.bot = bot
            night.group_threads = True
            await night.set_up()
            await night.afternoon()
            await night.dues()
            present = [n for n in PLAYERS if n != ABSENT]
            await night.scores(present, keeper=("Dan", 1), shown=("Bob",))
            await night.approve()
            if playoffs:
                night.t = Transcript(names, channels, out=out)
                night.t.say("The demo's league night is played as in `league-bot demo` "
                            "(not shown): seven players, six machines, one late and one "
                            "absent.")  # fmt: skip
                finale = PlayoffNight(night)
                await finale.play(await finale.last_night())
            else:
                await night.finish()
    finally:
        await standin.stop()
    out(f"\nThe league's database is left for you to look around:\n  sqlite3 {database}")
    return database


def main(folder: str = "demo", *, playoffs: bool = False) -> None:
    asyncio.run(run_demo(Path(folder), playoffs=playoffs))
