"""The demo's scripted night, step by step, through the stand-in only: each
step acts as a member of the server would, checks the bot's answer and writes
what a person in the server would read to the transcript."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from bot import demo_attendance
from bot.client import LeagueBot
from bot.demo_script import (
    ABSENT,
    MACHINES,
    NIGHT,
    PLAYERS,
    PRE_MAKEUPS,
    SCORES,
    TYPO,
    VETOES,
    at,
    raw,
)
from bot.stage import Stage
from bot.transcript import Transcript, indent, shown
from standin import DiscordStandIn, Exchange
from standin.threads import THREAD_CREATED


class NotAsScripted(AssertionError):
    """A step of the night did not get the answer the script expects."""


class LeagueNight:
    """The scripted night, step by step, through the stand-in only."""

    def __init__(self, standin: DiscordStandIn, world: Stage, transcript: Transcript) -> None:
        self.standin = standin
        self.world = world
        self.t = transcript
        self.bot: LeagueBot | None = None
        self._seen: dict[int, int] = {}
        self.group_threads = False  # the demo's own night: a thread per group

    # -- acting ------------------------------------------------------------
    async def run(
        self,
        who: int,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        expect: str | None = None,
        quiet: bool = False,
        most: int | None = None,
    ) -> Exchange:
        """Run a slash command. `quiet`: run and check it but leave it out of the
        transcript (the caller says what it did in a line). `expect`: text the
        answer must contain, else the night stops. `most`: lines of the answer shown."""
        options = options or {}
        if not quiet:
            self.t.typed(who, command, options)
        exchange = await self.standin.invoke(who, command, options, channel_id=self.world.general)
        await exchange.done(timeout=10, quiet=0.05)
        if expect is not None and expect not in exchange.content:
            raise NotAsScripted(f"/{command} {options} answered {exchange.content!r}")
        if not quiet:
            self.t.answered(exchange, most)
        await self.delivered()
        self.flush()
        return exchange

    async def form(
        self,
        who: int,
        entries: dict[str, str],
        game: int | None = None,
        *,
        quiet: bool = False,
        most: int | None = None,
    ) -> Exchange:
        """Open /score-form (for `game`, or one's own games) and fill each field
        whose label is in `entries` with its text; the others stay blank."""
        options = {"game": game} if game is not None else {}
        opened = await self.standin.invoke(
            who, "score-form", options, channel_id=self.world.general
        )
        await opened.done(timeout=10, quiet=0.05)
        if opened.modal is None:
            raise NotAsScripted(f"/score-form {options} answered {opened.content!r}")
        if not quiet:
            self.t.typed(who, "score-form", options)
        exchange = await self.fill(who, opened, entries, quiet=quiet)
        if not quiet:
            self.t.answered(exchange, most)
        await self.delivered()
        self.flush()
        return exchange

    async def fill(
        self, who: int, opened: Exchange, entries: dict[str, str], *, quiet: bool = False
    ) -> Exchange:
        """Fill each field of the form the bot `opened` whose label is in
        `entries` with its text (the others stay blank) and submit it."""
        assert opened.modal is not None
        fields = {row["label"]: row["component"]["custom_id"] for row in opened.modal["components"]}
        filled = {label: text for label, text in entries.items() if label in fields}
        if not quiet:
            typed = " | ".join(f"{label}: {text}" for label, text in filled.items())
            self.t.say(indent(f"form “{opened.modal['title']}”, filled in: {typed}"))
        exchange = await self.standin.submit_modal(
            who,
            opened.modal["custom_id"],
            {fields[label]: text for label, text in filled.items()},
            channel_id=self.world.general,
        )
        await exchange.done(timeout=10, quiet=0.05)
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
        self.t.say(f"{self.t.names[who]} clicks [{label}] on “{_title(message)}”")
        exchange = await self.standin.click(
            who, int(message["id"]), button["custom_id"], values=values
        )
        await exchange.done(timeout=10, quiet=0.05)
        if exchange.modal is not None:
            self.t.say(indent(f"bot asks: {exchange.modal['title']}"))
            return exchange
        if exchange.ephemeral or exchange.reply is not None:
            self.t.answered(exchange)
        else:
            self.t.say(indent(f"bot edits it: {exchange.content}"))
        await self.delivered()
        self.flush()
        return exchange

    async def delivered(self) -> None:
        """Wait until the bot's outbox has sent what the last action owed."""
        if self.bot is not None:
            async with asyncio.timeout(10):
                await self.bot.outbox.settled()

    async def scheduled(self, kind: str, when: datetime, most: int | None = None) -> None:
        """A scheduled post: the bot's own job body, at the league's wall-clock time;
        `most`: lines of the post shown."""
        assert self.bot is not None
        scheduler = self.bot.scheduler_of(self.bot.settings.guild_id)
        assert scheduler is not None
        self.standin.set_time(when)
        self.t.heading(when, f"scheduled {kind} post")
        await scheduler.post(kind, when)  # owed to the outbox …
        await self.delivered()  # … and sent by it
        self.flush(most)

    def flush(self, most: int | None = None) -> None:
        """Print the posts and DMs made since the last look. A scorecard is named
        when it is posted and shown whole when the commissioner looks (`cards`):
        it is edited with every score in between."""
        for channel in (self.world.announcements, self.world.approvals):
            messages = self.standin.channel_messages(channel)
            for message in messages[self._seen.get(channel, 0) :]:
                if message.get("type") == THREAD_CREATED:  # Discord's own line in the channel
                    self.t.say(indent(f"bot starts a thread: {message['content']}"))
                elif _is_card(message):
                    where = self.t.channels.get(channel, channel)
                    self.t.say(indent(f"#{where} bot posts a scorecard: {_title(message)}"))
                else:
                    self.t.posted(channel, message, most)
            self._seen[channel] = len(messages)
        for member in self.world.players.values():
            messages = self.standin.dms(member)
            for message in messages[self._seen.get(member, 0) :]:
                self.t.dm(member, message)
            self._seen[member] = len(messages)

    def cards(self) -> None:
        """The commissioner looks at the open scorecards."""
        for card in self.approvals():
            self.t.posted(self.world.approvals, card)

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
        self.t.say(indent(f"{self.t.names[who]} picks “{which}” and types: {reason}"))
        exchange = await self.standin.submit_modal(
            who, opened.modal["custom_id"], {reason_id: reason}, channel_id=self.world.approvals
        )
        await exchange.done(timeout=10, quiet=0.05)
        self.t.answered(exchange)
        await self.delivered()
        self.flush()
        return exchange

    def approvals(self) -> list[dict[str, Any]]:
        """Approval posts still showing their buttons (not the attendance board)."""
        return [m for m in self.standin.channel_messages(self.world.approvals) if _is_card(m)]

    def member(self, name: str) -> int:
        return self.world.players[name]

    # -- the night ---------------------------------------------------------
    async def set_up(self) -> None:
        koi = self.world.commissioner
        when = at(NIGHT - timedelta(days=2), "10:00")
        self.standin.set_time(when)
        self.t.heading(when, "the commissioner sets up the season")
        await self.run(
            koi, "league season setup", {"name": "Koi's Pinball League"}, expect="is set up"
        )
        await self.run(
            koi, "league season start", {"name": "Winter 2026", "start": NIGHT.isoformat()}
        )
        for machine, par in MACHINES.items():
            options: dict[str, Any] = {"name": machine, "par": par}
            await self.run(koi, "league machine add", options, expect="added", quiet=True)
        for name, skill in PLAYERS.items():
            options = {"member": self.member(name), "skill": skill}
            await self.run(koi, "league player add", options, expect="joined", quiet=True)
        self.t.say(f"Koi adds {len(MACHINES)} machines with their pars and {len(PLAYERS)} "
                   "players with their skill (/league machine add, /league player add; "
                   "not shown)")  # fmt: skip
        await demo_attendance.group_threads_on(self)  # the demo's own night only
        when = at(NIGHT - timedelta(days=1), "21:00")
        self.standin.set_time(when)
        self.t.heading(when, f"{ABSENT} plays pre-makeup games with Fay")
        self.t.say(f"{ABSENT} sends {len(PRE_MAKEUPS)} pre-makeup scores with /premakeup "
                   "(not shown)")  # fmt: skip
        for machine, score in PRE_MAKEUPS.items():
            options = {"machine": machine, "score": score, "with": self.member("Fay")}
            await self.run(
                self.member(ABSENT), "premakeup", options, expect="Submitted", quiet=True
            )
        for message in self.approvals():
            await self.click(koi, message, "Approve all complete")

    async def afternoon(self) -> None:
        await self.scheduled("groupings", at(NIGHT, "12:00"), most=6)
        when = at(NIGHT, "13:30")
        self.standin.set_time(when)
        self.t.heading(when, "notices")
        await self.run(self.member(ABSENT), "absent", {"note": "work trip"}, most=2)
        await self.scheduled("cutoff", at(NIGHT, "15:00"))
        when = at(NIGHT, "16:40")
        self.standin.set_time(when)
        self.t.heading(when, "running late, in one tap, after the cutoff")
        await demo_attendance.late_in_one_tap(self, "Dan", "10", "traffic on 22")
        when = at(NIGHT, "18:30")
        self.standin.set_time(when)
        self.t.heading(when, "vetoes")
        for name, machine in VETOES.items():
            await self.run(self.member(name), "veto", {"machine": machine})
        await demo_attendance.check_in(self, at(NIGHT, "19:05"))
        await demo_attendance.lock(self, at(NIGHT, "19:15"))

    def games_of(self, name: str) -> list[str]:
        """The player's group's games in order, from the lock post."""
        posts = self.standin.channel_messages(self.world.announcements)
        lock = next(m["content"] for m in posts if "picks are locked" in m["content"])
        for line in lock.splitlines():
            if line.startswith("**Group") and name in self.group_line(line):
                return [g.split(". ", 1)[1] for g in line.split(": ", 1)[1].split(", ")]
        raise LookupError(name)

    def group_line(self, lock_line: str) -> list[str]:
        """The players of the lock post's group, from the groupings post's field."""
        label = lock_line.split("**")[1]
        for message in self.standin.channel_messages(self.world.announcements):
            for embed in message.get("embeds") or []:
                for found in embed.get("fields", []):
                    if found["name"] == label and "Game 1 order" in found["value"]:
                        players = found["value"].split("Game 1 order")[0].replace("\n", " ")
                        return [p.strip().replace("\u00a0", " ") for p in players.split(",")]
        return []

    def typed_score(self, name: str, number: int) -> str:
        """What `name` types for game `number`: their score, or the scripted typo."""
        if (name, number) == TYPO[:2]:
            return TYPO[2]
        return SCORES[name][self.games_of(name)[number - 1]]

    async def scores(
        self,
        names: list[str],
        *,
        keeper: tuple[str, int] | None = None,
        shown: tuple[str, ...] | None = None,
    ) -> None:
        """Each of `names` fills /score-form with their games still open. With
        `keeper` (a player, a game), that player first enters that game for
        everyone of their group who is there. Forms of players not in `shown`
        (default: all) run and are checked but summed up in one line."""
        when = at(NIGHT, "20:00")
        self.standin.set_time(when)
        self.t.heading(when, f"scores from {', '.join(names)}")
        if keeper is not None:
            name, number = keeper
            group = [n for n in self.group_of(name) if n != ABSENT]
            entries = {n: self.typed_score(n, number) for n in group}
            await self.form(self.member(name), entries, game=number, most=2)
        hidden = [name for name in names if shown is not None and name not in shown]
        for name in [n for n in names if n not in hidden]:
            await self.own_form(name)
        if hidden:
            self.t.say(f"{', '.join(hidden)} fill in the form the same way (not shown)")
        for name in hidden:
            await self.own_form(name, quiet=True)

    async def own_form(self, name: str, *, quiet: bool = False) -> Exchange:
        """`name` fills /score-form with their scores on their games still open."""
        entries = {
            f"Game {n} · {machine}": self.typed_score(name, n)
            for n, machine in enumerate(self.games_of(name), start=1)
        }
        done = await self.form(self.member(name), entries, quiet=quiet, most=3)
        if not done.content.startswith("Submitted"):
            raise NotAsScripted(f"{name}'s form was answered {done.content!r}")
        return done

    def group_of(self, name: str) -> list[str]:
        posts = self.standin.channel_messages(self.world.announcements)
        lock = next(m["content"] for m in posts if "picks are locked" in m["content"])
        return next(
            self.group_line(line)
            for line in lock.splitlines()
            if line.startswith("**Group") and name in self.group_line(line)
        )

    async def approve(self) -> None:
        """The commissioner looks at the cards, rejects the typo with a reason (its
        player is told by DM, looks at /me and sends it again), approves the rest."""
        koi = self.world.commissioner
        when = at(NIGHT, "22:00")
        self.standin.set_time(when)
        self.t.heading(when, "the commissioner approves")
        self.cards()
        name, number, typed = TYPO
        machine = self.games_of(name)[number - 1]
        typo = f"{name} {raw(typed):,} · Game {number} · {machine}"
        for card in self.approvals():
            if any(
                o["label"] == typo
                for row in card["components"]
                for c in row["components"]
                for o in c.get("options", [])
            ):
                await self.reject(koi, card, typo, "That looks like a typo: one zero short?")
        await self.run(self.member(name), "me", most=7)
        await self.run(
            self.member(name), "score", {"game": number, "score": SCORES[name][machine]}, most=2
        )
        for card in self.approvals():
            await self.click(koi, card, "Approve all complete")

    async def dues(self) -> None:
        """Everyone's $6.00 in one command; half of it is tonight's payout pot (R10.1)."""
        when = at(NIGHT, "19:20")
        self.standin.set_time(when)
        self.t.heading(when, "dues")
        everyone = {"players": ", ".join(PLAYERS), "week": 1}
        await self.run(self.world.commissioner, "league money dues", everyone)

    async def finish(self) -> None:
        koi = self.world.commissioner
        when = at(NIGHT, "22:45")
        self.standin.set_time(when)
        self.t.heading(when, "the night is finalized")
        await self.run(koi, "league night finalize")


def _is_card(message: dict[str, Any]) -> bool:
    """An approval card still showing its buttons (not the groupings post's
    buttons, nor the attendance board's menus)."""
    return any(
        c.get("custom_id", "").startswith("card:")
        for row in message.get("components") or []
        for c in row.get("components", [])
    )


def _title(message: dict[str, Any]) -> str:
    embeds = message.get("embeds") or []
    return embeds[0].get("title", "") if embeds else shown(message).splitlines()[0]
