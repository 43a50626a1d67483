"""The standings picture: time to draw it and the memory it adds.

Prints one table: the median time to render a 30- and a 300-player picture
(10 weeks; 300 players in two divisions) over several runs, the PNG's size,
and the memory: resident set (RSS) before importing Pillow and the picture
module, after importing, and after the renders; and tracemalloc's peak for one
300-player render (Python-level allocations only; Pillow's image buffers are
C memory, seen in the RSS). Run: `python -m bench.picture` (`--quick`: 3 runs).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
import tracemalloc


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1024 / 1024


def main(argv: list[str]) -> int:
    runs = 3 if "--quick" in argv else 15
    before = rss_mb()
    started = time.perf_counter()
    from bot.ui.picture import Line, Picture, render

    imported_ms = (time.perf_counter() - started) * 1000
    after_import = rss_mb()

    def league(players: int, divisions: bool) -> Picture:
        rnd = random.Random(players)
        scored = sorted(
            ((sum(w), f"Player {i + 1}", w) for i in range(players)
             for w in [tuple(rnd.randint(0, 12) for _ in range(10))]),
            key=lambda s: -s[0],
        )  # fmt: skip
        parts = [("A", scored[::2]), ("B", scored[1::2])] if divisions else [("", scored)]
        lines = tuple(Line(place, name, points, division, weekly)
                      for division, part in parts
                      for place, (points, name, weekly) in enumerate(part, start=1))  # fmt: skip
        return Picture("Standings after week 10", tuple(range(1, 11)), lines)

    print("standings picture (Pillow), median of", runs, "runs")
    print(f"{'measure':<36} {'value':>10}")
    for players, divisions in ((30, False), (300, True)):
        picture = league(players, divisions)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            png = render(picture)
            times.append((time.perf_counter() - t) * 1000)
        print(f"{f'render, {players} players (ms)':<36} {statistics.median(times):>10.2f}")
        print(f"{f'PNG size, {players} players (KiB)':<36} {len(png) / 1024:>10.1f}")
    tracemalloc.start()
    render(league(300, True))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{'import Pillow + picture (ms)':<36} {imported_ms:>10.2f}")
    print(f"{'RSS added by the import (MB)':<36} {after_import - before:>10.1f}")
    print(f"{'RSS added by import + renders (MB)':<36} {rss_mb() - before:>10.1f}")
    print(f"{'tracemalloc peak, 300 players (MB)':<36} {peak / 1024 / 1024:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
