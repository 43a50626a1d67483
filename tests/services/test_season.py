"""A whole ten-week season for 10 players through the services, checked by hand.

P1 … P10 score the same on every game: P<n> scores (200 - 10n) million, so P1
scores 190M and P10 100M, and every machine's par is 1,000M. Any two scores
add up to more than the third, so every game goes 3-2-1 in a 3-player group,
3-2-2-1 in a 4-player group (nobody beats the two below combined) and 3-1 in a
2-player group (nobody triples). Per night that gives:

- 3-player group: MP 15 / 10 / 5; bonus 3 / 3 / 0 (Case 2: 15 = 10 + 5 and the
  winner's TNS is below the other two's, so the point goes to second, R7.3);
- 4-player group: MP 15 / 10 / 10 / 5; bonus 3 / 2 / 2 / 1 (R7.2);
- 2-player group: MP 15 / 5; bonus 4 / 0 (15 >= 3 x 5 is a tripling).

Week 1 is cut by skill (R8.2): [P1 P2 P3] [P4 P5 P6] [P7 P8 P9 P10]. Each week
P3 and P4 swap (R8.3) and the 4-player group swaps two (R8.5: its first two have
15 and 10 MP, the upper group's last two 10 and 5), so odd weeks repeat that
grouping and even weeks are [P1 P2 P4] [P3 P7 P8] [P5 P6 P9 P10].
"""

from __future__ import annotations

from datetime import timedelta

from bot.database import Database
from bot.services import approvals, finalize, picks, scores, standings
from cogs.money import money
from tests.services.conftest import (
    COMMISSIONER,
    GUILD,
    SEASON_START,
    add_machines,
    add_players,
    at,
    discord_id,
)

ODD_WEEK = [["P1", "P2", "P3"], ["P4", "P5", "P6"], ["P7", "P8", "P9", "P10"]]
EVEN_WEEK = [["P1", "P2", "P4"], ["P3", "P7", "P8"], ["P5", "P6", "P9", "P10"]]


def strength(name: str) -> int:
    return (200 - 10 * int(name[1:])) * 1_000_000


async def play_week(db: Database, week: int) -> finalize.NightSummary:
    night = SEASON_START + timedelta(weeks=week - 1)
    locked = await picks.lock_picks(db, GUILD, now=at(night, "19:15"))
    for group in locked:
        names = [f"P{pid}" for pid in group.group.members]  # player ids follow sign-up
        for name in names:
            for game in range(1, 6):
                await scores.submit(
                    db, GUILD, discord_id(int(name[1:])), game, strength(name),
                    now=at(night, "20:00"),
                )  # fmt: skip
        label = f"{group.group.pool}{group.group.position}"
        await approvals.approve_all(db, GUILD, label, by=COMMISSIONER, now=at(night, "22:00"))
    for n in range(1, 11):
        await money.record_dues(db, GUILD, f"P{n}", week, by=COMMISSIONER, now=at(night, "19:00"))
    return await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(night, "23:00"))


def groups_of(summary: finalize.NightSummary) -> list[list[str]]:
    return [[name for name, _ in group.rows] for group in summary.groups]


def points(summary: finalize.NightSummary) -> dict[str, int]:
    return {name: row.league_points for group in summary.groups for name, row in group.rows}


