"""Entry point of the `league-bot` console script.

The Discord bot itself arrives with issue #4; until then the command prints a
worked league night scored by the rules module (`bot.example`).
"""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="league-bot", description=__doc__)
    parser.add_argument(
        "command",
        nargs="?",
        default="example",
        choices=["example"],
        help="example: print a worked league night scored by the rules",
    )
    parser.parse_args(argv)
    from bot.example import main as example

    example()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
