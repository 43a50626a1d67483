"""Roles and role assignment, as Discord defines them
(https://discord.com/developers/docs/resources/guild and
topics/permissions#permission-hierarchy), with Discord's refusals.

- The hierarchy: the bot acts only on roles strictly below its highest role
  (Administrator does not lift this; only the server's owner is above it), and
  needs Manage Roles (Administrator implies it): 403 50013 otherwise.
- Giving a member a role (PUT /guilds/{g}/members/{u}/roles/{r}) or taking it
  (DELETE, same path): 204, GUILD_MEMBER_UPDATE (members intent). Giving a role
  the member has, or taking one they lack, is 204 and changes nothing. A
  managed role (a bot's or an integration's) cannot be given or taken (403
  50013), nor @everyone (400 50028 Invalid Role). Unknown role 404 10011,
  unknown member 404 10007.
- Creating (POST /guilds/{g}/roles): name up to 100 characters (default "new
  role"), permissions (default @everyone's) only among the bot's own (403
  50013), color, hoist, mentionable (400 50035 for a bad field). The role goes
  to position 1, just above @everyone, the others move up: GUILD_ROLE_CREATE,
  and GUILD_ROLE_UPDATE for each that moved. 250 roles at most (400 30005).
- Modifying (PATCH /guilds/{g}/roles/{r}): the hierarchy, and it may add only
  permissions the bot has; GUILD_ROLE_UPDATE. Deleting (DELETE, 204): the
  hierarchy; not a managed role (403 50013) nor @everyone (400 50028);
  GUILD_ROLE_DELETE, and every member loses the role.
- Moving (PATCH /guilds/{g}/roles with [{id, position}]): only roles below the
  bot's highest, to positions below it; GUILD_ROLE_UPDATE for each that moved.

`RoleHelpers` is the test-side API `DiscordStandIn` takes from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from standin.answers import Refused, Routes, booleans, json_response, missing_permissions, snowflake
from standin.limits import API
from standin.messages import BadMessage
from standin.world import INTENT_GUILD_MEMBERS, MANAGE_ROLES, Guild, Member, Role

if TYPE_CHECKING:
    from standin.state import StandIn

MAX_ROLES = 250
MAX_NAME = 100
MAX_COLOR = 0xFFFFFF


def top_position(guild: Guild, member: Member) -> int:
    """The position of the member's highest role (@everyone's 0 if they have none)."""
    return max((guild.roles[r].position for r in member.roles if r in guild.roles), default=0)


def _role(guild: Guild, role_id: int) -> Role:
    role = guild.roles.get(role_id)
    if role is None:
        raise Refused(404, 10011, "Unknown Role")
    return role


def _bot(standin: StandIn, guild: Guild) -> Member:
    bot = guild.members.get(standin.bot_user.id)
    if bot is None:
        raise Refused(403, 50001, "Missing Access")
    return bot


def check_manage(standin: StandIn, guild: Guild, *roles: Role) -> int:
    """Manage Roles, and each of `roles` below the bot's highest: the bot's permissions."""
    bot = _bot(standin, guild)
    allowed = guild.permissions_of(bot)
    if guild.owner_id == bot.id:
        return allowed
    if not allowed & MANAGE_ROLES:
        raise missing_permissions()
    if any(role.position >= top_position(guild, bot) for role in roles):
        raise missing_permissions()
    return allowed


def reorder(guild: Guild, placed: Iterable[tuple[Role, int]] = ()) -> list[Role]:
    """Put each role at its position (1: just above @everyone), number the others
    1, 2, ... around them in their order, and return the roles that moved."""
    placed = list(placed)
    moving = {role.id for role, _ in placed}
    others = sorted((r for r in guild.roles.values() if r.id != guild.id and r.id not in moving),
                    key=lambda r: (r.position, r.id))  # fmt: skip
    for role, position in sorted(placed, key=lambda p: p[1]):
        others.insert(max(0, min(position - 1, len(others))), role)
    moved = []
    for position, role in enumerate(others, start=1):
        if role.position != position:
            role.position = position
            moved.append(role)
    return moved


def check_fields(body: Any) -> dict[str, Any]:
    """A role's fields as Discord checks them (400 50035)."""
    body = body if isinstance(body, dict) else {}
    fields: dict[str, Any] = {}
    errors: dict[str, str] = {}
    name = body.get("name")
    if name is not None:
        if isinstance(name, str) and len(name) <= MAX_NAME:
            fields["name"] = name
        else:
            errors["name"] = f"Must be {MAX_NAME} or fewer in length."
    if body.get("permissions") is not None:
        try:
            fields["permissions"] = int(str(body["permissions"]))
        except ValueError:
            errors["permissions"] = "Could not interpret the value as a permission set."
    color = (body.get("colors") or {}).get("primary_color", body.get("color"))
    if color is not None:
        if isinstance(color, int) and not isinstance(color, bool) and 0 <= color <= MAX_COLOR:
            fields["color"] = color
        else:
            errors["color"] = f"Must be between 0 and {MAX_COLOR}."
    booleans(body, ("hoist", "mentionable"), fields, errors)
    if errors:
        raise BadMessage(400, 50035, "Invalid Form Body", errors)
    return fields


