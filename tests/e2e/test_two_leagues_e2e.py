"""Any league can run it, through the real bot and the loopback Discord: a
server administrator sets a league up from Discord alone (/setup: channel and
role pickers, checked on the spot), an older .env's ids move into the database
once, and one process serves two leagues in two servers that stay apart in
every command, post, card and click, with one player in both."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings, load_settings
from bot.stage import Stage, build_stage, settings_for
from bot.transcript import shown
from standin import DiscordStandIn
from standin.commands import CommandNotPermitted
from tests.e2e.harness import TOKEN, running_bot
from tests.e2e.test_playoffs_e2e import at

FIRST = date(2026, 1, 7)  # a Wednesday
SAME_CHANNEL = (
    "The announcements and approvals channels must differ: scores waiting for approval "
    "are for the commissioner's eyes. Pick two channels."
)
NO_LEAGUE = (
    "This server has no league yet: a server administrator can set one up with /setup "
    "(the league's channels and its commissioner role)."
)


def process_only(standin: DiscordStandIn, database: Path) -> Settings:
    """A `.env` of what belongs to the process only: no league's ids."""
    return load_settings(env={"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(database),
                              "DISCORD_API_BASE": standin.api_base,
                              "BACKUP_DIR": str(database.parent / "backups")})  # fmt: skip


async def say(standin: DiscordStandIn, member: int, channel: int, command: str,
              options: dict[str, Any] | None = None, when: datetime | None = None, *,
              private: bool = True) -> str:  # fmt: skip
    """What the member reads after the command (a private answer, unless not `private`)."""
    if when is not None:
        standin.set_time(when)
    exchange = await standin.invoke(member, command, options or {}, channel_id=channel)
    done = await exchange.done(timeout=10, quiet=0.05)
    assert done.ephemeral == private, (command, done.content)
    return "\n".join(shown(m) for m in done.messages) or done.content


async def set_up(standin: DiscordStandIn, stage: Stage, when: datetime, **more: str) -> str:
    return await say(standin, stage.commissioner, stage.general, "setup", {
        "announcements": stage.announcements, "approvals": stage.approvals,
        "commissioners": stage.commissioner_role, **more}, when)  # fmt: skip


def stored_setups(database: Path) -> list[tuple[int, int, int, int, int | None]]:
    with sqlite3.connect(database) as conn:
        return conn.execute(
            "SELECT guild_id, announcements_channel_id, approvals_channel_id,"
            " commissioner_role_id, set_by FROM server_setup ORDER BY guild_id"
        ).fetchall()


