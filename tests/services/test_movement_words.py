"""Each group's result says who moves up, who moves down and who
stays (R8.3-R8.5), not the R9.2 tally ("won", "stayed", "down").

Week 1 of the ten-player season in `test_season` (every game goes 3-2-1):
[P1 P2 P3] [P4 P5 P6] [P7 P8 P9 P10]. P3 and P4 swap (R8.3); the 4-player
group swaps two (R8.5): P7 and P8 move up, P5 and P6 move down. P1 wins the
top group and stays.
"""

from __future__ import annotations

from bot.database import Database
from bot.ui import embeds
from tests.services.conftest import add_machines, add_players
from tests.services.test_season import play_week


async def test_r8_5_second_mover_moves_up_and_the_top_winner_stays(league: Database) -> None:
    await add_players(league, 10)
    await add_machines(league, 6)
    summary = await play_week(league, 1)
    movement = {name: r.movement for g in summary.groups for name, r in g.rows}
    assert movement == {
        "P1": "stays", "P2": "stays", "P3": "down",
        "P4": "up", "P5": "down", "P6": "down",
        "P7": "up", "P8": "up", "P9": "stays", "P10": "stays",
    }  # fmt: skip
    shown = "\n".join(f.value or "" for [embed] in embeds.results(summary) for f in embed.fields)
    text = shown.replace("\n  ", " ")  # a player's line goes on, indented, on a phone
    line_of = {name: next(x for x in text.split("\n") if f". {name}:" in x) for name in movement}
    assert "moves up" in line_of["P8"] and "stay" not in line_of["P8"]
    assert "moves down" in line_of["P5"]
    assert "stays" in line_of["P1"] and "moves" not in line_of["P1"]
    assert "stays" in line_of["P9"]