def _announce(standin: StandIn, guild: Guild, event: str, roles: Iterable[Role]) -> None:
    for role in roles:
        standin.send_soon(event, {"guild_id": str(guild.id), "role": role.payload()})


def _changeable(standin: StandIn, guild: Guild, role_id: int) -> Role:
    """A role the bot may give, take or delete: not @everyone (400 50028), below
    its own highest role with Manage Roles, and not managed (403 50013)."""
    role = _role(guild, role_id)
    if role.id == guild.id:
        raise Refused(400, 50028, "Invalid Role")
    check_manage(standin, guild, role)
    if role.managed_by_bot is not None:
        raise missing_permissions()
    return role


def assign(standin: StandIn, guild: Guild, user_id: int, role_id: int, *, give: bool) -> None:
    """The bot gives (or takes) a member's role."""
    member = guild.members.get(user_id)
    if member is None:
        raise Refused(404, 10007, "Unknown Member")
    role = _changeable(standin, guild, role_id)
    if (role.id in member.roles) == give:
        return
    member.roles = [*member.roles, role.id] if give else [r for r in member.roles if r != role.id]
    member_update(standin, guild, member)


def member_update(standin: StandIn, guild: Guild, member: Member) -> None:
    standin.send_soon(
        "GUILD_MEMBER_UPDATE", {"guild_id": str(guild.id), **member.payload()}, INTENT_GUILD_MEMBERS
    )


def create(standin: StandIn, guild: Guild, body: Any) -> Role:
    allowed = check_manage(standin, guild)
    if len(guild.roles) >= MAX_ROLES:
        raise Refused(400, 30005, f"Maximum number of guild roles reached ({MAX_ROLES})")
    fields = check_fields(body)
    permissions = fields.pop("permissions", guild.roles[guild.id].permissions)
    if permissions & ~allowed:
        raise missing_permissions()
    role = Role(standin.snowflake(), fields.pop("name", "new role"), permissions, **fields)
    guild.roles[role.id] = role
    moved = [r for r in reorder(guild, [(role, 1)]) if r is not role]
    _announce(standin, guild, "GUILD_ROLE_CREATE", [role])
    _announce(standin, guild, "GUILD_ROLE_UPDATE", moved)
    return role


def modify(standin: StandIn, guild: Guild, role_id: int, body: Any) -> Role:
    role = _role(guild, role_id)
    allowed = check_manage(standin, guild, role)
    fields = check_fields(body)
    if fields.get("permissions", role.permissions) & ~role.permissions & ~allowed:
        raise missing_permissions()  # it may grant only what the bot has itself
    for key, value in fields.items():
        setattr(role, key, value)
    _announce(standin, guild, "GUILD_ROLE_UPDATE", [role])
    return role


def delete(standin: StandIn, guild: Guild, role_id: int) -> None:
    role = _changeable(standin, guild, role_id)
    del guild.roles[role.id]
    for member in guild.members.values():
        member.roles = [r for r in member.roles if r != role.id]
    standin.send_soon("GUILD_ROLE_DELETE", {"guild_id": str(guild.id), "role_id": str(role.id)})


def move(standin: StandIn, guild: Guild, body: Any) -> None:
    placed: list[tuple[Role, int]] = []
    for entry in body if isinstance(body, list) else []:
        entry = entry if isinstance(entry, dict) else {}
        role, position = _role(guild, snowflake(str(entry.get("id")))), entry.get("position")
        if role.id == guild.id:
            raise Refused(400, 50028, "Invalid Role")
        if not isinstance(position, int) or isinstance(position, bool) or position < 1:
            raise BadMessage(400, 50035, "Invalid Form Body", {"position": "Must be 1 or more."})
        placed.append((role, position))
    check_manage(standin, guild, *(role for role, _ in placed))
    bot = _bot(standin, guild)
    if guild.owner_id != bot.id and any(p >= top_position(guild, bot) for _, p in placed):
        raise missing_permissions()  # only below its own highest role
    _announce(standin, guild, "GUILD_ROLE_UPDATE", reorder(guild, placed))


