#!/usr/bin/env bash
# Mutation check of the todo app's acceptance suite.
#
#   Scripts/mutate.sh [--flows] [--list] [MUTANT-ID...]
#
# Applies the mutants of Scripts/mutants.txt to Sources/ one at a time (all of them, or the ids
# given), rebuilds the app, runs `swift test --filter TodoAcceptanceTests` against it and prints
# which mutants the suite killed, which test killed each, and which survived. With --flows the
# bundled todo flows (Tests/Flows/*.flow) run against every mutant too, in a column of their own
# (the goal is that the Swift suite alone kills everything). --list prints the mutants and exits.
#
# Exit status: 0 when every mutant was killed, 1 when one survived or did not compile (a mutant
# that does not compile is a mistake in the list, reported apart), 2 when the list does not
# apply to the sources or the unmutated suite fails.
#
# The build goes to its own folder, $MUTATE_SCRATCH (default .build/mutate), so .build is left
# alone. The test bundle is built once from the unmutated sources; per mutant only the `todo`
# executable is rebuilt. The acceptance suite is black box (it drives the `todo` process), so
# this is the same check, and the suite's own expectations cannot follow a mutant.
#
# Sources/ must have no uncommitted changes: each mutated file is copied aside first and put back
# after its mutant, on any exit (Ctrl-C included), and the script ends by checking that
# `git diff --quiet Sources` holds.
set -uo pipefail
cd "$(dirname "$0")/.."

LIST=Scripts/mutants.txt
SCRATCH=${MUTATE_SCRATCH:-.build/mutate}
RUN_FLOWS=0
LIST_ONLY=0
IDS=()
for argument in "$@"; do
    case "$argument" in
        --flows) RUN_FLOWS=1 ;;
        --list) LIST_ONLY=1 ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "mutate.sh: unknown option $argument" >&2; exit 2 ;;
        *) IDS+=("$argument") ;;
    esac
done

mutants() { python3 Scripts/mutants.py "$LIST" "$@"; }

if ! mutants check; then
    echo "mutate.sh: $LIST does not apply to the sources (see above); fix the list first." >&2
    exit 2
fi
SELECTED=$(mutants ids "${IDS[@]}") || exit 2
if (( LIST_ONLY )); then
    for id in $SELECTED; do
        IFS=$'\t' read -r file description < <(mutants describe "$id")
        printf '%-34s %-48s %s\n' "$id" "$file" "$description"
    done
    exit 0
fi
if ! git diff --quiet -- Sources || ! git diff --cached --quiet -- Sources; then
    echo "mutate.sh: Sources/ has uncommitted changes; commit or stash them first." >&2
    exit 2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mutate.XXXXXX")
BACKUP_FILE=""
restore() {
    if [[ -n "$BACKUP_FILE" ]]; then
        cp "$WORK/original" "$BACKUP_FILE"
        BACKUP_FILE=""
    fi
}
on_exit() {
    local status=$?
    restore
    if ! git diff --quiet -- Sources; then
        echo "mutate.sh: Sources/ differs from git after the run:" >&2
        git diff --stat -- Sources >&2
        status=3
    fi
    rm -rf "$WORK"
    exit $status
}
trap on_exit EXIT
trap 'echo "mutate.sh: interrupted; restoring Sources/" >&2; exit 130' INT TERM HUP

# What the suite needs around it: no snapshot ever recorded, artifacts out of the way.
export HARNESS_RECORD=never
export HARNESS_ARTIFACTS="$WORK/artifacts"

seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.0f", b - a }'; }

# The failing tests' names in a `swift test` log: the first three, and how many more.
failed_tests() {
    grep -aoE 'Test [^ ]+( with [0-9]+ test cases?)? failed after' "$1" | sed -E 's/^Test ([^ (]+).*/\1/' | sort -u \
        | awk '{ names[NR] = $0 } END {
            for (i = 1; i <= NR && i <= 3; i++) printf "%s%s", (i > 1 ? ", " : ""), names[i]
            if (NR > 3) printf " +%d more", NR - 3
        }'
}

