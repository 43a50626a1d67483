"""A night's groups, picks, games, notices and recorded tie orders."""

from __future__ import annotations

import aiosqlite

from bot.models import Game, Group, Notice
from bot.repositories._rows import insert, many, one, run, run_many, scalar

NIGHT_OF_GROUP = "SELECT night_id FROM night_groups WHERE id = ?"
GROUPS = "SELECT * FROM night_groups WHERE night_id = ? ORDER BY pool, position"
MEMBERS = (
    "SELECT group_id, player_id FROM group_members WHERE night_id = ? ORDER BY group_id, ladder"
)
INSERT_GROUP = "INSERT INTO night_groups (night_id, pool, position) VALUES (?, ?, ?)"
INSERT_MEMBER = (
    "INSERT INTO group_members (group_id, night_id, player_id, ladder) VALUES (?, ?, ?, ?)"
)
DELETE_MEMBERS = "DELETE FROM group_members WHERE night_id = ?"
DELETE_GROUPS = "DELETE FROM night_groups WHERE night_id = ?"

PICKS = (
    "SELECT p.player_id, m.name FROM picks p JOIN machines m ON m.id = p.machine_id"
    " WHERE p.night_id = ? ORDER BY p.player_id, p.position"
)
INSERT_PICK = (
    "INSERT INTO picks (night_id, player_id, position, machine_id) VALUES (?, ?,"
    " (SELECT coalesce(max(position), 0) + 1 FROM picks WHERE night_id = ? AND player_id = ?), ?)"
)
CLEAR_PICKS = "DELETE FROM picks WHERE night_id = ? AND player_id = ?"

NIGHT_MACHINES = "SELECT machine_id FROM night_machines WHERE night_id = ? ORDER BY machine_id"
INSERT_NIGHT_MACHINE = "INSERT INTO night_machines (night_id, machine_id) VALUES (?, ?)"

GAMES = (
    "SELECT ga.*, m.name AS machine FROM games ga JOIN machines m ON m.id = ga.machine_id"
    " WHERE ga.group_id = ? ORDER BY ga.number"
)
GAMES_OF_NIGHT = (
    "SELECT ga.*, m.name AS machine FROM games ga JOIN machines m ON m.id = ga.machine_id"
    " JOIN night_groups n ON n.id = ga.group_id"
    " WHERE n.night_id = ? ORDER BY ga.group_id, ga.number"
)
TIE_ORDERS_OF_NIGHT = (
    "SELECT t.game_id, t.player_id FROM tie_orders t JOIN games ga ON ga.id = t.game_id"
    " JOIN night_groups n ON n.id = ga.group_id WHERE n.night_id = ? ORDER BY t.game_id, t.position"
)
GROUP_IDS = "SELECT id, pool, position FROM night_groups WHERE night_id = ?"
POOLS_OF_SEASON = (
    "SELECT m.player_id, g.pool FROM group_members m JOIN night_groups g ON g.id = m.group_id"
    " JOIN nights n ON n.id = g.night_id WHERE n.season_id = ? ORDER BY n.week"
)
GAME_BY_ID = (
    "SELECT ga.*, m.name AS machine FROM games ga JOIN machines m ON m.id = ga.machine_id"
    " WHERE ga.id = ?"
)
INSERT_GAME = "INSERT INTO games (group_id, number, machine_id, filled) VALUES (?, ?, ?, ?)"
DELETE_GAMES = "DELETE FROM games WHERE group_id = ?"

DELETE_TIE_ORDER = "DELETE FROM tie_orders WHERE game_id = ?"
INSERT_TIE_ORDER = "INSERT INTO tie_orders (game_id, player_id, position) VALUES (?, ?, ?)"

