"""DMs to the commissioner and to players through the real bot and the loopback Discord.

- The approvals channel refuses the bot: the alert goes by DM to each
  commissioner the bot can reach without the members intent (recorded when they
  passed the role check, and the server's owner).
- A player whose DMs are closed gets a short mention in the announcements
  channel instead (the first line of the same words), recorded as sent that way.
- Nothing is sent twice after a restart.
"""

from __future__ import annotations

from bot.services import outbox as owed
from bot.stage import running_bot
from tests.e2e.test_refused_posts import TONIGHT, League, league  # noqa: F401 (fixture)

REJECTED = (
    "Your score on Machine 1 was rejected: the photo is unreadable.\nSubmit it again with /score."
    "\nAsk the commissioner if you are unsure."
)  # three lines: a mention in the announcements channel shows the first only


async def owe(bot, target: str, kind: str, data: dict) -> None:  # type: ignore[no-untyped-def]
    async with bot.db.transaction() as conn:
        await owed.owe(conn, bot.settings.guild_id, target, kind, data=data, now=TONIGHT)
    bot.outbox.wake()


async def test_a_refused_approvals_channel_alerts_each_commissioner_by_dm(
    league: League,  # noqa: F811
) -> None:
    standin = league.standin
    standin.allow(league.announcements)
    owner = standin.guilds[league.settings.guild_id].owner_id
    async with running_bot(league.settings, standin=standin) as bot:
        # Koi passes the role check once: the bot records them (no members intent).
        await league.run("league admin status")
        await bot.outbox.settled()  # the approval posts the fixture's scores owe
        assert await bot.outbox.commissioners(league.settings.guild_id) == [owner, league.koi]
        standin.deny(league.approvals, "send")
        await owe(bot, "approvals", "post", {"text": "An approval post"})
        await bot.outbox.settled()
        for person in (owner, league.koi):
            sent = [m["content"] for m in standin.dms(person)]
            assert len(sent) == 1, sent
            alert = sent[0]
            assert alert.startswith("Heads-up: Discord refused 1 post of the bot.")
            assert "post to #approvals: the bot is not allowed to post there" in alert
        # Koi loses the role: their next /league command is refused and they are forgotten.
        standin.set_roles(league.settings.guild_id, league.koi, [])
        standin.set_command_permission(
            league.settings.guild_id, "league", league.koi
        )  # still offered
        refused = await league.run("league admin status")
        assert refused.content == "Only the commissioner can do that."
        assert await bot.outbox.commissioners(league.settings.guild_id) == [owner]
    async with running_bot(league.settings, standin=standin) as bot:
        await bot.outbox.settled()
        assert [len(standin.dms(p)) for p in (owner, league.koi)] == [1, 1]


async def test_one_closed_dm_does_not_stop_the_other_commissioners(
    league: League,  # noqa: F811
) -> None:
    standin = league.standin
    standin.allow(league.announcements)
    owner = standin.guilds[league.settings.guild_id].owner_id
    standin.close_dms(owner)
    async with running_bot(league.settings, standin=standin) as bot:
        await league.run("league admin status")
        await bot.outbox.settled()  # the approval posts the fixture's scores owe
        standin.deny(league.approvals, "send")
        await owe(bot, "approvals", "post", {"text": "An approval post"})
        await bot.outbox.settled()
        assert standin.dms(owner) == []
        assert len(standin.dms(league.koi)) == 1
        standin.close_dms(league.koi)  # now every commissioner's DMs are closed
        await owe(bot, "approvals", "post", {"text": "Another approval post"})
        await bot.outbox.settled()
        assert len(standin.dms(league.koi)) == 1
        status = await league.run("league admin status")
        assert "failed: 3" in status.content, (
            status.content
        )  # both approval posts and the second alert
        assert "alert to the commissioner by DM: the bot is not allowed to post there" in (
            status.content
        )


async def test_a_player_with_closed_dms_is_mentioned_in_announcements_instead(
    league: League,  # noqa: F811
) -> None:
    standin = league.standin
    standin.allow(league.announcements)
    members = standin.guilds[league.settings.guild_id].members.values()
    player, other = (m.id for m in members if m.display_name in ("P1", "P2"))
    standin.close_dms(player)
    async with running_bot(league.settings, standin=standin) as bot:
        await owe(bot, f"dm:{player}", "post", {"text": REJECTED})
        await owe(bot, f"dm:{other}", "post", {"text": REJECTED})
        await bot.outbox.settled()
        assert standin.dms(player) == []
        assert [m["content"] for m in standin.dms(other)] == [REJECTED]
        (mention,) = standin.channel_messages(league.announcements)
        assert mention["content"] == f"<@{player}> " + REJECTED.split("\n")[0]
        # It may ping that player and no one else, whatever the line says.
        posts = f"/api/v10/channels/{league.announcements}/messages"
        [request] = [r for r in standin.requests if r.method == "POST" and r.path == posts]
        assert request.body["allowed_mentions"] == {"parse": [], "users": [player]}
        recorded = league.table(
            f"SELECT status, last_error FROM outbox WHERE target = 'dm:{player}'"
        )
        refused = "403 Cannot send messages to this user"
        assert recorded == [("sent", f"{owed.INSTEAD}; the DM was refused: {refused}")]
    async with running_bot(league.settings, standin=standin) as bot:
        await bot.outbox.settled()
        assert len(standin.channel_messages(league.announcements)) == 1
        assert len(standin.dms(other)) == 1
