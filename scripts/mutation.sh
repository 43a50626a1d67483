#!/usr/bin/env bash
# Mutation testing, one area of the code at a time, each judged by the tests
# that cover it.
#
# Not part of .ci/run: an area takes minutes to an hour. mutmut makes each small
# change ("mutant") to the area's modules in turn and runs the area's tests that
# reach the changed function; a mutant the tests do not notice "survives". The
# score is killed / (killed + survived); timeouts count as killed.
#
#   scripts/mutation.sh                 the list of areas
#   scripts/mutation.sh rules           one area (bot/rules/ against tests/scoring/)
#   scripts/mutation.sh rules match     only bot/rules/match.py of that area
#                                       (in mutants/rules-match)
#
# Then a second look: every mutant none of the area's own tests reached (with
# MUTATION_RECHECK_SCOPE=all, every one they let through) is run against the
# rest of the suite's tests that call the changed function
# (scripts/mutation_recheck.py), so a mutant that only another area's test or
# the end-to-end night notices counts as killed, by that test.
#
# Each area runs in a copy of the project of its own (mutants/<area>/work), with
# a pyproject.toml that names its modules and tests, so areas never mix.
# MUTATION_VENV (default .mutation-venv) is a venv of its own, made on the first
# run; MUTATION_JOBS (default 2) parallel workers; MUTATION_TESTS the area's own
# tests for this run instead of the usual ones; MUTATION_TIMEOUT (default 14400)
# seconds for the area. Writes only mutants/ (git-ignored): mutants/<area>/run.log,
# mutants/<area>/recheck.json (the second look's verdicts, with the killing test),
# mutants/<area>/survivors.diff (each survivor's change).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

declare -A MODULES=(
    [rules]="bot/rules/*.py"
    [services]="bot/services/*.py cogs/*/*.py"
    [delivery]="bot/delivery/*.py"
    [scheduler]="bot/scheduler.py"
    [storage]="bot/database.py bot/database_errors.py bot/database_files.py bot/migrate.py bot/restore.py bot/quick_reads.py"
    [startup]="bot/checks.py bot/lifecycle.py bot/config.py"
    [cogs]="cogs/*.py cogs/*/*_cog.py cogs/*/*_views.py cogs/league/*.py bot/components/*.py"
)
declare -A TESTS=(
    [rules]="tests/scoring"
    [services]="tests/services tests/db tests/cogs tests/scheduler"
    [delivery]="tests/services/test_outbox.py tests/cogs/test_outbox_cog.py tests/cogs/test_sender_edges.py tests/cogs/test_sender_more_edges.py tests/cogs/test_sender_running_edges.py tests/cogs/test_delivery_more_edges.py tests/cogs/test_words_edges.py tests/cogs/test_posts_before_cards.py tests/e2e/test_commissioner_role_gone.py tests/ui tests/e2e/test_delivery_lanes.py tests/e2e/test_refused_posts.py tests/e2e/test_dm_delivery.py tests/e2e/test_night_cards.py tests/e2e/test_standin.py tests/e2e/test_paging_e2e.py tests/e2e/test_card_extremes.py tests/e2e/test_league_night.py"
    [scheduler]="tests/scheduler"
    [storage]="tests/db"
    [startup]="tests/test_config.py tests/test_lifecycle.py tests/test_startup_faults.py tests/e2e/test_checks.py tests/e2e/test_start_and_stop.py"
    [cogs]="tests/cogs"
)
# Tests an area's own run leaves out (--ignore, or --deselect for one test), to the
# second look; a test that reads a module's source text cannot judge its mutants
# (the mutated copy holds every mutant's code side by side).
declare -A SLOW=(
    [startup]="tests/test_config.py::test_env_example_documents_every_variable_load_settings_reads"
)
AREAS="rules services delivery scheduler storage startup cogs"

