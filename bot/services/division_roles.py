"""Division roles (a league setting, /setup-night): from the division week to
the end of the season each player in a division holds a "Division A" or
"Division B" role (R9), so the server can open channels by division. What the
roles should be (`wanted`) and what the bot gave (`given`); its keeper
(`bot.delivery.division_roles`) gives and takes only what differs. At the end
of the season (every night played, playoff night too, or the season closed)
nobody is wanted: the roles the bot gave are taken back."""

from __future__ import annotations

from bot.database import Database
from bot.repositories import division_roles, leagues, nights, people, playoff_nights, server_setups

DIVISIONS = ("A", "B")


async def wanted(db: Database, guild_id: int) -> dict[int, str]:
    """Member id -> division, for the running season's players in a division."""
    async with db.read() as conn:
        setup = await server_setups.night_of(conn, guild_id)
        league = await leagues.league_by_guild(conn, guild_id)
        if setup is None or not setup.division_roles or league is None:
            return {}
        season = await leagues.open_season(conn, league.id)
        if season is None:
            return {}
        left = [n for n in await leagues.nights(conn, season.id) if n.status != "finalized"]
        finale = await playoff_nights.playoff_night(conn, season.id)
        if not left and (finale is None or finale.status == "finalized"):
            return {}  # the season is over
        pools = await nights.pools_of_season(conn, season.id)
        found = {}
        for player in await people.players(conn, league.id):
            pool = pools.get(player.id, "")
            if pool in DIVISIONS and player.discord_id is not None and not player.removed:
                found[player.discord_id] = pool
        return found


async def given(db: Database, guild_id: int) -> dict[int, str]:
    async with db.read() as conn:
        return await division_roles.holders(conn, guild_id)


async def roles(db: Database, guild_id: int) -> dict[str, int]:
    async with db.read() as conn:
        return await division_roles.roles(conn, guild_id)


async def set_role(db: Database, guild_id: int, division: str, role_id: int) -> None:
    async with db.transaction() as conn:
        await division_roles.set_role(conn, guild_id, division, role_id)


async def gave(db: Database, guild_id: int, member: int, division: str | None) -> None:
    """The bot gave `member` the role of `division` (None: took it back)."""
    async with db.transaction() as conn:
        if division is None:
            await division_roles.take(conn, guild_id, member)
        else:
            await division_roles.give(conn, guild_id, member, division)
