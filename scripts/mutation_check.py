"""Does a test kill a mutant? Runs test files of the project (as they are now,
copied into the area's mutated copy with the project's conftest files, helpers
and the code outside the mutated modules as it is now) against one or more
mutants of an area's last run of `scripts/mutation.sh`, and says for each
whether it was killed.

    .mutation-venv/bin/python scripts/mutation_check.py AREA MUTANT[,MUTANT...] TEST...

MUTANT is a name from mutants/<area>/survivors.diff, such as
bot.rules.money.x_payout__mutmut_12, or @FILE for a file of names (one a line,
or the survivors.diff itself); TEST a path or node id under tests/.
MUTATION_JOBS (default 2) mutants run at once; MUTATION_CHECK_AS_RUN=1 runs the
copy's tests as they were at the run, copying nothing of today's (for a run whose
modules have moved since).
Each mutant is also run against nothing changed (MUTANT_UNDER_TEST empty) once,
so a test that fails anyway is not taken for a kill.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


HUNG = 180  # seconds: a mutant can leave a thread that keeps pytest from exiting


def run(copy: Path, mutant: str, tests: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MUTANT_UNDER_TEST": mutant}
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-x", "-rfE",
            "--timeout", "120", *tests]  # fmt: skip
    try:
        return subprocess.run(
            args, cwd=copy, env=env, capture_output=True, text=True, check=False, timeout=HUNG
        )
    except subprocess.TimeoutExpired as hung:  # a hang counts as killed, as in mutmut
        out = hung.stdout.decode() if isinstance(hung.stdout, bytes) else hung.stdout or ""
        return subprocess.CompletedProcess(args, 124, out + f"\nHUNG past {HUNG} s\n", "")


def main(area: str, mutants: list[str], tests: list[str]) -> int:
    copy = ROOT / "mutants" / area / "work" / "mutants"
    if not copy.is_dir():
        print(f"no mutated copy at {copy}: run scripts/mutation.sh {area} first")
        return 2
    # The tests as they are now, and the code they import as it is now, but for the
    # area's mutated modules (each has its results beside it, `<module>.py.meta`):
    # code moved since the run does not keep today's tests from running.
    # MUTATION_CHECK_AS_RUN=1: the copy's own tests and code, as at the run (for a
    # run whose modules have moved since, which today's tests cannot import).
    as_run = os.environ.get("MUTATION_CHECK_AS_RUN") == "1"
    for folder in () if as_run else ("tests", "bot", "cogs", "standin"):
        for path in (ROOT / folder).rglob("*.py"):
            target = copy / path.relative_to(ROOT)
            if target.with_name(target.name + ".meta").exists():
                continue  # mutated: judged as the run made it
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    clean = run(copy, "", tests)
    if clean.returncode != 0:
        print(f"the tests fail on the unchanged code:\n{clean.stdout[-3000:]}")
        return 1

    def one(mutant: str) -> str:
        done = run(copy, mutant, tests)
        failed = [
            line
            for line in done.stdout.splitlines()
            if line.startswith(("FAILED", "ERROR", "HUNG"))
        ]
        verdict = "killed" if done.returncode != 0 else "SURVIVED"
        return f"{verdict:<9} {mutant}" + (f"  ({failed[0]})" if failed else "")

    with ThreadPoolExecutor(int(os.environ.get("MUTATION_JOBS", "2"))) as pool:
        for line in pool.map(one, mutants):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 4:
        print(__doc__)
        sys.exit(2)
    names = sys.argv[2]
    if names.startswith("@"):
        lines = Path(names[1:]).read_text(encoding="utf-8").splitlines()
        headers = [line[2:] for line in lines if line.startswith("# ")]  # a survivors.diff
        chosen = [line.split()[0] for line in headers or lines if line.strip()]
    else:
        chosen = names.split(",")
    sys.exit(main(sys.argv[1], chosen, sys.argv[3:]))
