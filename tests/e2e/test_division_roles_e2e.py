"""Division roles, through the real bot and the loopback Discord: with the
setting on, from the division week (R9) each player holds a "Division A" or
"Division B" role: the server's own role of that name once it sits below the
bot's, else one the bot makes; without Manage Roles nothing is given and the
status says so; at the season's end the bot takes back the roles it gave, and
only those."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.demo_script import ABSENT, NIGHT, PLAYERS, at
from standin import MANAGE_ROLES
from tests.e2e.demo_league import demo_league


async def test_players_hold_their_division_role_from_the_division_week_to_the_end_R9(
    tmp_path: Path,
) -> None:
    async with demo_league(tmp_path) as league:
        standin, world, night, bot = league.standin, league.world, league.night, league.bot
        koi, guild = world.commissioner, world.guild
        await night.set_up()
        for name, value in (("division_week", "2"), ("division_min_players", "4")):
            await night.run(koi, "league season setting", {"name": name, "value": value},
                            quiet=True)  # fmt: skip
        on = await night.run(koi, "setup-night", {"division_roles": True}, quiet=True)
        assert "Division roles: on." in on.content
        assert "Division roles: the bot's role lacks Manage Roles" in on.content
        await night.afternoon()
        await night.dues()
        await night.scores([n for n in PLAYERS if n != ABSENT], keeper=("Dan", 1))
        await night.approve()
        await night.finish()  # week 1 is final: week 2 is played in divisions
        await night.scheduled("groupings", at(NIGHT + timedelta(days=7), "12:00"))

        await bot.division_roles.sync(guild)  # no Manage Roles: nothing given
        assert all(standin.member_roles(guild, p) == [] for p in world.players.values())
        # The server's own "Division A", above the bot's role: not used, and said so.
        own_a = standin.add_role(guild, "Division A")
        standin.grant_bot(guild, MANAGE_ROLES)
        await bot.division_roles.sync(guild)
        assert all(standin.member_roles(guild, p) == [] for p in world.players.values())
        status = await night.run(koi, "league admin status", quiet=True)
        assert ("- Division roles: the Division A role sits above the bot's own role. "
                "Until then, players get no Division A or Division B role.") in (
                    status.content)  # fmt: skip

        ann = world.players["Ann"]
        standin.set_roles(guild, ann, [own_a])  # Ann has held it since last season
        standin.move_role(guild, own_a, 1)  # an administrator moves it below the bot's
        standin.set_roles(guild, koi, [*standin.member_roles(guild, koi), own_a])  # by hand
        await bot.division_roles.sync(guild)
        names = {r["id"]: r["name"] for r in standin.roles(guild)}
        own_b = next(int(i) for i, n in names.items() if n == "Division B")  # made
        held = {name: standin.member_roles(guild, member)
                for name, member in world.players.items()}  # fmt: skip
        division_a = {n for n, roles in held.items() if roles == [own_a]}
        division_b = {n for n, roles in held.items() if roles == [own_b]}
        assert division_a and division_b and division_a | division_b == set(PLAYERS)
        assert "Ann" in division_a and "Fay" in division_b  # the ladder after week 1 (R9.1)
        status = await night.run(koi, "league admin status", quiet=True)
        assert "- Division roles: ok" in status.content

        # The season closed: it is over, and the roles the bot gave go back.
        closed = await night.run(koi, "season close", {"confirm": True}, quiet=True)
        assert "closed" in closed.content, closed.content
        await bot.division_roles.sync(guild)
        assert all(standin.member_roles(guild, p) == [] for n, p in world.players.items()
                   if n != "Ann")  # fmt: skip
        assert standin.member_roles(guild, ann) == [own_a]  # not the bot's to take
        assert standin.member_roles(guild, koi)[-1:] == [own_a]  # nor Koi's
