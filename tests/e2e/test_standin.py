"""The real bot through the loopback Discord: login, commands, refusals, buttons, reconnects.

Everything the bot knows comes through commands a member runs; nothing is
written to the database directly.
"""

from __future__ import annotations

import json
import zlib
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import aiohttp
import pytest

from bot.client import LeagueBot
from bot.config import Settings
from bot.transcript import shown
from standin import (
    CommandNotPermitted,
    DiscordStandIn,
    Exchange,
    InvalidInvocation,
    snowflake_time,
)
from tests.e2e.harness import World, running_bot

COMMANDS = {
    "late", "absent", "score", "score-form", "premakeup", "veto", "standings", "groups", "me",
    "league", "stats", "machine", "rules", "playoffs", "season", "setup", "remind",
    "setup-night",
}  # fmt: skip
DEFERRED_REPLY, REPLY, DEFERRED_UPDATE, MODAL = 5, 4, 6, 9
ONLY_THE_COMMISSIONER = "Only the commissioner can do that."


async def run(
    standin: DiscordStandIn,
    member: int,
    command: str,
    options: dict[str, Any] | None = None,
    *,
    channel: int,
) -> Exchange:
    exchange = await standin.invoke(member, command, options, channel_id=channel)
    return await exchange.done(timeout=5)


async def set_up_league(standin: DiscordStandIn, world: World) -> Exchange:
    return await run(
        standin,
        world.commissioner,
        "league season setup",
        {"name": "Koi's League"},
        channel=world.general,
    )


async def test_the_bot_logs_in_and_registers_its_commands(
    standin: DiscordStandIn, world: World, bot: LeagueBot
) -> None:
    assert bot.user is not None and bot.user.id == standin.application_id
    assert bot.get_guild(world.guild) is not None
    # Registered once for every server (global commands), offered in servers only.
    # (The .env's server first loses the copies a bot set up by .env registered there.)
    assert [(scope, set(names)) for scope, names in standin.command_syncs] == [
        (world.guild, set()), (None, COMMANDS)]  # fmt: skip
    assert all(c.get("contexts") == [0] for c in standin.registered_commands())
    league = next(c for c in standin.registered_commands() if c["name"] == "league")
    night = next(o for o in league["options"] if o["name"] == "night")
    assert night["type"] == 2 and "finalize" in {o["name"] for o in night["options"]}
    # discord.py 2.7 asks for zlib-stream (zstd-stream where a zstd module is installed).
    assert standin.gateway.compressions in (["zlib-stream"], ["zstd-stream"])
    assert not standin.unknown_requests and not standin.rejected


async def test_the_commissioner_sets_up_the_league(
    standin: DiscordStandIn, world: World, bot: LeagueBot
) -> None:
    exchange = await set_up_league(standin, world)

    assert exchange.callback_type == DEFERRED_REPLY
    assert exchange.ephemeral
    assert exchange.content == "League Koi's League is set up (America/New_York)."
    assert standin.channel_messages(world.general) == []  # ephemeral: only Koi saw it
    assert not standin.unknown_requests and not standin.rejected


async def test_standings_before_a_season_are_refused(
    standin: DiscordStandIn, world: World, bot: LeagueBot
) -> None:
    await set_up_league(standin, world)

    exchange = await run(standin, world.players[0], "standings", channel=world.general)

    assert exchange.callback_type == REPLY
    assert exchange.ephemeral
    assert exchange.content.startswith("There is no season running.")
    assert standin.channel_messages(world.general) == []


async def test_only_the_commissioner_can_finalize_a_night(
    standin: DiscordStandIn, world: World, bot: LeagueBot
) -> None:
    await set_up_league(standin, world)
    player = world.players[0]

    # /league asks for Manage Server by default: Discord does not offer it to a player.
    with pytest.raises(CommandNotPermitted, match="Discord does not offer /league to "):
        await standin.invoke(player, "league night finalize", {"week": 3}, channel_id=world.general)
    # A moderator with Manage Server can send it; the bot checks the commissioner role.
    by_moderator = await run(
        standin, world.moderator, "league night finalize", {"week": 3}, channel=world.general
    )
    assert by_moderator.ephemeral and by_moderator.content == ONLY_THE_COMMISSIONER
    assert by_moderator.payload["data"]["options"] == [
        {
            "name": "night",
            "type": 2,
            "options": [
                {
                    "name": "finalize",
                    "type": 1,
                    "options": [{"name": "week", "type": 4, "value": 3}],
                }
            ],
        }
    ]
    # The server's admin lets everyone see /league: the bot still refuses a player.
    standin.set_command_permission(world.guild, "league", world.guild, allowed=True)
    by_player = await run(standin, player, "league night finalize", channel=world.general)
    assert by_player.ephemeral and by_player.content == ONLY_THE_COMMISSIONER
    # What no Discord client could send is refused before it reaches the bot.
    with pytest.raises(InvalidInvocation, match=r"option 'week': 99 is outside 1\.\.52"):
        await standin.invoke(
            player, "league night finalize", {"week": 99}, channel_id=world.general
        )
    assert not standin.unknown_requests and not standin.rejected


