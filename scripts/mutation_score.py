"""The score of one area's mutation run (`scripts/mutation.sh`), read from the
results mutmut keeps per module: killed / survived per module and in all, and
each survivor's change in `mutants/<area>/survivors.diff`. Run in the area's
work copy (`mutants/<area>/work`) with the mutation venv's python."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mutmut.mutation.diff_apply import get_diff_for_mutant

KILLED = {1, 3, 24, -24, 36, 152, 255}  # a failing test, or a timeout
SURVIVED = {0}


def main(area: str) -> int:
    total_killed = total_survived = total_other = 0
    survivors = []
    print(f"area {area}")
    print(f"{'module':<40}{'killed':>8}{'survived':>10}{'score':>9}")
    for meta in sorted(Path("mutants").rglob("*.py.meta")):
        source = str(meta.relative_to("mutants")).removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        killed = sum(code in KILLED for code in codes.values())
        survived = [name for name, code in codes.items() if code in SURVIVED]
        other = len(codes) - killed - len(survived)
        total_killed += killed
        total_survived += len(survived)
        total_other += other
        survived.sort(key=lambda n: (n.rsplit("_", 1)[0], int(n.rsplit("_", 1)[1])))
        survivors += [(name, source) for name in survived]
        judged = killed + len(survived)
        if judged:
            print(f"{source:<40}{killed:>8}{len(survived):>10}{100 * killed / judged:>8.1f}%")
    judged = total_killed + total_survived
    if not judged:
        print("no mutant was judged; see run.log")
        return 1
    score = 100 * total_killed / judged
    print(f"{'total':<40}{total_killed:>8}{total_survived:>10}{score:>8.1f}%")
    if total_other:
        print(f"({total_other} mutants not judged: no test reaches them, or not run)")
    with open("../survivors.diff", "w", encoding="utf-8") as out:
        for name, path in survivors:
            out.write(f"# {name}\n{get_diff_for_mutant(name, path=path)}\n\n")
    if survivors:
        print(f"{len(survivors)} survivors: each one's change is in mutants/{area}/survivors.diff")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
