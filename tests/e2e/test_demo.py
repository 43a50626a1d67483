"""`league-bot demo`: the whole night, set-up to standings, is short
enough to read and shows what people see, cut readably for a terminal."""

from __future__ import annotations

import re
from pathlib import Path

from bot.demo import run_demo
from bot.demo_script import MACHINES
from bot.transcript import WIDTH


async def test_the_demo_night_reads_in_under_200_lines_none_too_wide(tmp_path: Path) -> None:
    printed: list[str] = []
    database = await run_demo(tmp_path, out=printed.append)
    lines = "\n".join(printed).split("\n")
    assert len(lines) < 200, len(lines)
    assert lines[-1] == f"  sqlite3 {database}"  # a path is never cut: its own line
    assert [line for line in lines[:-1] if len(line) > WIDTH] == []
    text = "\n".join(lines)
    # The set-up is summed up, the scores come by the form, dues in one command.
    assert "Koi adds 6 machines with their pars and 7 players" in text
    assert "Bob › /score-form\n" in text and "Dan › /score-form game:1\n" in text
    assert text.count("/league money dues") == 1 and "Paid: Ann $6.00, Bob $6.00" in text
    # The scorecards as a commissioner sees them: title, then a line per game.
    assert "#score-approvals bot: [Week 1 · Group 1]" in text
    assert "Game 2 · Medieval Madness: Ann 25,000,000 ⏳ · Bob 4,000,000 ⏳ · Cat 9" in text
    # The rejection reaches Bob with its reason and what to do; /me shows it.
    dm = text[text.index("DM to Bob:") :]
    assert "rejected your score of 4,000,000 on game 2" in dm.split("Bob › /me")[0]
    assert "Reason: That looks like a typo: one zero short?" in " ".join(dm.split())
    assert "Send it again with /score." in dm
    assert "- Game 2 · Medieval Madness: 4,000,000 · rejected" in dm
    # The night ends with its results and the standings.
    assert "#league-announcements bot: [Week 1 results" in text
    assert "#league-announcements bot: [Standings · " in text
    # Mentions read as names, and no machine name is cut across two lines.
    assert not re.search(r"<@!?\d+>", text) and "(by @Dan)" in text
    for machine in MACHINES:
        first = machine.rpartition(" ")[0]  # a line ending here cut the name
        assert not any(line.rstrip().endswith(first) for line in lines), machine
    assert database.exists()


async def test_the_playoffs_demo_plays_to_the_champion_in_under_200_lines(tmp_path: Path) -> None:
    """`league-bot demo --playoffs`: the night summed up, then playoff night (R13):
    the field announced, a qualifier who cannot come replaced at the end of the
    grace period, the final group approved, the champion, prizes and summary."""
    printed: list[str] = []
    database = await run_demo(tmp_path, out=printed.append, playoffs=True)
    lines = "\n".join(printed).split("\n")
    assert len(lines) < 200, len(lines)
    assert lines[-1] == f"  sqlite3 {database}"
    assert [line for line in lines[:-1] if len(line) > WIDTH] == []
    text = "\n".join(lines)
    assert "#league-announcements bot: [Week 1 results" not in text  # summed up
    assert "#league-announcements bot: **Playoffs: Wednesday 14 January**" in text
    assert "- Dan cannot come: Eve takes the place." in text
    assert "#league-announcements bot: **Playoffs · League champion: Eve**" in text
    assert "by playoff places, then standings" in text
    assert "🏆 League champion: Eve (won the playoffs)" in text
    assert not re.search(r"<@!?\d+>", text)
