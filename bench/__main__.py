"""`python -m bench`: every benchmark, one table after the other (about 8 minutes).

Each runs in a fresh interpreter, as the bot would be: what one leaves behind
in memory (the stand-ins' messages, garbage collection settings) must not
weigh on the next one's figures. `--quick` is a smoke run: the same tables from
a few samples and two league sizes, and one short step of load.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

BENCHMARKS = (
    "bench.interactions",
    "bench.league_scale",
    "bench.delivery",
    "bench.picture",
    "bench.cards",
    "bench.photos",
    "bench.burst",
    "bench.many_leagues",
)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few samples")
    quick = ["--quick"] if parser.parse_args(argv).quick else []
    for number, module in enumerate(BENCHMARKS):
        if number:
            print(flush=True)
        done = subprocess.run([sys.executable, "-m", module, *quick], check=False)
        if done.returncode != 0:
            return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
