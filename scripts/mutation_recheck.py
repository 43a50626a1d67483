"""The second look of an area's mutation run (`scripts/mutation.sh`): every
mutant that none of the area's own tests reached (and, with
MUTATION_RECHECK_SCOPE=all, every one they let survive) is tried again against
the wider tests that also cover the area's code (the cogs' tests for a
service, the end-to-end night for the sender, ...).

First the wider tests run once on the unchanged code, recording which test
calls which of the area's functions and how long each takes; then each mutant
runs the tests that call its function and were not among the area's own
(those passed already), stopping at the first failure: all of them, or, for a
function hundreds of tests call, up to MUTATION_RECHECK_BUDGET (default 60)
seconds of them, taken in turn from every test file that calls it (`chosen`). The verdicts
go to `mutants/<area>/recheck.json` ({mutant: {"status", "by"}}), which
`scripts/mutation_score.py` reads.

Run in the area's mutated copy (`mutants/<area>/work/mutants`) with the
mutation venv's python:

    python recheck.py OUT_DIR TEST_PATH...
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

KILLED = {1, 3, 24, -24, 36, 152, 255}
# What is looked at again: the mutants no test of the area reached (33), and,
# with MUTATION_RECHECK_SCOPE=all, those that survived them (0) as well.
RECHECK = {0, 33} if os.environ.get("MUTATION_RECHECK_SCOPE") == "all" else {33}
PYTEST = ["-p", "no:cacheprovider", "-q", "-x", "-rfE", "--timeout", "120", "--tb=line"]
TIMEOUT = 900  # seconds for one mutant's tests; longer counts as killed (a hang)
BUDGET = float(os.environ.get("MUTATION_RECHECK_BUDGET", "60"))  # seconds of tests a mutant


def function_of(mutant: str) -> str:
    return mutant.partition("__mutmut_")[0]


def to_recheck() -> dict[str, str]:
    """{mutant: source path} of every mutant the area's own tests did not kill."""
    found = {}
    for meta in sorted(Path(".").rglob("*.py.meta")):
        source = str(meta).removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        found.update({name: source for name, code in codes.items() if code in RECHECK})
    return found


def stats(paths: list[str], out: Path) -> None:
    """Runs in a process of its own: the wider tests on the unchanged code, each
    test's calls into the mutated functions recorded in `out`."""
    sys.path.insert(0, os.getcwd())  # the mutated copy, as `python -m pytest` would have it
    import pytest
    from mutmut.mutation import trampoline

    hits: set[str] = set()
    trampoline.record_trampoline_hit = lambda name, caller=None: hits.add(name)
    os.environ["MUTANT_UNDER_TEST"] = "stats"
    calls: dict[str, list[str]] = defaultdict(list)
    durations: dict[str, float] = {}

    class Recorder:
        def pytest_runtest_setup(self, item) -> None:
            hits.clear()

        def pytest_runtest_teardown(self, item, nextitem) -> None:
            for name in hits:
                calls[name].append(item.nodeid)
            hits.clear()

        def pytest_runtest_logreport(self, report) -> None:
            durations[report.nodeid] = durations.get(report.nodeid, 0.0) + report.duration

    args = ["-p", "no:cacheprovider", "-q", "--timeout", "120", "--tb=short", *paths]
    pytest.main(args, plugins=[Recorder()])
    out.write_text(json.dumps({"calls": calls, "durations": durations}))


def verdict(mutant: str, tests: list[str]) -> dict[str, str]:
    if not tests:
        return {"status": "not reached", "by": ""}
    env = {**os.environ, "MUTANT_UNDER_TEST": mutant}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *PYTEST, *tests],
            env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"status": "killed", "by": "timeout"}
    if done.returncode == 0:
        return {"status": "survived", "by": ""}
    if done.returncode in KILLED or done.returncode == 2:  # 2: interrupted by a test's error
        failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
        return {"status": "killed", "by": failed[0].split(" ", 2)[1] if failed else "?"}
    return {"status": "not reached", "by": f"pytest exit {done.returncode}"}


def chosen(tests: set[str], durations: dict[str, float]) -> list[str]:
    """The tests a mutant runs, fastest first: in turn from each test file that
    calls its function, the file's fastest not yet taken, until BUDGET seconds
    of tests (as timed on the unchanged code) are taken. A function called by
    hundreds of tests (a rule every service uses) is so tried by every feature
    that calls it, in a minute rather than the whole suite's time."""
    by_file: dict[str, list[str]] = defaultdict(list)
    for test in sorted(tests, key=lambda t: durations.get(t, 0)):
        by_file[test.split("::")[0]].append(test)
    taken: list[str] = []
    spent = 0.0
    while any(by_file.values()) and spent < BUDGET:
        for file in sorted(by_file):
            if by_file[file] and spent < BUDGET:
                test = by_file[file].pop(0)
                taken.append(test)
                spent += durations.get(test, 0.0)
    return sorted(taken, key=lambda t: durations.get(t, 0))


def main(out: Path, paths: list[str]) -> int:
    mutants = to_recheck()
    results_path = out / "recheck.json"
    if not mutants:
        results_path.write_text("{}")
        print("recheck: nothing to recheck")
        return 0
    started = time.monotonic()
    stats_path = out / "recheck-stats.json"
    if not stats_path.exists():  # kept for a second look run again on the same run
        subprocess.run(
            [sys.executable, __file__, "--stats", str(stats_path), *paths], check=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    recorded = json.loads(stats_path.read_text())
    calls, durations = recorded["calls"], recorded["durations"]
    print(f"recheck: {len(mutants)} mutants against {' '.join(paths)}"
          f" (stats in {time.monotonic() - started:.0f}s)", flush=True)  # fmt: skip
    jobs = int(os.environ.get("MUTATION_JOBS", "2"))
    # A second look stopped part way (it can take hours) goes on where it stopped
    # when run again with MUTATION_RECHECK_RESUME=1: the verdicts it has are kept.
    results: dict[str, dict[str, str]] = {}
    if os.environ.get("MUTATION_RECHECK_RESUME") == "1" and results_path.exists():
        results = {m: v for m, v in json.loads(results_path.read_text()).items() if m in mutants}
        print(f"recheck: {len(results)} verdicts kept, {len(mutants) - len(results)} to go",
              flush=True)  # fmt: skip
    writing = threading.Lock()

    # the area's own tests that call a function already passed with its mutants
    primary = json.loads(Path("mutmut-stats.json").read_text())["tests_by_mangled_function_name"]

    def one(mutant: str) -> None:
        function = function_of(mutant)
        tests = chosen(set(calls.get(function, [])) - set(primary.get(function, [])), durations)
        if not tests and (calls.get(function) or primary.get(function)):
            found = {"status": "survived", "by": ""}  # every test that calls it passed
        else:
            found = verdict(mutant, tests)
        with writing:
            results[mutant] = found
            results_path.write_text(json.dumps(results, indent=1, sort_keys=True))

    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, sorted(set(mutants) - set(results))))
    counts = defaultdict(int)
    for result in results.values():
        counts[result["status"]] += 1
    print(f"recheck: {dict(counts)} in {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--stats":
        stats(sys.argv[3:], Path(sys.argv[2]))
    else:
        sys.exit(main(Path(sys.argv[1]).resolve(), sys.argv[2:]))