async def test_r7_r8_r9_r10_r11_r13_a_whole_season_matches_the_hand_worked_values(
    league: Database,
) -> None:
    db = league
    await add_players(db, 10)
    machines = await add_machines(db, 6)
    weeks = {}
    for week in range(1, 6):
        weeks[week] = await play_week(db, week)
        # Rows are in finishing order, which is strength order inside a group.
        assert groups_of(weeks[week]) == (ODD_WEEK if week % 2 else EVEN_WEEK), week

    # R4.5: nobody vetoed, so with P = 6 the one veto is filled in machine order.
    assert [g.machine for g in weeks[1].groups[0].games] == machines[1:]

    assert points(weeks[1]) == {
        "P1": 15,
        "P2": 10,
        "P3": 5,
        "P4": 15,
        "P5": 10,
        "P6": 5,
        "P7": 15,
        "P8": 10,
        "P9": 10,
        "P10": 5,
    }  # fmt: skip  (weeks 1-2: no bonus, R7.2)
    assert points(weeks[3]) == {
        "P1": 18, "P2": 13, "P3": 5, "P4": 18, "P5": 13, "P6": 5,
        "P7": 18, "P8": 12, "P9": 12, "P10": 6,
    }  # fmt: skip
    # R10.2: all three winners have TLP 15 in week 1; TNS breaks the tie: P1, then P4.
    # $60 of dues: a $30 pot, 75% / 25%.
    assert weeks[1].payouts == {"P1": 2250, "P4": 750}

    # R9: at the division week (6) only P1 qualifies (won 5 of 5); P3 and P5 won
    # twice but moved down three times. A is filled by standings after week 5:
    # P1 84, P7 74, P5 69, P4 61, P2 59 | P9 56, P3 48, P8 44, P6 37, P10 28.
    after_five = await standings.standings(db, GUILD)
    assert [(r.player.name, r.league_points) for r in after_five] == [
        ("P1", 84), ("P7", 74), ("P5", 69), ("P4", 61), ("P2", 59),
        ("P9", 56), ("P3", 48), ("P8", 44), ("P6", 37), ("P10", 28),
    ]  # fmt: skip
    assert weeks[5].divisions_formed
    # Cut from the ladder after week 5's movement: P1 P2 P4 P3 P7 P8 P5 P6 P9 P10.
    assert weeks[5].next_groups == [
        ("Division A · Group 1", ["P1", "P2", "P4"]),
        ("Division A · Group 2", ["P7", "P5"]),
        ("Division B · Group 1", ["P3", "P8", "P6"]),
        ("Division B · Group 2", ["P9", "P10"]),
    ]

    weeks[6] = await play_week(db, 6)
    assert points(weeks[6]) == {
        "P1": 18, "P2": 13, "P4": 5, "P5": 19, "P7": 5,
        "P3": 18, "P6": 13, "P8": 5, "P9": 19, "P10": 5,
    }  # fmt: skip
    # R7.4: week 6 starts everyone at x1: winners enter week 7 at x2, losers at x0.
    carried = {r.player.name: r.multiplier for r in await standings.standings(db, GUILD)}
    assert carried == {
        "P1": 2, "P2": 1, "P4": 0, "P5": 2, "P7": 0,
        "P3": 2, "P6": 1, "P8": 0, "P9": 2, "P10": 0,
    }  # fmt: skip
    assert weeks[6].next_groups == [
        ("Division A · Group 1", ["P1", "P2", "P5"]),
        ("Division A · Group 2", ["P4", "P7"]),
        ("Division B · Group 1", ["P3", "P6", "P9"]),
        ("Division B · Group 2", ["P8", "P10"]),
    ]

    weeks[7] = await play_week(db, 7)
    # Bonus x multiplier: P1 3x2, P2 3x1, P3 3x2, P6 3x1; P4 and P8 win at x0.
    assert points(weeks[7]) == {
        "P1": 21, "P2": 13, "P5": 5, "P4": 15, "P7": 5,
        "P3": 21, "P6": 13, "P9": 5, "P8": 15, "P10": 5,
    }  # fmt: skip
    # R10.2: TLP ignores the multiplier: P4 and P8 have 15 + 4 = 19; P4's TNS is higher.
    assert weeks[7].payouts == {"P4": 2250, "P8": 750}

    for week in (8, 9, 10):
        weeks[week] = await play_week(db, week)
    assert points(weeks[8]) == {
        "P1": 24, "P2": 13, "P4": 5, "P5": 19, "P7": 5,
        "P3": 24, "P6": 13, "P8": 5, "P9": 19, "P10": 5,
    }  # fmt: skip
    assert weeks[10].next_groups == []  # the regular season is over

    final = await standings.standings(db, GUILD)
    assert [(r.player.name, r.league_points) for r in final] == [
        ("P1", 195), ("P3", 159), ("P5", 136), ("P2", 124), ("P9", 123),
        ("P4", 106), ("P6", 102), ("P7", 99), ("P8", 89), ("P10", 53),
    ]  # fmt: skip
    division_a = await standings.standings(db, GUILD, "A")
    assert [(r.rank, r.player.name) for r in division_a] == [
        (1, "P1"), (2, "P5"), (3, "P2"), (4, "P4"), (5, "P7"),
    ]  # fmt: skip
    # The picture's data: the same standings, and each player's league
    # points by week adding up to their season total (R11.1).
    by_week = await standings.points_by_week(db, GUILD)
    assert by_week.rows == final and by_week.weeks == list(range(1, 11))
    assert all(sum(by_week.points[r.player.id].values()) == r.league_points for r in final)
    assert by_week.points[final[0].player.id][8] == 24  # P1's week 8, as above
    in_a = await standings.points_by_week(db, GUILD, "A")
    assert in_a.rows == division_a

    # R13.1: 5 players per division: 5 // 3 = 1, clamped to 2 qualifiers.
    field = await standings.playoffs(db, GUILD)
    assert [(d.division, d.qualifiers, d.alternates) for d in field] == [
        ("A", ["P1", "P5"], ["P2", "P4", "P7"]),
        ("B", ["P3", "P9"], ["P6", "P8", "P10"]),
    ]
    # R13.2: P5 cannot come; the first alternate takes the place.
    field = await standings.playoffs(db, GUILD, unavailable=["P5"])
    assert field[0].qualifiers == ["P1", "P2"]

    me = await standings.player_season(db, GUILD, discord_id=discord_id(1))
    assert (me.rank, me.nights, me.league_points, me.multiplier) == (1, 10, 195, 3)
    assert (me.dues_paid_cents, me.dues_owed_cents) == (6000, 0)