# All in one function, read whole before it runs: editing this file while an
# area runs does not change the run.
main() {
    if [ $# -eq 0 ]; then
        for area in $AREAS; do
            printf '%-10s %-60s judged by %s\n' "$area" "${MODULES[$area]}" "${TESTS[$area]}"
        done
        exit 0
    fi
    area="$1"
    shift
    [ -n "${MODULES[$area]:-}" ] || { echo "no area $area; areas: $AREAS" >&2; exit 2; }

    venv="$(pwd)/${MUTATION_VENV:-.mutation-venv}"
    jobs="${MUTATION_JOBS:-2}"
    limit="${MUTATION_TIMEOUT:-14400}"

    if [ ! -x "$venv/bin/mutmut" ]; then
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --upgrade pip
        "$venv/bin/python" -m pip install --quiet -e '.[test]' 'mutmut==3.8.1' 'pytest-timeout>=2.3'
    fi

    # The area's modules, or only those named after it.
    only=()
    for pattern in ${MODULES[$area]}; do
        for file in $pattern; do
            [ -f "$file" ] || continue  # a pattern no file matches
            name="$(basename "$file" .py)"
            folder="$(basename "$(dirname "$file")")"
            [ "$name" = "__init__" ] && name="$folder"  # a package's own code
            # services: of a feature's package (cogs/<feature>/) only its service
            # (<feature>.py, <feature>_<what>.py); cogs: its commands and views, by its name
            if [ "$area" = services ] && [[ "$file" == cogs/* ]]; then
                [[ "$name" == "$folder" || "$name" == "$folder"_* ]] || continue
                [[ "$name" =~ _(cog|outcomes|text|views)$ ]] && continue
            fi
            case "$name" in "$folder"_*cog | "$folder"_*views) name="$folder" ;; esac
            if [ $# -eq 0 ] || [[ " $* " == *" $name "* ]]; then
                grep -q "def " "$file" && only+=("$file")  # an __init__ with nothing to mutate is left out
            fi
        done
    done
    [ ${#only[@]} -gt 0 ] || { echo "no module of $area is called $*" >&2; exit 2; }

    out="mutants/$area"
    [ $# -eq 0 ] || out="mutants/$area-$(IFS=-; echo "$*")"  # some modules: a folder of their own
    work="$out/work"
    rm -rf "$out" && mkdir -p "$work"  # always from scratch: mutmut caches on the source only
    git ls-files -z | xargs -0 cp --parents -t "$work"
    python3 - "$work/pyproject.toml" "${MUTATION_TESTS:-${TESTS[$area]}}" "${SLOW[$area]:-}" "${only[@]}" <<'PY'
import json
import re
import sys

path, tests, slow, modules = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4:]
ignored = [arg for test in slow for arg in ("--deselect" if "::" in test else "--ignore", test)]
text = open(path, encoding="utf-8").read()
section = "\n".join([
    "[tool.mutmut]",
    'source_paths = ["bot/", "cogs/"]',
    'also_copy = ["tests/", "standin/", "migrations/", "docs/", "bench/", ".env.example", "README.md"]',
    f"only_mutate = {json.dumps(modules)}",
    # log lines are for the operator, not the league: not mutated (docs/mutation)
    'do_not_mutate_patterns = ["^\\\\s*log\\\\.(debug|info|warning|error|exception)\\\\("]',
    f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
    # a mutant that makes a test wait forever uses no CPU: mutmut's CPU limit
    # would never stop it, so each test has a wall-clock limit too (30 s: the
    # area's tests take at most a few seconds; the slow ones are left out above)
    "pytest_add_cli_args = "
    + json.dumps(["-p", "no:cacheprovider", "-x", "-q", "--timeout", "30", *ignored]),
    "",
])
text = re.sub(r"\[tool\.mutmut\].*?(?=\n\[|\Z)", "", text, flags=re.S).rstrip() + "\n\n" + section
open(path, "w", encoding="utf-8").write(text)
PY

    # mutmut writes each mutant's result as it comes, and prints its rate last; a
    # thread some test leaves behind can keep its process from ending after that, so
    # once the rate is printed the process is ended (nothing more is to come).
    status=0
    (cd "$work" && exec timeout "$limit" "$venv/bin/mutmut" run --max-children "$jobs") \
        >"$out/run.log" 2>&1 &
    runner=$!
    while kill -0 "$runner" 2>/dev/null; do
        if grep -q "mutations/second" "$out/run.log" 2>/dev/null; then
            sleep 5
            pkill -TERM -P "$runner" 2>/dev/null || true
            kill "$runner" 2>/dev/null || true
            break
        fi
        sleep 2
    done
    wait "$runner" 2>/dev/null || status=$?
    if grep -q "mutations/second" "$out/run.log"; then
        status=0
    elif [ "$status" -ne 0 ]; then
        echo "mutmut stopped with status $status (124: over ${limit}s); see $out/run.log" >&2
    fi

    # The second look: each mutant the area's own tests let through (or never
    # reached) runs against the rest of the suite's tests that call its function.
    # MUTATION_RECHECK=0 skips it.
    if [ "${MUTATION_RECHECK:-1}" = 1 ]; then
        (cd "$work/mutants" && "$venv/bin/python" "$root/scripts/mutation_recheck.py" "$root/$out" tests) \
            2>&1 | tee "$out/recheck.log"
    fi

    (cd "$work" && "$venv/bin/python" "$root/scripts/mutation_score.py" "$(basename "$out")") | tee "$out/score.txt"
    exit "$status"
}

main "$@"