class RoleRoutes:
    """The role routes of the REST API (`Rest.routes` adds them before its catch-all)."""

    def __init__(self, rest: Routes) -> None:
        self.rest = rest
        self.standin = rest.standin

    def add(self, add: Callable[..., Any]) -> None:
        guild = f"{API}/guilds/{{guild}}"
        add("PUT", guild + "/members/{user_id}/roles/{role}", self._give)
        add("DELETE", guild + "/members/{user_id}/roles/{role}", self._take)
        add("POST", guild + "/roles", self._create)
        add("PATCH", guild + "/roles", self._move)
        add("GET", guild + "/roles/{role}", self._get)
        add("PATCH", guild + "/roles/{role}", self._modify)
        add("DELETE", guild + "/roles/{role}", self._delete)

    def _ids(self, request: web.Request, *names: str) -> list[int]:
        return [snowflake(request.match_info[name]) for name in names]

    async def _give(self, request: web.Request) -> web.Response:
        user_id, role_id = self._ids(request, "user_id", "role")
        assign(self.standin, self.rest._guild_for(request), user_id, role_id, give=True)
        return web.Response(status=204)

    async def _take(self, request: web.Request) -> web.Response:
        user_id, role_id = self._ids(request, "user_id", "role")
        assign(self.standin, self.rest._guild_for(request), user_id, role_id, give=False)
        return web.Response(status=204)

    async def _create(self, request: web.Request) -> web.Response:
        guild = self.rest._guild_for(request)
        body, _ = await self.rest._read_body(request)
        return json_response(create(self.standin, guild, body).payload())

    async def _move(self, request: web.Request) -> web.Response:
        guild = self.rest._guild_for(request)
        body, _ = await self.rest._read_body(request)
        move(self.standin, guild, body)
        ordered = sorted(guild.roles.values(), key=lambda r: (r.position, r.id))
        return json_response([r.payload() for r in ordered])

    async def _get(self, request: web.Request) -> web.Response:
        guild = self.rest._guild_for(request)
        return json_response(_role(guild, self._ids(request, "role")[0]).payload())

    async def _modify(self, request: web.Request) -> web.Response:
        guild = self.rest._guild_for(request)
        body, _ = await self.rest._read_body(request)
        role_id = self._ids(request, "role")[0]
        return json_response(modify(self.standin, guild, role_id, body).payload())

    async def _delete(self, request: web.Request) -> web.Response:
        delete(self.standin, self.rest._guild_for(request), self._ids(request, "role")[0])
        return web.Response(status=204)


class RoleHelpers:
    """The test-side API for roles (a mixin of `DiscordStandIn`)."""

    def roles(self: StandIn, guild_id: int) -> list[dict[str, Any]]:
        """The server's roles as Discord lists them, lowest (@everyone) first."""
        ordered = sorted(_guild(self, guild_id).roles.values(), key=lambda r: (r.position, r.id))
        return [r.payload() for r in ordered]

    def member_roles(self: StandIn, guild_id: int, user_id: int) -> list[int]:
        member = _guild(self, guild_id).members.get(user_id)
        if member is None:
            raise ValueError(f"{user_id} is not a member of {guild_id}")
        return list(member.roles)

    def bot_role(self: StandIn, guild_id: int) -> int:
        """The bot's own (managed) role in the server."""
        guild = _guild(self, guild_id)
        return next(r.id for r in guild.roles.values() if r.managed_by_bot == self.bot_user.id)

    def add_role(
        self: StandIn,
        guild_id: int,
        name: str,
        *,
        role_id: int | None = None,
        permissions: int = 0,
        position: int | None = None,
        managed_by: int | None = None,
    ) -> int:
        """A role a server admin makes (GUILD_ROLE_CREATE), at the top unless
        `position` (1: just above @everyone) says where; `managed_by` a bot's
        user id makes it that bot's managed role. Returns its id."""
        guild = _guild(self, guild_id)
        role = Role(role_id or self.snowflake(), name, permissions, len(guild.roles), managed_by)
        guild.roles[role.id] = role
        moved = [] if position is None else reorder(guild, [(role, position)])
        _announce(self, guild, "GUILD_ROLE_CREATE", [role])
        _announce(self, guild, "GUILD_ROLE_UPDATE", [r for r in moved if r is not role])
        return role.id

    def set_roles(self: StandIn, guild_id: int, member_id: int, roles: Iterable[int]) -> None:
        """Replace a member's roles (GUILD_MEMBER_UPDATE for a bot with the members intent)."""
        guild = _guild(self, guild_id)
        member = guild.members.get(member_id)
        if member is None:
            raise ValueError(f"{member_id} is not a member of guild {guild_id}")
        member.roles = [int(r) for r in roles]
        member_update(self, guild, member)

    def move_role(self: StandIn, guild_id: int, role_id: int, position: int) -> None:
        """A server admin drags a role to `position` (1: just above @everyone; the
        others renumbered around it): GUILD_ROLE_UPDATE for each role that moved."""
        guild = _guild(self, guild_id)
        role = guild.roles.get(role_id)
        if role is None or role.id == guild.id:
            raise ValueError(f"{role_id} is not a role that can be moved in {guild_id}")
        _announce(self, guild, "GUILD_ROLE_UPDATE", reorder(guild, [(role, position)]))


def _guild(standin: StandIn, guild_id: int) -> Guild:
    guild = standin.guilds.get(guild_id)
    if guild is None:
        raise ValueError(f"no guild {guild_id}; add_guild() first")
    return guild
