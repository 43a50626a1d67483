"""The score of one area's mutation run (`scripts/mutation.sh`), read from the
results mutmut keeps per module and from the second look's verdicts
(`mutants/<area>/recheck.json`, `scripts/mutation_recheck.py`):

- killed: by the area's own tests, or by another test of the suite;
- survived: every test that calls the changed function passed;
- not reached: no test of the suite calls the changed function.

The score is killed / (killed + survived + not reached): code no test runs
counts against it. Each survivor's change goes to `mutants/<area>/survivors.diff`.
Run in the area's work copy (`mutants/<area>/work`) with the mutation venv's
python."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mutmut.mutation.diff_apply import get_diff_for_mutant

KILLED = {1, 3, 24, -24, 36, 152, 255}  # a failing test, or a timeout
SURVIVED = {0}
NOT_REACHED = {33}


def main(area: str) -> int:
    recheck_path = Path("../recheck.json")
    recheck = json.loads(recheck_path.read_text()) if recheck_path.exists() else {}
    totals = {"own": 0, "other": 0, "survived": 0, "not reached": 0}
    survivors = []
    print(f"area {area}" + ("" if recheck else " (no second look)"))
    print(f"{'module':<34}{'own':>6}{'other':>7}{'surv.':>7}{'unrun':>7}{'score':>8}")
    for meta in sorted(Path("mutants").rglob("*.py.meta")):
        source = str(meta.relative_to("mutants")).removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        counts = dict.fromkeys(totals, 0)
        for name, code in codes.items():
            if code in KILLED:
                counts["own"] += 1
                continue
            if code not in SURVIVED | NOT_REACHED:
                continue  # not run (cut off), or skipped
            status = recheck.get(name, {}).get("status")
            if status == "killed":
                counts["other"] += 1
            elif status == "survived" or (status is None and code in SURVIVED):
                counts["survived"] += 1
                survivors.append((name, source, "survived"))
            else:
                counts["not reached"] += 1
                survivors.append((name, source, "not reached"))
        judged = sum(counts.values())
        for key in totals:
            totals[key] += counts[key]
        if judged:
            print(f"{source:<34}{counts['own']:>6}{counts['other']:>7}{counts['survived']:>7}"
                  f"{counts['not reached']:>7}{score(counts):>7.1f}%")  # fmt: skip
    if not sum(totals.values()):
        print("no mutant was judged; see run.log")
        return 1
    print(f"{'total':<34}{totals['own']:>6}{totals['other']:>7}{totals['survived']:>7}"
          f"{totals['not reached']:>7}{score(totals):>7.1f}%")  # fmt: skip
    print("own: killed by the area's tests; other: by another test of the suite;"
          " unrun: no test calls the function")  # fmt: skip
    survivors.sort(key=lambda s: (s[0].rsplit("_", 1)[0], int(s[0].rsplit("_", 1)[1])))
    with open("../survivors.diff", "w", encoding="utf-8") as out:
        for name, path, how in survivors:
            out.write(f"# {name} ({how})\n{get_diff_for_mutant(name, path=path)}\n\n")
    if survivors:
        print(f"{len(survivors)} survivors: each one's change is in mutants/{area}/survivors.diff")
    return 0


def score(counts: dict[str, int]) -> float:
    killed = counts["own"] + counts["other"]
    return 100 * killed / max(1, sum(counts.values()))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
