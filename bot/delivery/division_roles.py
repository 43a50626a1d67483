"""The keeper of each league's division roles (`bot.services.division_roles`):
the "Division A" and "Division B" roles are the server's own if it has roles of
those names, else the bot makes them (below its own role, as Discord requires);
then it gives each player in a division their role and takes back, from whoever
should no longer hold it, only a role it gave.

Without Manage Roles, or with a division role above the bot's own, it gives
nothing and says so (the status command and the start-up check tell the
commissioner). A member who left the server, or who holds the role already
(given by hand), is passed over until the next start: never taken from them."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot.delivery.keeper import Keeper
from bot.services import division_roles

log = logging.getLogger(__name__)
NO_PERMISSION = "the bot's role lacks Manage Roles (Server Settings → Roles)"
REASON = "league divisions"


class DivisionRoles(Keeper):
    what = "its division roles"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Members passed over until the next start: not in the server (any more), or
        # holding the role already, not from the bot (so never the bot's to take).
        self.passed: dict[int, set[int]] = {}

    async def keep(self, guild_id: int) -> None:
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return  # not known yet (before READY) or no longer its server: later
        db = self.bot.db
        passed = self.passed.setdefault(guild_id, set())
        wanted = {m: d for m, d in (await division_roles.wanted(db, guild_id)).items()
                  if m not in passed}  # fmt: skip
        given = await division_roles.given(db, guild_id)
        if wanted == given:
            self.refused.pop(guild_id, None)
            return
        if not guild.me.guild_permissions.manage_roles:
            self.refuse(guild_id, NO_PERMISSION)
            return
        roles = await self._roles(guild, set(wanted.values()), set(given.values()))
        if roles is None:
            return
        http = self.bot.http
        for member, division in given.items():
            if wanted.get(member) != division:
                if division in roles:  # a role deleted in Discord has nothing to take back
                    with contextlib.suppress(discord.NotFound):  # left the server
                        await http.remove_role(guild_id, member, roles[division], reason=REASON)
                await division_roles.gave(db, guild_id, member, None)
        for member, division in wanted.items():
            if given.get(member) == division:
                continue
            try:
                holds = (await http.get_member(guild_id, member)).get("roles", [])
            except discord.NotFound:
                passed.add(member)  # not a member of the server (any more)
                continue
            if str(roles[division]) in holds:
                passed.add(member)  # theirs already: the bot leaves it to whoever gave it
                continue
            await http.add_role(guild_id, member, roles[division], reason=REASON)
            await division_roles.gave(db, guild_id, member, division)
        self.refused.pop(guild_id, None)

    async def _roles(
        self, guild: discord.Guild, wanted: set[str], held: set[str]
    ) -> dict[str, int] | None:
        """Each division's role: the recorded one, else the server's of that name,
        else (when someone is to get it) made now. None when one sits at or above
        the bot's own role."""
        recorded = await division_roles.roles(self.bot.db, guild.id)
        found = {}
        for division in sorted(wanted | held):
            name = f"Division {division}"
            role = guild.get_role(recorded.get(division, 0)) or discord.utils.get(
                guild.roles, name=name
            )
            if role is None and division not in wanted:
                continue  # deleted: nothing to take back, and none made to take it back
            if role is None:
                role = await guild.create_role(name=name, reason=REASON)
                log.info("server %d: made the role %s", guild.id, name)
            if role >= guild.me.top_role or role.managed:
                self.refuse(guild.id, f"the {name} role sits above the bot's own role")
                return None
            if recorded.get(division) != role.id:
                await division_roles.set_role(self.bot.db, guild.id, division, role.id)
            found[division] = role.id
        return found