async def test_a_pre_makeup_is_decided_with_the_real_buttons_across_a_restart(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    koi, ann, bob = world.commissioner, world.players[0], world.players[1]
    async with running_bot(settings):
        await start_small_season(standin, world)
        typing = await standin.autocomplete(
            ann, "veto", {"machine": "medi"}, "machine", channel_id=world.general
        )
        assert "Medieval Madness" in {c["value"] for c in (await typing.done()).choices}

        submitted = await run(
            standin,
            ann,
            "premakeup",
            {"machine": "Medieval Madness", "score": "1.2B", "with": bob},
            channel=world.general,
        )
        assert submitted.ephemeral and submitted.content.startswith("Submitted:")
        posted = await standin.wait_for_message(world.approvals, lambda m: "Medieval" in shown(m))
    # The bot restarts (no command sync this time); the card's buttons and menus still work.
    async with running_bot(settings, sync=False):
        message_id = int(posted["id"])
        items = {c.get("label") or c["placeholder"]: c
                 for row in posted["components"] for c in row["components"]}  # fmt: skip
        approve = items["Approve all complete"]["custom_id"]
        refused = await (await standin.click(bob, message_id, approve)).done()
        assert refused.ephemeral and refused.content == ONLY_THE_COMMISSIONER
        assert standin.message(message_id)["components"] == posted["components"]

        menu = items["Reject a score…"]
        # not one of the menu's options
        with pytest.raises(InvalidInvocation, match=r"\['s999'\] are not among"):
            await standin.click(koi, message_id, menu["custom_id"], values=["s999"])
        value = menu["options"][0]["value"]
        asked = await (
            await standin.click(koi, message_id, menu["custom_id"], values=[value])
        ).done()
        assert asked.callback_type == MODAL and asked.modal is not None  # callback type 9
        modal = asked.modal
        reason_id = modal["components"][0]["components"][0]["custom_id"]
        # no such modal was opened for Bob
        with pytest.raises(InvalidInvocation, match="no modal 'card:why:1:p1' is open for "):
            await standin.submit_modal(bob, modal["custom_id"], {reason_id: "x"},
                                       channel_id=world.approvals)  # fmt: skip
        # the reason is required
        with pytest.raises(InvalidInvocation, match=r"told it\)' is required"):
            await standin.submit_modal(koi, modal["custom_id"], {}, channel_id=world.approvals)
        # over the input's 300 characters
        with pytest.raises(InvalidInvocation, match="takes 1-300 characters"):
            await standin.submit_modal(koi, modal["custom_id"], {reason_id: "x" * 301},
                                       channel_id=world.approvals)  # fmt: skip
        done = await (await standin.submit_modal(
            koi, modal["custom_id"], {reason_id: "Bob was not there"}, channel_id=world.approvals,
        )).done()  # fmt: skip
        assert done.ephemeral and done.content == "Rejected Ann's 1,200,000,000; they are told why."
        await standin.wait_for_message(
            world.approvals, lambda m: "✗ (with Bob) — Bob was not there" in shown(m)
        )
        assert standin.message(message_id)["components"] == []
        # Ann hears why, by DM, with what to do.
        dm = await standin.wait_for_message(
            # made now if the bot's outbox has not opened it yet (the bot gets the same one)
            standin.dm_channel(ann).id,
            lambda m: "Bob was not there" in m["content"],
        )
        assert "Send it again with /premakeup." in dm["content"]
    global_syncs = [scope for scope, _ in standin.command_syncs if scope is None]
    assert standin.gateway.identifies == 2 and len(global_syncs) == 1
    assert not standin.unknown_requests and not standin.rejected


async def test_a_deleted_card_with_scores_waiting_is_posted_again(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    """A pending score always has its approval card, even when someone
    deletes the card's message in Discord."""
    koi, ann, bob = world.commissioner, world.players[0], world.players[1]
    async with running_bot(settings):
        await start_small_season(standin, world)
        first = {"machine": "Medieval Madness", "score": "1.2B", "with": bob}
        await run(standin, ann, "premakeup", first, channel=world.general)
        posted = await standin.wait_for_message(world.approvals, lambda m: "Medieval" in shown(m))
        standin.delete_message(int(posted["id"]))  # a moderator tidies the channel
        await run(standin, koi, "league machine add", {"name": "Twilight Zone"},
                  channel=world.general)  # fmt: skip
        second = {"machine": "Twilight Zone", "score": "300M", "with": bob}
        await run(standin, ann, "premakeup", second, channel=world.general)
        again = await standin.wait_for_message(world.approvals, lambda m: "Twilight" in shown(m))
        # one card, posted afresh with both scores waiting, its buttons live
        assert again["id"] != posted["id"] and "Medieval Madness" in shown(again)
        assert shown(again).endswith("2 waiting for approval")
        cards = [m for m in standin.channel_messages(world.approvals) if m.get("embeds")]
        assert [m["id"] for m in cards] == [again["id"]]
        approve = next(c for row in again["components"] for c in row["components"]
                       if c.get("label") == "Approve all complete")  # fmt: skip
        done = await (await standin.click(koi, int(again["id"]), approve["custom_id"])).done()
        assert done.content.startswith("Approved 2 scores")
        status = await run(standin, koi, "league admin status", channel=world.general)
        assert "failed: 0" in status.content
    # the one refusal: the edit that found the card gone
    assert [(r.method, r.status) for r in standin.rejected] == [("PATCH", 404)]
    assert not standin.unknown_requests


async def test_the_bot_resumes_after_the_gateway_drops(
    standin: DiscordStandIn, world: World, bot: LeagueBot
) -> None:
    await standin.drop_gateway()
    # Sent while the bot is away: Discord replays it when the bot RESUMEs.
    missed = await standin.invoke(world.players[0], "standings", channel_id=world.general)
    await standin.wait_until_connected(timeout=5)

    assert (await missed.done(timeout=5)).content.startswith("This server has no league yet.")
    assert standin.gateway.identifies == 1 and standin.gateway.resumes == 1
    setup = await set_up_league(standin, world)
    assert setup.content == "League Koi's League is set up (America/New_York)."
    assert not standin.unknown_requests and not standin.rejected


async def test_the_standin_speaks_discords_rest_and_gateway(
    standin: DiscordStandIn, world: World
) -> None:
    """The protocol details discord.py relies on, checked without the bot."""
    auth = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{standin.api_base}/users/@me") as response:
            assert response.status == 401
        async with http.get(f"{standin.api_base}/users/@me", headers=auth) as response:
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["id"] == str(standin.application_id)
        async with http.get(f"{standin.api_base}/guilds/{world.guild}/bans", headers=auth) as r:
            assert r.status == 404 and await r.json() == {"message": "404: Not Found", "code": 0}
        assert [(r.method, r.path) for r in standin.unknown_requests] == [
            ("GET", f"/api/v10/guilds/{world.guild}/bans")
        ]
        posts = f"{standin.api_base}/channels/{world.general}/messages"
        async with http.post(posts, json={"content": "x" * 2001}, headers=auth) as response:
            assert response.status == 400 and (await response.json())["code"] == 50035
        async with http.post(posts, json={"content": ""}, headers=auth) as response:
            assert response.status == 400 and (await response.json())["code"] == 50006

        gateway = f"{standin.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        async with http.ws_connect(gateway) as ws:
            inflate = zlib.decompressobj()

            async def receive() -> dict[str, Any]:
                frame = await ws.receive_bytes(timeout=2)
                assert frame.endswith(b"\x00\x00\xff\xff")  # Z_SYNC_FLUSH, as Discord
                return json.loads(inflate.decompress(frame))

            assert (await receive())["op"] == 10  # HELLO
            await ws.send_json({"op": 1, "d": None})
            assert (await receive())["op"] == 11  # heartbeat ACK
            await ws.send_json({"op": 2, "d": {"token": standin.token, "intents": 513}})
            ready, guild = await receive(), await receive()
            assert (ready["t"], ready["s"], guild["t"], guild["s"]) == (
                "READY",
                1,
                "GUILD_CREATE",
                2,
            )
            assert ready["d"]["guilds"] == [{"id": str(world.guild), "unavailable": True}]
            # Without the members intent Discord lists only the bot among the members.
            assert [m["user"]["id"] for m in guild["d"]["members"]] == [str(standin.application_id)]
            assert guild["d"]["member_count"] == 2 + 2 + 7
        async with http.ws_connect(f"{standin.gateway_url}?v=10&encoding=json") as ws:
            assert (await ws.receive_json(timeout=2))["op"] == 10
            resume = {"token": standin.token, "session_id": "gone", "seq": 3}
            await ws.send_json({"op": 6, "d": resume})
            assert await ws.receive_json(timeout=2) == {"op": 9, "d": False}  # INVALID_SESSION


async def test_interaction_callbacks_and_followups_as_discord_answers_them(
    standin: DiscordStandIn, world: World
) -> None:
    """Callback types the bot does not use yet (6, a deferred reply filled by a
    followup) and the webhook routes, driven by hand with no bot connected."""
    api, app = standin.api_base, standin.application_id
    auth = {"Authorization": f"Bot {standin.token}"}
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go:1"}]}
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{api}/channels/{world.approvals}/messages",
            json={"content": "Pending", "components": [row]},
            headers=auth,
        ) as response:
            posted = await response.json()
        click = await standin.click(world.commissioner, int(posted["id"]), "go:1")
        callback = f"{api}/interactions/{click.interaction_id}/{click.token}/callback"
        async with http.post(callback, params={"with_response": "1"}, json={"type": 6}) as r:
            assert r.headers["Content-Type"] == "application/json"
            assert (await r.json())["interaction"]["id"] == str(click.interaction_id)
        async with http.post(callback, params={"with_response": "1"}, json={"type": 6}) as r:
            assert r.status == 400 and (await r.json())["code"] == 40060  # acknowledged twice
        hook = f"{api}/webhooks/{app}/{click.token}"
        edit = {"content": "Done", "components": []}
        async with http.patch(f"{hook}/messages/@original", json=edit) as response:
            assert (await response.json())["id"] == posted["id"]  # the clicked message
        whisper = {"content": "only you", "flags": 64}
        async with http.post(hook, params={"wait": "1"}, json=whisper) as response:
            followup = await response.json()
        async with http.get(f"{hook}/messages/{followup['id']}") as response:
            assert (await response.json())["content"] == "only you"
        await click.done(followups=1)
        assert click.content == "Done" and click.edits[0].how == "@original"
        assert [m["content"] for m in standin.channel_messages(world.approvals)] == ["Done"]

        # With nothing registered the stand-in takes option types from the values;
        # ids carry the stand-in's clock, so the bot's `created_at` is the time set.
        tonight = datetime(2026, 3, 11, 23, 30, tzinfo=UTC)
        standin.set_time(tonight)
        command = await standin.invoke(world.players[0], "ping", {"loud": True})
        assert snowflake_time(command.interaction_id) == tonight
        assert command.payload["data"]["options"] == [{"name": "loud", "type": 5, "value": True}]
        callback = f"{api}/interactions/{command.interaction_id}/{command.token}/callback"
        deferral = {"type": 5, "data": {"flags": 64}}
        async with http.post(callback, params={"with_response": "1"}, json=deferral) as response:
            answer = await response.json()
        assert answer["interaction"]["response_message_loading"] is True
        assert answer["resource"]["message"]["flags"] == 64 | 128  # ephemeral, loading
        hook = f"{api}/webhooks/{app}/{command.token}"
        async with http.post(hook, params={"wait": "1"}, json={"content": "pong"}) as response:
            assert (await response.json())["id"] == answer["resource"]["message"]["id"]
        await command.done()
        assert (command.content, command.ephemeral, command.followups) == ("pong", True, [])
        async with http.post(f"{api}/interactions/1/nope/callback", json={"type": 4}) as r:
            assert r.status == 404 and (await r.json())["code"] == 10062


async def start_small_season(standin: DiscordStandIn, world: World) -> date:
    """A league, a season a week away (its first night returned), players Ann and
    Bob and one machine."""
    koi, ann, bob = world.commissioner, world.players[0], world.players[1]
    start = (standin.now().astimezone(ZoneInfo("America/New_York")) + timedelta(days=7)).date()
    await set_up_league(standin, world)
    for command, options in [
        ("league season start", {"name": "Spring", "start": start.isoformat()}),
        ("league player add", {"member": ann, "name": "Ann"}),
        ("league player add", {"member": bob, "name": "Bob"}),
        ("league machine add", {"name": "Medieval Madness"}),
    ]:
        answer = await run(standin, koi, command, options, channel=world.general)
        assert answer.ephemeral and not answer.content.startswith("There"), answer.content
    return start
