"""`python -m bench` still runs and prints its tables in the stable format.

A smoke run with few samples: it checks the rows and columns, never the
timings (those are read from a full run, see docs/performance.md). `--quick`
plays every phase the full run plays (bench.interactions keeps all its rounds
under load, bench.burst fires 200 instead of 2,000), so a full run that would
crash fails here.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROWS = [
    "framework floor idle",
    "framework floor, button click [2]",
    "framework floor, 50 in flight",
    "framework floor, probes after 50 [3]",
    "floor deferring, probes after 50 [3]",
    "storage floor (INSERT+COMMIT)",
    "/score idle ack",
    "/standings idle ack",
    "/late idle ack",
    "Approve idle ack",
    "/score with 50 in flight ack",
    "/standings with 50 in flight ack",
    "/late with 50 in flight ack",
    "Approve with 50 in flight ack",
    "/score whole (reply + post) [4]",
]
NUMBER = r"\d+\.\d\d"


def run_quick_bench() -> tuple[int, str, str]:
    """The benchmark in its own process group, so that on a timeout its bot
    processes are killed with it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bench", "--quick"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        out, err = process.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        raise AssertionError(f"the benchmark did not finish in 180 s: {err[-2000:]}") from None
    return process.returncode, out, err


def test_the_benchmark_prints_every_row_of_its_tables() -> None:
    returncode, stdout, stderr = run_quick_bench()
    assert returncode == 0, stderr[-2000:]
    tables = stdout.split("\n\n")
    # the interactions table, the league-size table, bench.delivery's three, the picture's,
    # bench.cards', bench.photos', bench.burst's, bench.many_leagues'
    assert len(tables) == 10, stdout
    interactions, scale, night, card_burst, steps, picture, cards, photos, burst, many = tables
    check_burst(burst)
    check_many_leagues(many)
    # The approvals channel's load per group, within its targets
    assert re.search(r"approval messages per group: at most [12] \(target <= 2\)", cards), cards
    assert re.search(r"clicks to approve a clean night, per group: at most [12] ", cards), cards
    lines = interactions.splitlines()
    assert lines[0].startswith("machine: ") and "cores" in lines[0]
    assert lines[1].split() == ["measure", "p50", "ms", "p99", "ms", "p50/floor", "samples"]
    table = {line[:36].rstrip(): line[36:] for line in lines[2:]}
    for name in ROWS:
        assert name in table, (name, stdout)
        fields = table[name].split()
        assert all(re.fullmatch(NUMBER, f) for f in fields[:-1]), (name, fields)
        assert fields[-1].isdigit() and int(fields[-1]) > 0, (name, fields)
    assert re.fullmatch(r"\s*\d+", table["cold start to READY + first answer"])
    assert re.fullmatch(r"\s*\d+\.\d", table["resident memory, 300 players (MB)"])
    assert "against the deferring floor, with 50 in flight: /standings " in stdout
    assert "Traceback" not in stderr
    header, *sizes, growth = scale.strip().splitlines()
    assert header.split(" | ")[0] == "league size"
    assert [row.split("|")[0].strip() for row in sizes] == ["30", "300"]
    for row in sizes:
        assert all(re.fullmatch(r"\d+\.\d ms", cell.strip()) for cell in row.split("|")[1:])
    assert re.fullmatch(r"growth 30 -> 300 players \(10x\): finalize x\d+\.\d, standings x\d+\.\d",
                        growth)  # fmt: skip
    title, columns, *rows = night.splitlines()
    assert title.startswith("delivery and sustained load, Discord's rate limits on")
    assert columns.split() == ["measure", "p50", "ms", "p95", "ms", "count"]
    night_rows = {line[:36].rstrip(): line[36:].split() for line in rows}
    latency = night_rows.pop("/score -> approval post (8/4s)")
    assert all(re.fullmatch(NUMBER, f) for f in latency[:2]) and latency[2].isdigit(), latency
    assert set(night_rows) == {"posts unmatched", "messages posted that night",
                               "429s answered to the bot"}, night  # fmt: skip
    assert all(len(v) == 1 and v[0].isdigit() for v in night_rows.values()), night
    columns, *rows, refused = card_burst.strip().splitlines()
    assert columns.split() == ["35", "/score", "in", "1", "s", "over", "3", "groups",
                               "first", "ms", "every", "ms", "scores"]  # fmt: skip
    assert [row[:36].rstrip() for row in rows] == ["group 1 card", "group 2 card", "group 3 card"]
    for row in rows:  # each card showed every one of its scores
        first, every, count = row[36:].split()
        assert re.fullmatch(NUMBER, first) and re.fullmatch(NUMBER, every) and count.isdigit()
    assert refused[:36].rstrip() == "429s answered to the bot" and refused[36:].strip().isdigit()
    header, *rates, highest = steps.strip().splitlines()
    assert header.split() == ["rate/s", "sent", "missed", "ack", "p50", "ms", "ack", "p95", "ms",
                              "bot", "cpu", "s", "stand-in", "cpu", "s", "seconds"]  # fmt: skip
    assert len(rates) == 1, steps  # --quick: one step
    fields = rates[0].split()
    assert all(f.isdigit() for f in fields[:3]), fields
    assert all(re.fullmatch(r"\d+\.\d+", f) for f in fields[3:]), fields
    assert re.fullmatch(r"highest rate with no missed 3 s deadline: (\d+/s|below \d+/s) "
                        r"\(first miss: .+; \d+ s steps\)", highest)  # fmt: skip
    title, columns, *picture_rows = picture.strip().splitlines()
    assert title.startswith("standings picture (Pillow), median of")
    assert columns.split() == ["measure", "value"]
    figures = {line[:36].rstrip(): line[36:].strip() for line in picture_rows}
    assert set(figures) == {
        "render, 30 players (ms)", "render, 300 players (ms)", "PNG size, 30 players (KiB)",
        "PNG size, 300 players (KiB)", "import Pillow + picture (ms)",
        "RSS added by the import (MB)", "RSS added by import + renders (MB)",
        "tracemalloc peak, 300 players (MB)",
    }, picture  # fmt: skip
    assert all(re.fullmatch(r"-?\d+\.\d+", v) for v in figures.values()), figures
    title, columns, *photo_rows = photos.strip().splitlines()
    assert title.startswith("score photos (bot/photos.py), median of")
    assert columns.split() == ["measure", "value"]
    photo_figures = {line[:40].rstrip(): line[40:].strip() for line in photo_rows}
    assert len(photo_figures) == 18, photos
    assert all(re.fullmatch(r"\d+(\.\d)?", v) for v in photo_figures.values()), photos
    assert int(photo_figures["biggest card, as posted (chars)"]) <= 6000