run_suite() {  # LOG -> status of swift test
    # The suite's waits must all succeed, so their limit only catches a hang (60 s); a mutant
    # that makes one fail is killed by it, in 10 s here.
    HARNESS_ACCEPTANCE_WAIT_SECONDS=10 swift test --skip-build --scratch-path "$SCRATCH" --filter TodoAcceptanceTests >"$1" 2>&1
}
run_flows() {  # LOG -> status of harness run
    "$SCRATCH/debug/harness" run --artifacts "$WORK/flow-artifacts" Tests/Flows/*.flow >"$1" 2>&1
}

TOTAL_START=$(seconds)
echo "== building the unmutated package and its tests in $SCRATCH"
if ! swift build --build-tests --scratch-path "$SCRATCH" >"$WORK/build.log" 2>&1; then
    tail -40 "$WORK/build.log"
    echo "mutate.sh: the unmutated package does not build." >&2
    exit 2
fi
echo "== the acceptance suite on the unmutated app"
START=$(seconds)
if ! run_suite "$WORK/baseline.log"; then
    tail -60 "$WORK/baseline.log"
    echo "mutate.sh: the acceptance suite fails on the unmutated app; every mutant would look killed." >&2
    exit 2
fi
echo "   passed in $(elapsed "$START") s"
if (( RUN_FLOWS )); then
    if ! run_flows "$WORK/baseline-flows.log"; then
        tail -40 "$WORK/baseline-flows.log"
        echo "mutate.sh: the bundled flows fail on the unmutated app." >&2
        exit 2
    fi
fi

declare -a ROWS=()
SURVIVED=0
BROKEN=0
KILLED=0
COUNT=$(wc -w <<<"$SELECTED")
INDEX=0
for id in $SELECTED; do
    INDEX=$((INDEX + 1))
    IFS=$'\t' read -r file description < <(mutants describe "$id")
    START=$(seconds)
    cp "$file" "$WORK/original"
    BACKUP_FILE=$file
    mutants apply "$id" || exit 2
    result="" by="" flows=""
    if ! swift build --scratch-path "$SCRATCH" --product todo >"$WORK/$id.build.log" 2>&1; then
        result="COMPILE-ERROR"
        by=$(grep -m1 -aE 'error:' "$WORK/$id.build.log" | sed -E 's/.*error: //' | cut -c1-60)
        BROKEN=$((BROKEN + 1))
    else
        if run_suite "$WORK/$id.test.log"; then
            result="SURVIVED"
            SURVIVED=$((SURVIVED + 1))
        else
            result="killed"
            by=$(failed_tests "$WORK/$id.test.log")
            [[ -n "$by" ]] || by="(swift test failed; no failing test named: a crash?)"
            KILLED=$((KILLED + 1))
        fi
        if (( RUN_FLOWS )); then
            if run_flows "$WORK/$id.flows.log"; then flows="survived"; else flows="killed"; fi
        fi
    fi
    restore
    secs=$(elapsed "$START")
    # Fields are joined by the ASCII unit separator: tab is whitespace to `read`, so an empty
    # field (no flows column) between two tabs would vanish and shift the rest left.
    ROWS+=("$id"$'\x1f'"$result"$'\x1f'"$secs"$'\x1f'"$flows"$'\x1f'"$description"$'\x1f'"$by")
    printf '[%2d/%d] %-34s %-13s %4ss  %s\n' "$INDEX" "$COUNT" "$id" "$result" "$secs" "$by"
    if [[ "$result" == "SURVIVED" || "$result" == "COMPILE-ERROR" ]]; then
        mkdir -p .build/mutate-logs
        cp "$WORK/$id".*.log .build/mutate-logs/ 2>/dev/null
    fi
done

echo "== rebuilding the unmutated app"
swift build --scratch-path "$SCRATCH" --product todo >"$WORK/rebuild.log" 2>&1 || tail -20 "$WORK/rebuild.log"

echo
if (( RUN_FLOWS )); then
    printf '| %-34s | %-13s | %5s | %-8s | %s | %s |\n' "mutant" "suite" "secs" "flows" "what the bug does" "killed by"
    printf '| %-34s | %-13s | %5s | %-8s | %s | %s |\n' "---" "---" "---:" "---" "---" "---"
else
    printf '| %-34s | %-13s | %5s | %s | %s |\n' "mutant" "suite" "secs" "what the bug does" "killed by"
    printf '| %-34s | %-13s | %5s | %s | %s |\n' "---" "---" "---:" "---" "---"
fi
for row in "${ROWS[@]}"; do
    IFS=$'\x1f' read -r id result secs flows description by <<<"$row"
    if (( RUN_FLOWS )); then
        printf '| %-34s | %-13s | %5s | %-8s | %s | %s |\n' "$id" "$result" "$secs" "$flows" "$description" "$by"
    else
        printf '| %-34s | %-13s | %5s | %s | %s |\n' "$id" "$result" "$secs" "$description" "$by"
    fi
done
echo
echo "$COUNT mutants: $KILLED killed, $SURVIVED survived, $BROKEN did not compile; $(elapsed "$TOTAL_START") s in all."
if (( SURVIVED + BROKEN > 0 )); then
    echo "Logs of the survivors and of the mutants that did not compile: .build/mutate-logs/"
    exit 1
fi
exit 0
