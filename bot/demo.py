"""A league night you can watch without a Discord account.

`league-bot demo` starts the loopback Discord stand-in (`standin`), the real
bot against it, and plays a scripted night: the commissioner sets up a season,
seven players get their groups, one is late after the cutoff, one is absent and
scored from pre-makeups, everyone's scores are approved with the real buttons
(one rejected and typed again), the night is finalized and the standings shown.
It prints the transcript as a person in the server would read it and leaves
the SQLite file behind to look at.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.__main__ import point_at, use_gateway_of
from bot.client import LeagueBot
from bot.config import Settings, load_settings
from standin import MANAGE_GUILD, DiscordStandIn, Exchange

ZONE = ZoneInfo("America/New_York")
NIGHT = date(2026, 1, 7)  # a Wednesday: week 1
TOKEN = "demo-token.not-a-secret.0123456789abcdef"
MACHINES = {  # league machine order, par (R6.1)
    "Attack from Mars": "1B",
    "The Addams Family": "50M",
    "Medieval Madness": "20M",
    "Twilight Zone": "300M",
    "Theatre of Magic": "40M",
    "Monster Bash": "80M",
}
PLAYERS = {"Ann": 9, "Bob": 8, "Cat": 7, "Dan": 6, "Eve": 5, "Fay": 4, "Gus": 3}  # skill
ABSENT = "Gus"
# What each present player types as their score on each machine: the forms
# /score accepts (plain, grouped, and the k/M/B short forms).
SCORES: dict[str, dict[str, str]] = {
    "Ann": {
        "Attack from Mars": "2.1B",
        "The Addams Family": "61,250,000",
        "Medieval Madness": "25M",
        "Twilight Zone": "410000000",
        "Theatre of Magic": "52M",
        "Monster Bash": "90M",
    },
    "Bob": {
        "Attack from Mars": "1.3B",
        "The Addams Family": "40M",
        "Medieval Madness": "19,500,000",
        "Twilight Zone": "330M",
        "Theatre of Magic": "47M",
        "Monster Bash": "60,125,000",
    },
    "Cat": {
        "Attack from Mars": "650M",
        "The Addams Family": "48M",
        "Medieval Madness": "9M",
        "Twilight Zone": "310,000,000",
        "Theatre of Magic": "28M",
        "Monster Bash": "66M",
    },
    "Dan": {
        "Attack from Mars": "900M",
        "The Addams Family": "72M",
        "Medieval Madness": "14M",
        "Twilight Zone": "150M",
        "Theatre of Magic": "31,500,000",
        "Monster Bash": "120M",
    },
    "Eve": {
        "Attack from Mars": "700M",
        "The Addams Family": "55M",
        "Medieval Madness": "22M",
        "Twilight Zone": "280M",
        "Theatre of Magic": "36M",
        "Monster Bash": "75M",
    },
    "Fay": {
        "Attack from Mars": "400M",
        "The Addams Family": "21M",
        "Medieval Madness": "12,250,000",
        "Twilight Zone": "90M",
        "Theatre of Magic": "22M",
        "Monster Bash": "45M",
    },
}
PRE_MAKEUPS = {  # Gus's pre-makeup scores, played with Fay (R3.1)
    "Attack from Mars": "500M",
    "The Addams Family": "30M",
    "Medieval Madness": "15M",
    "Twilight Zone": "200M",
    "Theatre of Magic": "26M",
    "Monster Bash": "50M",
}
VETOES = {"Cat": "Attack from Mars", "Fay": "Medieval Madness"}  # R4: lowest ranks' picks win
TYPO = ("Bob", 2, "4.0M")  # Bob first types 4.0M for 40M: rejected, typed again


def at(day: date, clock: str) -> datetime:
    hour, minute = map(int, clock.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZONE)


def raw(text: str) -> int:
    from bot.parsing import parse_score

    return parse_score(text)


@dataclass(frozen=True)
class World:
    guild: int
    commissioner_role: int
    general: int
    announcements: int
    approvals: int
    commissioner: int
    players: dict[str, int]  # name -> member id


def build_world(standin: DiscordStandIn) -> World:
    guild = standin.add_guild("Koi's Pinball League")
    role = standin.add_role(guild, "Commissioner", permissions=MANAGE_GUILD)
    general = standin.add_channel(guild, "general")
    announcements = standin.add_channel(guild, "league-announcements")
    approvals = standin.add_channel(guild, "score-approvals")
    koi = standin.add_member(guild, "Koi", roles=[role])
    players = {name: standin.add_member(guild, name) for name in PLAYERS}
    return World(guild, role, general, announcements, approvals, koi, players)


def settings_for(
    standin: DiscordStandIn, world: World, database: Path, token: str = TOKEN
) -> Settings:
    return load_settings(
        env={
            "DISCORD_TOKEN": token,
            "LEAGUE_GUILD_ID": str(world.guild),
            "COMMISSIONER_ROLE_ID": str(world.commissioner_role),
            "ANNOUNCEMENT_CHANNEL_ID": str(world.announcements),
            "APPROVALS_CHANNEL_ID": str(world.approvals),
            "DATABASE_PATH": str(database),
            "DISCORD_API_BASE": standin.api_base,
            "BACKUP_DIR": str(database.parent / "backups"),
        }
    )


@contextlib.asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    sync: bool = True,
    clock: Callable[[], datetime] | None = None,
    standin: DiscordStandIn | None = None,
) -> AsyncIterator[LeagueBot]:
    """The real bot, logged in to the stand-in and READY; closed completely after.

    The stand-in sends every guild at once, so the bot need not wait the usual
    two seconds for more (guild_ready_timeout)."""
    assert settings.api_base is not None
    point_at(settings.api_base)
    bot = LeagueBot(settings, sync_commands=sync, clock=clock, guild_ready_timeout=0.1)
    connecting: asyncio.Task[None] | None = None
    try:
        await bot.login(settings.token.reveal())
        await use_gateway_of(bot)
        connecting = asyncio.create_task(bot.connect(reconnect=True), name="league-bot-connect")
        ready = asyncio.create_task(bot.wait_until_ready())
        finished, _ = await asyncio.wait(
            {connecting, ready}, timeout=15, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in finished:
            ready.cancel()
            await asyncio.gather(ready, return_exceptions=True)
            if connecting in finished:
                connecting.result()
            raise TimeoutError("the bot was not ready within 15 s")
        yield bot
    finally:
        if standin is not None:  # let the bot take every event already sent before it closes
            await standin.drained()
            await asyncio.sleep(0.05)
        await bot.close()
        if connecting is not None:
            try:
                await asyncio.wait_for(connecting, timeout=5)
            except TimeoutError:
                connecting.cancel()
                await asyncio.gather(connecting, return_exceptions=True)


@dataclass
class Transcript:
    """What a person in the server would have seen, in order."""

    names: dict[int, str]
    channels: dict[int, str]
    lines: list[str] = field(default_factory=list)
    out: Callable[[str], None] | None = None

    def say(self, text: str) -> None:
        self.lines.append(text)
        if self.out is not None:
            self.out(text)

    def heading(self, when: datetime, text: str) -> None:
        self.say(f"\n== {when:%a %d %b %H:%M} · {text} ==")

    def typed(self, member: int, command: str, options: dict[str, Any]) -> None:
        shown = " ".join(
            f"{k}:{self.names.get(v, v) if isinstance(v, int) else v}" for k, v in options.items()
        )
        self.say(f"{self.names.get(member, member)} › /{command} {shown}".rstrip())

    def answered(self, exchange: Exchange) -> None:
        for text in exchange.texts:
            who = "bot (only you)" if exchange.ephemeral else "bot"
            self.say(_indent(f"{who}: {text}"))

    def posted(self, channel: int, message: dict[str, Any]) -> None:
        buttons = [
            c.get("label") or c.get("placeholder")
            for row in message.get("components", [])
            for c in row.get("components", [])
        ]
        extra = f"  [{' | '.join(buttons)}]" if buttons else ""
        self.say(_indent(f"#{self.channels.get(channel, channel)} bot: {shown(message)}{extra}"))


def shown(message: dict[str, Any]) -> str:
    """A message as a phone shows it: its text, or its card (embed) line by line."""
    lines = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        lines += [f"**{embed.get('title', '')}**", embed.get("description", "")]
        for field_ in embed.get("fields", []):
            lines += [field_["name"], field_["value"]]
        lines.append((embed.get("footer") or {}).get("text", ""))
    return "\n".join(line for line in lines if line)


def _indent(text: str) -> str:
    return text.replace("\n", "\n    ")


class LeagueNight:
    """The scripted night, step by step, through the stand-in only."""

    def __init__(self, standin: DiscordStandIn, world: World, transcript: Transcript) -> None:
        self.standin = standin
        self.world = world
        self.t = transcript
        self.bot: LeagueBot | None = None
        self._seen: dict[int, int] = {}

    # -- acting ------------------------------------------------------------
    async def run(self, who: int, command: str, options: dict[str, Any] | None = None) -> Exchange:
        options = options or {}
        self.t.typed(who, command, options)
        exchange = await self.standin.invoke(who, command, options, channel_id=self.world.general)
        await exchange.done(timeout=10, quiet=0.05)
        self.t.answered(exchange)
        await self.delivered()
        self.flush()
        return exchange

    async def click(
        self, who: int, message: dict[str, Any], label: str, values: list[str] | None = None
    ) -> Exchange:
        """Click the button `label`, or pick `values` in the menu whose placeholder is `label`."""
        button = next(
            c
            for row in message["components"]
            for c in row["components"]
            if label in (c.get("label"), c.get("placeholder"))
        )
        self.t.say(f"{self.t.names[who]} clicks [{label}] on “{shown(message).splitlines()[0]}…”")
        exchange = await self.standin.click(
            who, int(message["id"]), button["custom_id"], values=values
        )
        await exchange.done(timeout=10, quiet=0.05)
        if exchange.modal is not None:
            self.t.say(_indent(f"bot asks: {exchange.modal['title']}"))
            return exchange
        if exchange.ephemeral or exchange.reply is not None:
            self.t.answered(exchange)
        else:
            self.t.say(_indent(f"bot edits it: {exchange.content}"))
        await self.delivered()
        self.flush()
        return exchange

    async def delivered(self) -> None:
        """Wait until the bot's outbox has sent what the last action owed."""
        if self.bot is not None:
            async with asyncio.timeout(10):
                await self.bot.outbox.settled()

    async def scheduled(self, kind: str, when: datetime) -> None:
        """A scheduled post: the bot's own job body, at the league's wall-clock time."""
        assert self.bot is not None and self.bot.scheduler is not None
        self.standin.set_time(when)
        self.t.heading(when, f"scheduled {kind} post")
        await self.bot.scheduler.post(kind, when)  # owed to the outbox …
        await self.delivered()  # … and sent by it
        self.flush()

    def flush(self) -> None:
        """Print channel posts made since the last look."""
        for channel in (self.world.announcements, self.world.approvals):
            messages = self.standin.channel_messages(channel)
            for message in messages[self._seen.get(channel, 0) :]:
                self.t.posted(channel, message)
            self._seen[channel] = len(messages)

    async def reject(self, who: int, card: dict[str, Any], which: str, reason: str) -> Exchange:
        """Reject the score whose menu option reads `which`, giving `reason` in the modal."""
        menu = next(
            c
            for row in card["components"]
            for c in row["components"]
            if c.get("placeholder") == "Reject a score…"
        )
        value = next(o["value"] for o in menu["options"] if o["label"] == which)
        opened = await self.click(who, card, "Reject a score…", [value])
        assert opened.modal is not None, "the bot did not ask for a reason"
        reason_id = opened.modal["components"][0]["components"][0]["custom_id"]
        self.t.say(_indent(f"{self.t.names[who]} types: {reason}"))
        exchange = await self.standin.submit_modal(
            who, opened.modal["custom_id"], {reason_id: reason}, channel_id=self.world.approvals
        )
        await exchange.done(timeout=10, quiet=0.05)
        self.t.answered(exchange)
        await self.delivered()
        self.flush()
        return exchange

    def approvals(self) -> list[dict[str, Any]]:
        """Approval posts still showing their buttons."""
        return [
            m for m in self.standin.channel_messages(self.world.approvals) if m.get("components")
        ]

    def member(self, name: str) -> int:
        return self.world.players[name]

    # -- the night ---------------------------------------------------------
    async def set_up(self) -> None:
        koi = self.world.commissioner
        when = at(NIGHT - timedelta(days=2), "10:00")
        self.standin.set_time(when)
        self.t.heading(when, "the commissioner sets up the season")
        await self.run(koi, "league season setup", {"name": "Koi's Pinball League"})
        await self.run(
            koi, "league season start", {"name": "Winter 2026", "start": NIGHT.isoformat()}
        )
        for machine, par in MACHINES.items():
            await self.run(koi, "league machine add", {"name": machine, "par": par})
        for name, skill in PLAYERS.items():
            await self.run(koi, "league player add", {"member": self.member(name), "skill": skill})
        when = at(NIGHT - timedelta(days=1), "21:00")
        self.standin.set_time(when)
        self.t.heading(when, f"{ABSENT} plays pre-makeup games with Fay (R3.1)")
        for machine, score in PRE_MAKEUPS.items():
            await self.run(
                self.member(ABSENT),
                "premakeup",
                {"machine": machine, "score": score, "with": self.member("Fay")},
            )
        for message in self.approvals():
            await self.click(koi, message, "Approve all complete")

    async def afternoon(self) -> None:
        await self.scheduled("groupings", at(NIGHT, "12:00"))
        when = at(NIGHT, "13:30")
        self.standin.set_time(when)
        self.t.heading(when, "notices")
        await self.run(self.member(ABSENT), "absent", {"note": "work trip"})
        await self.scheduled("cutoff", at(NIGHT, "15:00"))
        when = at(NIGHT, "16:40")
        self.standin.set_time(when)
        self.t.heading(when, "a late notice after the cutoff")
        await self.run(self.member("Dan"), "late", {"minutes": 10, "note": "traffic on 22"})
        when = at(NIGHT, "18:30")
        self.standin.set_time(when)
        self.t.heading(when, "vetoes (R4)")
        for name, machine in VETOES.items():
            await self.run(self.member(name), "veto", {"machine": machine})
        await self.scheduled("lock", at(NIGHT, "19:15"))

    def games_of(self, name: str) -> list[str]:
        """The player's group's games in order, from the lock post."""
        lock = next(
            m["content"]
            for m in self.standin.channel_messages(self.world.announcements)
            if "picks are locked" in m["content"]
        )
        for line in lock.splitlines():
            if line.startswith("**Group") and name in self.group_line(line):
                return [g.split(". ", 1)[1] for g in line.split(": ", 1)[1].split(", ")]
        raise LookupError(name)

    def group_line(self, lock_line: str) -> list[str]:
        groupings = next(
            m["content"]
            for m in self.standin.channel_messages(self.world.announcements)
            if "Game 1 play order" in m["content"]
        )
        label = lock_line.split("**")[1]
        for line in groupings.splitlines():
            if line.startswith(f"**{label}**"):
                return [p.strip() for p in line.split(": ", 1)[1].split(",")]
        return []

    async def scores(self, names: list[str]) -> None:
        when = at(NIGHT, "20:00")
        self.standin.set_time(when)
        self.t.heading(when, f"scores from {', '.join(names)}")
        for name in names:
            for number, machine in enumerate(self.games_of(name), start=1):
                typed = SCORES[name][machine]
                if (name, number) == TYPO[:2]:
                    typed = TYPO[2]
                await self.run(self.member(name), "score", {"game": number, "score": typed})

    async def approve(self) -> None:
        koi = self.world.commissioner
        when = at(NIGHT, "22:00")
        self.standin.set_time(when)
        self.t.heading(when, "the commissioner approves")
        name, number, typed = TYPO
        machine = self.games_of(name)[number - 1]
        typo = f"{name} {raw(typed):,} · Game {number} · {machine}"
        for card in self.approvals():
            if typo in shown(card) or any(
                o["label"] == typo
                for row in card["components"]
                for c in row["components"]
                for o in c.get("options", [])
            ):
                await self.reject(koi, card, typo, "That looks like a typo: one zero short?")
        await self.run(self.member(name), "score", {"game": number, "score": SCORES[name][machine]})
        for card in self.approvals():
            await self.click(koi, card, "Approve all complete")

    async def dues(self) -> None:
        """R10.1: everyone's $6.00; half of it is tonight's payout pot."""
        when = at(NIGHT, "19:05")
        self.standin.set_time(when)
        self.t.heading(when, "dues")
        for name in PLAYERS:
            await self.run(
                self.world.commissioner, "league money dues", {"players": name, "week": 1}
            )

    async def finish(self) -> None:
        koi = self.world.commissioner
        when = at(NIGHT, "22:45")
        self.standin.set_time(when)
        self.t.heading(when, "the night is finalized")
        await self.run(koi, "league night finalize")
        await self.run(self.member("Ann"), "standings")
        await self.run(self.member("Ann"), "groups", {"week": 2})


def _fresh_database(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("demo-league.sqlite3*"):
        stale.unlink()
    return folder / "demo-league.sqlite3"


async def run_demo(folder: Path, out: Callable[[str], None] = print) -> Path:
    """Play the scripted night; return the SQLite file it leaves behind."""
    database = await asyncio.to_thread(_fresh_database, folder)
    standin = DiscordStandIn(token=TOKEN, bot_name="League Bot")
    await standin.start()
    try:
        world = build_world(standin)
        names = {world.commissioner: "Koi", **{v: k for k, v in world.players.items()}}
        channels = {world.announcements: "league-announcements", world.approvals: "score-approvals"}
        transcript = Transcript(names, channels, out=out)
        night = LeagueNight(standin, world, transcript)
        async with running_bot(settings_for(standin, world, database)) as bot:
            night.bot = bot
            await night.set_up()
            await night.afternoon()
            await night.dues()
            await night.scores([n for n in PLAYERS if n != ABSENT])
            await night.approve()
            await night.finish()
    finally:
        await standin.stop()
    out(f"\nThe league's database is {database}: open it with sqlite3 to look around.")
    return database


def main(folder: str = "demo") -> None:
    asyncio.run(run_demo(Path(folder)))