async def test_a_new_league_is_set_up_from_discord_alone(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    stage = build_stage(standin, "North Pinball", ["Ann", "Bob"])
    ann = stage.players["Ann"]
    database = tmp_path / "league.sqlite3"
    when = at(date(2026, 1, 2), "10:00")
    async with running_bot(process_only(standin, database), standin=standin) as bot:
        assert await say(standin, ann, stage.general, "standings", {}, when) == NO_LEAGUE
        with pytest.raises(CommandNotPermitted):  # Discord offers /setup to admins only
            await standin.invoke(ann, "setup", {"announcements": stage.announcements,
                                                "approvals": stage.approvals,
                                                "commissioners": stage.commissioner_role},
                                 channel_id=stage.general)  # fmt: skip
        same = await say(standin, stage.commissioner, stage.general, "setup", {
            "announcements": stage.announcements, "approvals": stage.announcements,
            "commissioners": stage.commissioner_role}, when)  # fmt: skip
        assert same == SAME_CHANNEL
        # @everyone as the role would make every member a commissioner
        everyone = await say(standin, stage.commissioner, stage.general, "setup", {
            "announcements": stage.announcements, "approvals": stage.approvals,
            "commissioners": stage.guild}, when)  # fmt: skip
        assert everyone == (
            "@everyone cannot be the commissioner role: pick a role you give to the "
            "commissioners (not @everyone, nor a role a bot or a boost manages)."
        )
        standin.deny(stage.approvals, "send")  # the bot may not post in the approvals channel
        refused = await set_up(standin, stage, when)
        assert refused.splitlines() == [
            "The league is not set up: the bot could not work with what you chose.",
            "- #score-approvals: the bot cannot send messages there (missing Send Messages, "
            "Embed Links, Attach Files)",
            "Fix it in the server's settings (or pick other channels), then run /setup again.",
        ]
        assert stored_setups(database) == []
        standin.allow(stage.approvals)
        wrong_zone = await set_up(standin, stage, when, time_zone="Mars/Olympus")
        assert wrong_zone == (
            "'Mars/Olympus' is not a time zone; use a name like 'America/New_York'."
        )
        assert stored_setups(database) == []
        done = await set_up(standin, stage, when, time_zone="America/Chicago")
        assert done.splitlines()[:4] == [
            "The league is set up here.",
            f"Announcements: <#{stage.announcements}> (groupings, results, standings).",
            f"Approvals: <#{stage.approvals}> (scores waiting for the commissioners).",
            f"Commissioners: <@&{stage.commissioner_role}>.",
        ]  # as Discord shows a channel and a role: tappable on a phone
        assert "Time zone: America/Chicago (the league's posts and times are in it)." in done
        assert "Integrations" in done and "/league season setup" in done
        assert stored_setups(database) == [
            (stage.guild, stage.announcements, stage.approvals, stage.commissioner_role,
             stage.commissioner)]  # fmt: skip
        assert bot.scheduler_of(stage.guild) is not None  # its posts are scheduled
        named = await say(standin, stage.commissioner, stage.general, "league season setup",
                          {"name": "North League"}, when)  # fmt: skip
        assert named == "League North League is set up (America/Chicago)."  # /setup's zone
        status = await say(standin, stage.commissioner, stage.general, "league admin status")
        assert "ANNOUNCEMENT_CHANNEL_ID: ok (#league-announcements" in status
    # Started again with the same .env: the setup is the database's.
    async with running_bot(process_only(standin, database), standin=standin):
        started = await say(standin, stage.commissioner, stage.general, "league season start",
                            {"name": "Spring", "start": FIRST.isoformat()}, when)  # fmt: skip
        assert started.startswith("Season Spring"), started


async def test_an_older_env_moves_into_the_database_once(
    standin: DiscordStandIn, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stage = build_stage(standin, "Old League", ["Ann"])
    database = tmp_path / "league.sqlite3"
    old_env = settings_for(standin, stage, database, TOKEN)
    async with running_bot(old_env, standin=standin):
        pass
    assert stored_setups(database) == [(stage.guild, stage.announcements, stage.approvals,
                                        stage.commissioner_role, None)]  # fmt: skip
    assert "moved the league places of server" in caplog.text
    # The administrator moves the approvals channel in Discord; the old .env no longer wins.
    other = standin.add_channel(stage.guild, "approvals-2")
    async with running_bot(process_only(standin, database), standin=standin):
        await say(standin, stage.commissioner, stage.general, "setup", {
            "announcements": stage.announcements, "approvals": other,
            "commissioners": stage.commissioner_role}, at(date(2026, 1, 2), "10:00"))  # fmt: skip
    async with running_bot(old_env, standin=standin) as bot:
        setup = bot.setup_of(stage.guild)
        assert setup is not None and setup.approvals_channel_id == other


async def forged_click(standin: DiscordStandIn, member: int, message: dict[str, Any],
                       custom_id: str) -> str:  # fmt: skip
    """A modified client clicks `custom_id` on `message` (which has no such button):
    an interaction Discord's own client would never send."""
    channel = standin.channels[int(message["channel_id"])]
    guild = standin.guilds[channel.guild_id]
    data = {"custom_id": custom_id, "component_type": 2}
    payload = standin._interaction_payload("component", data, guild, channel,
                                           guild.members[member], "en-US")  # fmt: skip
    payload["message"] = json.loads(json.dumps(message))
    exchange = standin._open_exchange(payload, "component", custom_id, guild.members[member],
                                      channel)  # fmt: skip
    exchange.component_message_id = int(message["id"])
    standin.send_soon("INTERACTION_CREATE", payload)
    try:
        done = await exchange.done(timeout=3, quiet=0.05)
    except TimeoutError:  # discord.py finds no such button on the message: it drops it
        return ""
    return done.content


async def test_two_leagues_in_two_servers_stay_apart(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    north = build_stage(standin, "North Pinball", ["Ann", "Bob"])
    south = build_stage(standin, "South Pinball", ["Cat"])
    ann = north.players["Ann"]
    standin.add_member(south.guild, "Ann", user_id=ann)  # one player in both leagues
    standin.add_member(north.guild, "Koi", user_id=south.commissioner)  # no role in the North
    database = tmp_path / "league.sqlite3"
    when = at(date(2026, 1, 2), "10:00")
    async with running_bot(process_only(standin, database), standin=standin) as bot:
        for stage, name, zone in ((north, "North League", "America/New_York"),
                                  (south, "South League", "America/Los_Angeles")):  # fmt: skip
            await set_up(standin, stage, when, time_zone=zone)
            koi, general = stage.commissioner, stage.general
            await say(standin, koi, general, "league season setup", {"name": name}, when)
            await say(standin, koi, general, "league season start",
                      {"name": "Spring", "start": FIRST.isoformat()}, when)  # fmt: skip
            for machine in ("Medieval Madness", "Twilight Zone"):
                await say(standin, koi, general, "league machine add",
                          {"name": machine, "par": "1B"}, when)  # fmt: skip
        await say(standin, north.commissioner, north.general, "league player add",
                  {"member": ann, "name": "Ann N"}, when)  # fmt: skip
        await say(standin, north.commissioner, north.general, "league player add",
                  {"member": north.players["Bob"], "name": "Bob"}, when)  # fmt: skip
        await say(standin, south.commissioner, south.general, "league player add",
                  {"member": ann, "name": "Ann S"}, when)  # fmt: skip
        await say(standin, south.commissioner, south.general, "league player add",
                  {"member": south.players["Cat"], "name": "Cat"}, when)  # fmt: skip

        # Each league's posts on its own clock.
        zones = {g: str(bot.scheduler_of(g).zone) for g in (north.guild, south.guild)}  # type: ignore[union-attr]
        assert zones == {north.guild: "America/New_York", south.guild: "America/Los_Angeles"}
        # Each league's night: locked and scored in its own server.
        for stage in (north, south):
            await say(standin, stage.commissioner, stage.general, "league night lock", {},
                      at(FIRST, "19:15"))  # fmt: skip
        in_north = await say(standin, ann, north.general, "score",
                             {"game": 1, "score": "500M"}, at(FIRST, "20:00"))  # fmt: skip
        in_south = await say(standin, ann, south.general, "score",
                             {"game": 1, "score": "700M"}, at(FIRST, "20:01"))  # fmt: skip
        assert in_north.startswith("Submitted") and in_south.startswith("Submitted")
        await bot.outbox.settled()
        cards = {}
        for stage in (north, south):
            (card,) = [m for m in standin.channel_messages(stage.approvals) if m["embeds"]]
            cards[stage.guild] = card
        assert "Ann N" in shown(cards[north.guild]) and "500,000,000" in shown(cards[north.guild])
        assert "Ann S" in shown(cards[south.guild]) and "700,000,000" in shown(cards[south.guild])
        assert "Ann S" not in shown(cards[north.guild])
        me_north = await say(standin, ann, north.general, "me")
        me_south = await say(standin, ann, south.general, "me")
        assert me_north.startswith("**Ann N**") and me_south.startswith("**Ann S**")
        assert "500,000,000" in me_north and "700,000,000" in me_south
        assert "700,000,000" not in me_north

        # The South commissioner is no commissioner in the North: Discord does not
        # offer the commissioner commands there, and the bot refuses them anyway.
        with pytest.raises(CommandNotPermitted):
            await standin.invoke(south.commissioner, "league admin status", {},
                                 channel_id=north.general)  # fmt: skip
        standin.set_command_permission(north.guild, "league", south.commissioner)
        refused = await say(standin, south.commissioner, north.general, "league admin status")
        assert refused == "Only the commissioner can do that."

        # A forged click in the South naming the North's card is refused; nothing changes.
        north_button = next(c["custom_id"] for row in cards[north.guild]["components"]
                            for c in row["components"] if c.get("label"))  # fmt: skip
        said = await forged_click(standin, south.commissioner, cards[south.guild], north_button)
        await bot.outbox.settled()
        assert said in ("", "That card is not one of this league's.")
        assert shown(standin.channel_messages(north.approvals)[0]) == shown(cards[north.guild])

        # Each league's posts went to its own channels only.
        for stage, other in ((north, south), (south, north)):
            posted = [shown(m) for m in standin.channel_messages(stage.announcements)]
            assert not any(other.players.get("Cat", 0) and "Cat" in p for p in posted)
        standings_north = await say(standin, ann, north.general, "standings", private=False)
        assert "Cat" not in standings_north


async def test_two_leagues_one_removed_from_its_server_stops_alone(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    """A server administrator removes the bot: that league's posts stop, the
    other league goes on; invited back, the same setup serves it again."""
    north = build_stage(standin, "North Pinball", ["Ann"])
    south = build_stage(standin, "South Pinball", ["Cat"])
    when = at(date(2026, 1, 2), "10:00")
    async with running_bot(process_only(standin, tmp_path / "league.sqlite3"),
                           standin=standin) as bot:  # fmt: skip
        for stage in (north, south):
            await set_up(standin, stage, when)
        assert bot.scheduler_of(south.guild) is not None
        standin.remove_bot(south.guild)
        await standin.drained()
        for _ in range(100):
            if bot.scheduler_of(south.guild) is None:
                break
            await asyncio.sleep(0.02)
        assert bot.scheduler_of(south.guild) is None and bot.setup_of(south.guild) is None
        assert bot.scheduler_of(north.guild) is not None
        named = await say(standin, north.commissioner, north.general, "league season setup",
                          {"name": "North League"}, when)  # fmt: skip
        assert named.startswith("League North League is set up")
        standin.invite_bot(south.guild)  # invited back: the same setup, its posts again
        await standin.drained()
        for _ in range(100):
            if bot.scheduler_of(south.guild) is not None:
                break
            await asyncio.sleep(0.02)
        assert bot.scheduler_of(south.guild) is not None
        assert await say(standin, south.commissioner, south.general, "league season setup",
                         {"name": "South League"}, when) == (
            "League South League is set up (America/New_York).")  # fmt: skip