NOTICE_BY_ID = "SELECT * FROM notices WHERE id = ?"
NOTICES = "SELECT * FROM notices WHERE night_id = ? AND withdrawn_at IS NULL ORDER BY given_at"
WITHDRAW_NOTICE = (
    "UPDATE notices SET withdrawn_at = ? WHERE night_id = ? AND player_id = ?"
    " AND withdrawn_at IS NULL"
)
WITHDRAW_NOTICES_OF_NIGHT = (
    "UPDATE notices SET withdrawn_at = ? WHERE night_id = ? AND withdrawn_at IS NULL"
)
MOVE_LIVE_NOTICES = "UPDATE notices SET night_id = ?2 WHERE night_id = ?1 AND withdrawn_at IS NULL"
MOVE_WITHDRAWN_NOTICES = (
    "UPDATE notices SET night_id = ?2 WHERE night_id = ?1 AND withdrawn_at IS NOT NULL"
)
INSERT_NOTICE = (
    "INSERT INTO notices (night_id, player_id, kind, timing, minutes, note, given_by, given_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _game(row: aiosqlite.Row) -> Game:
    return Game(
        id=row["id"],
        group_id=row["group_id"],
        number=row["number"],
        machine_id=row["machine_id"],
        machine=row["machine"],
        filled=bool(row["filled"]),
    )


def _notice(row: aiosqlite.Row) -> Notice:
    return Notice(
        id=row["id"],
        night_id=row["night_id"],
        player_id=row["player_id"],
        kind=row["kind"],
        timing=row["timing"],
        minutes=row["minutes"],
        note=row["note"],
    )


async def groups(conn: aiosqlite.Connection, night_id: int) -> list[Group]:
    """A night's groups: pools in order ('' then A then B), top group first."""
    members: dict[int, list[int]] = {}
    for group_id, player_id in await many(conn, MEMBERS, (night_id,), tuple):
        members.setdefault(group_id, []).append(player_id)
    return await many(
        conn,
        GROUPS,
        (night_id,),
        lambda r: Group(r["id"], r["night_id"], r["pool"], r["position"], tuple(members[r["id"]])),
    )


async def replace_groups(
    conn: aiosqlite.Connection, night_id: int, pools: dict[str, list[list[int]]]
) -> None:
    """Store a night's groups: `pools[pool]` holds its groups, top first."""
    await run(conn, DELETE_MEMBERS, (night_id,))
    await run(conn, DELETE_GROUPS, (night_id,))
    await run_many(
        conn,
        INSERT_GROUP,
        [(night_id, pool, position) for pool, groups in pools.items()
         for position in range(1, len(groups) + 1)],
    )  # fmt: skip
    ids = {
        (pool, position): group_id
        for group_id, pool, position in await many(conn, GROUP_IDS, (night_id,), tuple)
    }
    await run_many(
        conn,
        INSERT_MEMBER,
        [
            (ids[(pool, position)], night_id, player_id, ladder)
            for pool, groups in pools.items()
            for position, members in enumerate(groups, start=1)
            for ladder, player_id in enumerate(members, start=1)
        ],
    )


async def picks(conn: aiosqlite.Connection, night_id: int) -> dict[int, list[str]]:
    rows = await many(conn, PICKS, (night_id,), lambda row: (row[0], row[1]))
    result: dict[int, list[str]] = {}
    for player_id, machine in rows:
        result.setdefault(player_id, []).append(machine)
    return result


async def add_pick(
    conn: aiosqlite.Connection, night_id: int, player_id: int, machine_id: int
) -> None:
    await run(conn, INSERT_PICK, (night_id, player_id, night_id, player_id, machine_id))


async def clear_picks(conn: aiosqlite.Connection, night_id: int, player_id: int) -> int:
    return await run(conn, CLEAR_PICKS, (night_id, player_id))


async def night_machines(conn: aiosqlite.Connection, night_id: int) -> list[int]:
    return await many(conn, NIGHT_MACHINES, (night_id,), lambda row: row[0])


async def set_night_machines(
    conn: aiosqlite.Connection, night_id: int, machine_ids: list[int]
) -> None:
    for machine_id in machine_ids:
        await run(conn, INSERT_NIGHT_MACHINE, (night_id, machine_id))


async def games(conn: aiosqlite.Connection, group_id: int) -> list[Game]:
    return await many(conn, GAMES, (group_id,), _game)


async def game_by_id(conn: aiosqlite.Connection, game_id: int) -> Game | None:
    found = await many(conn, GAME_BY_ID, (game_id,), _game)
    return found[0] if found else None


async def replace_games(
    conn: aiosqlite.Connection, group_id: int, machine_ids: list[int], filled: set[int]
) -> None:
    await run(conn, DELETE_GAMES, (group_id,))
    for number, machine_id in enumerate(machine_ids, start=1):
        await run(conn, INSERT_GAME, (group_id, number, machine_id, int(number in filled)))


async def set_tie_order(conn: aiosqlite.Connection, game_id: int, player_ids: list[int]) -> None:
    await run(conn, DELETE_TIE_ORDER, (game_id,))
    for position, player_id in enumerate(player_ids, start=1):
        await run(conn, INSERT_TIE_ORDER, (game_id, player_id, position))


async def notices(conn: aiosqlite.Connection, night_id: int) -> list[Notice]:
    return await many(conn, NOTICES, (night_id,), _notice)


async def give_notice(
    conn: aiosqlite.Connection,
    night_id: int,
    player_id: int,
    kind: str,
    timing: str,
    minutes: int | None,
    note: str,
    given_by: int,
    now: str,
) -> int:
    """A new notice replaces the player's earlier one for the night (kept, withdrawn)."""
    await run(conn, WITHDRAW_NOTICE, (now, night_id, player_id))
    params = (night_id, player_id, kind, timing, minutes, note, given_by, now)
    return await insert(conn, INSERT_NOTICE, params)


async def withdraw_notice(
    conn: aiosqlite.Connection, night_id: int, player_id: int, now: str
) -> bool:
    return await run(conn, WITHDRAW_NOTICE, (now, night_id, player_id)) == 1


async def night_of_group(conn: aiosqlite.Connection, group_id: int) -> int:
    return int(await scalar(conn, NIGHT_OF_GROUP, (group_id,)))


async def games_of_night(conn: aiosqlite.Connection, night_id: int) -> dict[int, list[Game]]:
    """Every group's games of a night, by group id, game 1 first."""
    found: dict[int, list[Game]] = {}
    for game in await many(conn, GAMES_OF_NIGHT, (night_id,), _game):
        found.setdefault(game.group_id, []).append(game)
    return found


async def tie_orders_of_night(conn: aiosqlite.Connection, night_id: int) -> dict[int, list[int]]:
    """R5.4: the recorded tie orders of a night's games, by game id."""
    found: dict[int, list[int]] = {}
    for game_id, player_id in await many(conn, TIE_ORDERS_OF_NIGHT, (night_id,), tuple):
        found.setdefault(game_id, []).append(player_id)
    return found


async def pools_of_season(conn: aiosqlite.Connection, season_id: int) -> dict[int, str]:
    """Each player's pool ('' or a division) in the latest night that has groups."""
    return dict(await many(conn, POOLS_OF_SEASON, (season_id,), tuple))


async def withdraw_notices_of_night(conn: aiosqlite.Connection, night_id: int, now: str) -> int:
    return await run(conn, WITHDRAW_NOTICES_OF_NIGHT, (now, night_id))


async def move_notices(conn: aiosqlite.Connection, from_night: int, to_night: int) -> int:
    """Re-point a night's notices, live and withdrawn, to another night (R1.2:
    a notice belongs to a date, and the date is now carried by `to_night`).

    Returns how many live notices moved. `to_night` must have no live notice of
    the same player (the one_live_notice index): move nights' notices in order
    of their original dates, earliest first, after the target's own have left."""
    moved = await run(conn, MOVE_LIVE_NOTICES, (from_night, to_night))
    await run(conn, MOVE_WITHDRAWN_NOTICES, (from_night, to_night))
    return moved


async def notice_by_id(conn: aiosqlite.Connection, notice_id: int) -> Notice | None:
    """A notice, live or withdrawn."""
    return await one(conn, NOTICE_BY_ID, (notice_id,), _notice)
