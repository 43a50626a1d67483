"""`python -m bench`: every benchmark, one table after the other (about 40 s).

`--quick` is a smoke run: the same tables from a few samples and two league sizes.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bench import interactions, league_scale


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few samples")
    quick = parser.parse_args(argv).quick
    if quick:
        interactions.quick()
    asyncio.run(interactions.main())
    print()
    asyncio.run(league_scale.main(league_scale.QUICK_SIZES if quick else league_scale.SIZES))


if __name__ == "__main__":
    main(sys.argv[1:])
