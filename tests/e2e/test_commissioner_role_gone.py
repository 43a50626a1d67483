"""The commissioner role deleted from the server (or the bot set up with a role
id the server does not have): the commissioners' DMs still reach the server's
owner, who can put things right. The role given to the bot itself: the bot is
not one of the commissioners it DMs."""

from __future__ import annotations

import dataclasses

from bot.stage import running_bot
from tests.e2e.test_dm_delivery import owe
from tests.e2e.test_refused_posts import League, league  # noqa: F401 (fixture)


async def test_with_no_commissioner_role_the_alert_still_reaches_the_owner(
    league: League,  # noqa: F811
) -> None:
    standin = league.standin
    standin.allow(league.announcements)
    guild = standin.guilds[league.settings.guild_id]
    gone = max(guild.roles) + 1000  # no role of the server has this id
    settings = dataclasses.replace(league.settings, commissioner_role_id=gone)
    async with running_bot(settings, standin=standin) as bot:
        await bot.outbox.settled()  # the approval posts the fixture's scores owe
        assert await bot.outbox.commissioners(guild.id) == [guild.owner_id]
        standin.deny(league.approvals, "send")
        await owe(bot, "approvals", "post", {"text": "An approval post"})
        await bot.outbox.settled()
        [alert] = [m["content"] for m in standin.dms(guild.owner_id)]
        assert alert.startswith("Heads-up: Discord refused 1 post of the bot.")


async def test_the_bot_given_the_commissioner_role_does_not_dm_itself(
    league: League,  # noqa: F811
) -> None:
    standin = league.standin
    standin.allow(league.announcements)
    guild = standin.guilds[league.settings.guild_id]
    standin.set_roles(guild.id, standin.bot_user.id, [league.settings.commissioner_role_id])
    async with running_bot(league.settings, standin=standin) as bot:
        await bot.outbox.settled()
        role = bot.get_guild(guild.id).get_role(league.settings.commissioner_role_id)
        assert [m.id for m in role.members] == [standin.bot_user.id]  # the cache holds the bot
        assert await bot.outbox.commissioners(guild.id) == [guild.owner_id]
        standin.deny(league.approvals, "send")
        await owe(bot, "approvals", "post", {"text": "An approval post"})
        await bot.outbox.settled()
        assert standin.dms(standin.bot_user.id) == []
        [alert] = [m["content"] for m in standin.dms(guild.owner_id)]
        assert alert.startswith("Heads-up: Discord refused 1 post of the bot.")
