"""A worked league night, scored by the rules module and printed as a commissioner reads it.

Seven players are seeded by skill (R8.2), play five games resolved from their
vetoes (R4), one of them absent and scored from pre-makeups (R3.2), and the
night's points, bonus, movement and payout are printed (R5-R10).
"""

from __future__ import annotations

from bot.scoring import (
    GameNight,
    GroupNight,
    PlayerNight,
    resolve_picks,
    score_night,
    seed_groups,
    shown,
)

PLAYERS = [("Ann", 9), ("Bob", 7), ("Cat", None), ("Dan", 4), ("Eve", 8), ("Fay", 3), ("Gus", 6)]
MACHINES = {
    "Attack from Mars": 1_000_000_000,
    "The Addams Family": 50_000_000,
    "Medieval Madness": 20_000_000,
    "Twilight Zone": 300_000_000,
    "Theatre of Magic": 40_000_000,
    "Monster Bash": 80_000_000,
}
SCORES = {  # raw scores per machine, per player; Dan is absent tonight
    "Ann": [2_100_000_000, 61_000_000, 25_000_000, 410_000_000, 52_000_000, 90_000_000],
    "Eve": [900_000_000, 72_000_000, 14_000_000, 150_000_000, 31_000_000, 120_000_000],
    "Bob": [1_300_000_000, 40_000_000, 19_000_000, 330_000_000, 47_000_000, 60_000_000],
    "Gus": [700_000_000, 55_000_000, 22_000_000, 280_000_000, 36_000_000, 75_000_000],
    "Cat": [650_000_000, 48_000_000, 9_000_000, 310_000_000, 28_000_000, 66_000_000],
    "Fay": [400_000_000, 21_000_000, 12_000_000, 90_000_000, 22_000_000, 45_000_000],
}
PRE_MAKEUPS = {"Dan": {m: par // 2 for m, par in MACHINES.items()}}


def render() -> str:
    """The night, as text."""
    lines = []
    groups = seed_groups(PLAYERS)
    ranks = {name: rank for rank, name in enumerate((p for g in groups for p in g), start=1)}
    lines.append("Week 3 groups (cut by skill for this example, R8.2):")
    for number, group in enumerate(groups, start=1):
        lines.append(f"  Group {number}: {', '.join(group)}")
    machines = list(MACHINES)
    nights = []
    for number, group in enumerate(groups, start=1):
        by_rank = sorted(group, key=lambda p: -ranks[p])  # lowest rank picks first (R4.3)
        picks = [[machines[(ranks[p] * 2) % len(machines)]] for p in by_rank]
        resolved = resolve_picks(machines, picks)
        lines.append(f"  Group {number} vetoed {', '.join(resolved.applied)} (R4.4)")
        games = [
            GameNight(
                machine=m,
                par=MACHINES[m],
                scores={p: SCORES[p][machines.index(m)] for p in group if p in SCORES},
            )
            for m in resolved.games
        ]
        players = [
            PlayerNight(
                player=p,
                rank=ranks[p],
                attendance="absent" if p not in SCORES else "present",
                pre_makeups=PRE_MAKEUPS.get(p, {}),
            )
            for p in group
        ]
        nights.append(GroupNight(week=3, players=players, games=games))
    outcome = score_night(nights, pot_cents=7 * 300)
    for number, result in enumerate(outcome.groups, start=1):
        lines.append(f"\nGroup {number} results:")
        for game in result.games:
            row = ", ".join(f"{p} {game.points[p]}" for p in game.finish)
            lines.append(f"  Game {game.number} · {game.machine}: {row}")
        for player in result.order:
            lines.append(
                f"  {player:<4} MP {result.match_points[player]:>2}  "
                f"TNS {shown(result.tns[player]):>12,}  bonus {result.bonus[player]}  "
                f"league points {result.league_points[player]}"
            )
        lines.append(f"  Winner {result.winner}, loser {result.loser}")
    lines.append("\nNext week (R8.3-R8.5):")
    for number, group in enumerate(outcome.next_groups[""], start=1):
        lines.append(f"  Group {number}: {', '.join(group)}")
    payout = ", ".join(f"{p} ${cents / 100:.2f}" for p, cents in outcome.payouts.items())
    lines.append(f"Payout from a $21.00 pot (R10.2): {payout}")
    return "\n".join(lines)


def main() -> None:
    print(render())
