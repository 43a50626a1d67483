#!/usr/bin/env bash
# Mutation testing of the pure rules (bot/rules/) against tests/scoring/.
#
# Not part of .ci/run: it takes minutes. mutmut (configured in pyproject.toml,
# [tool.mutmut]) copies bot/ into mutants/, makes each small change ("mutant")
# to bot/rules/*.py in turn and runs the tests of tests/scoring/ that reach the
# changed function; a mutant the tests do not notice "survives". The score is
# killed / (killed + survived); timeouts count as killed.
#
#   scripts/mutation.sh                       every module of bot/rules/
#   scripts/mutation.sh match games groups    only bot/rules/{match,games,groups}.py
#
# MUTATION_VENV (default .mutation-venv) is a venv of its own, made on the
# first run; MUTATION_JOBS (default 2) parallel workers; MUTATION_TIMEOUT
# (default 1800) seconds for the whole run. Writes only mutants/ (git-ignored):
# mutants/run.log, mutants/survivors.diff (each survivor's change).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${MUTATION_VENV:-.mutation-venv}"
jobs="${MUTATION_JOBS:-2}"
limit="${MUTATION_TIMEOUT:-1800}"

if [ ! -x "$venv/bin/mutmut" ]; then
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e '.[test]' 'mutmut==3.8.1'
fi

modules=("$@")
patterns=()
for module in "${modules[@]}"; do
    [ -f "bot/rules/$module.py" ] || { echo "no module bot/rules/$module.py" >&2; exit 2; }
    patterns+=("bot.rules.$module.*")
done

# Always from scratch: mutmut's cache keys on the source, not on tests/.
rm -rf mutants
log="$(mktemp)"
status=0
timeout "$limit" "$venv/bin/mutmut" run --max-children "$jobs" "${patterns[@]}" >"$log" 2>&1 \
    || status=$?
mkdir -p mutants && mv "$log" mutants/run.log
if [ "$status" -ne 0 ]; then
    echo "mutmut stopped with status $status (124: over ${limit}s); see mutants/run.log" >&2
fi

"$venv/bin/python" - "${modules[@]}" <<'PY'
import json
import sys
from pathlib import Path

from mutmut.mutation.diff_apply import get_diff_for_mutant

KILLED = {1, 3, 24, -24, 36, 152, 255}  # a failing test, or a timeout
SURVIVED = {0}
wanted = set(sys.argv[1:])

total_killed = total_survived = total_other = 0
survivors = []
print(f"{'module':<28}{'killed':>8}{'survived':>10}{'score':>9}")
for meta in sorted(Path("mutants/bot/rules").glob("*.py.meta")):
    module = meta.name.removesuffix(".py.meta")
    if wanted and module not in wanted:
        continue
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    killed = sum(code in KILLED for code in codes.values())
    survived = [name for name, code in codes.items() if code in SURVIVED]
    other = len(codes) - killed - len(survived)
    total_killed += killed
    total_survived += len(survived)
    total_other += other
    survived.sort(key=lambda n: (n.rsplit("_", 1)[0], int(n.rsplit("_", 1)[1])))
    survivors += [(name, f"bot/rules/{module}.py") for name in survived]
    judged = killed + len(survived)
    if judged:
        print(f"bot/rules/{module + '.py':<18}{killed:>8}{len(survived):>10}"
              f"{100 * killed / judged:>8.1f}%")
judged = total_killed + total_survived
if not judged:
    sys.exit("no mutant was judged; see mutants/run.log")
print(f"{'total':<28}{total_killed:>8}{total_survived:>10}{100 * total_killed / judged:>8.1f}%")
if total_other:
    print(f"({total_other} mutants not judged: no test reaches them, or not run)")
with open("mutants/survivors.diff", "w") as out:
    for name, path in survivors:
        out.write(f"# {name}\n{get_diff_for_mutant(name, path=path)}\n\n")
if survivors:
    print("survivors (each one's change is in mutants/survivors.diff):")
    for name, _ in survivors:
        print("  " + name)
PY
exit "$status"