def check_many_leagues(many: str) -> None:
    """bench.many_leagues: start, acknowledgements with 50 in flight, finalize, memory."""
    title, columns, *rows = many.strip().splitlines()
    assert title == "Many leagues on one bot: 10 leagues of 30 players, one process", many
    assert columns.split() == ["figure"]
    figures = {line[:40].rstrip(): line[40:].strip() for line in rows}
    assert list(figures) == [
        "start to first answer (s)", "/me ack p50, 50 in flight (ms)",
        "/me ack p99, 50 in flight (ms)", "finalize one league, p50 (ms)",
        "bot resident memory (MB)",
    ], many  # fmt: skip
    assert all(re.fullmatch(r"\d+(\.\d)?", value) for value in figures.values()), many


def check_burst(burst: str) -> None:
    """bench.burst: one row per command of the mix, overall and the floor; memory."""
    title, columns, *rows = burst.strip().splitlines()
    assert title.startswith("burst: 200 interactions at once from 60 players"), burst
    assert columns.split() == ["command", "sent", "acked<=3s", "p50", "ms", "p95", "ms",
                               "p99", "ms", "p99/floor"]  # fmt: skip
    table = {line.split()[0]: line.split()[1:] for line in rows[:7]}
    assert list(table) == ["/score", "/standings", "/me", "/groups", "/late", "overall",
                           "floor"], burst  # fmt: skip
    sent = {name: int(fields[0]) for name, fields in table.items()}
    assert sent == {"/score": 80, "/standings": 40, "/me": 30, "/groups": 30, "/late": 20,
                    "overall": 200, "floor": 400}, burst  # fmt: skip
    for fields in table.values():
        assert fields[1].isdigit() and int(fields[1]) <= int(fields[0]), fields
        assert all(re.fullmatch(rf"{NUMBER}|>3000", f) for f in fields[2:5]), fields
        assert re.fullmatch(rf"{NUMBER}|-", fields[5]), fields
    memory = r"before \d+\.\d, peak \d+\.\d, 1 s after the last answer \d+\.\d"
    assert re.fullmatch(rf"bot memory \(MB\): {memory}", rows[7]), rows[7]
    assert re.fullmatch(rf"floor memory \(MB\): {memory}", rows[8]), rows[8]
    assert re.fullmatch(r"last answer: bot \d+\.\d s after the first interaction, "
                        r"floor \d+\.\d s", rows[9]), rows[9]  # fmt: skip
    assert re.fullmatch(r"floor p99 of each burst \(before, after the bot's\): "
                        r"\d+ ms, \d+ ms", rows[10]), rows[10]  # fmt: skip
