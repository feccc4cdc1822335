#!/usr/bin/env bash
# Fuzzes one of the parsers with libFuzzer for a number of seconds (see docs/RELIABILITY.md).
#
#   Scripts/fuzz.sh TARGET SECONDS [LIBFUZZER OPTION...]
#   Scripts/fuzz.sh all SECONDS            each target in turn, SECONDS each
#   Scripts/fuzz.sh TARGET repro FILE...   runs the target once on each FILE (a saved crash)
#
# Targets (Fuzz/Sources/fuzz-TARGET/main.swift says what each input means and what is checked):
#   vt     the VT parser and screen, fed in chunks with resizes between them
#   http   the stub server's HTTP request parser, fed in chunks
#   frame  the bridge frame decoder, fed in chunks
#   flow   the flow parser
#
# The programs are built once by SwiftPM (Fuzz/Package.swift, a package of its own that depends
# on this one) in .build/fuzz, release, `-sanitize=fuzzer,address`; later runs rebuild only what
# changed. Each run works on a copy of Fuzz/corpus/TARGET in .build/fuzz/runs/, so the repository's
# seed corpus never grows by itself (FUZZ_MERGE=1 merges what a run found back into it, minimised).
# A crash, an invariant broken, a leak, an input that takes over 10 s or 2 GB: the script prints
# the reproducer's path and the command that replays it, and exits non-zero.
set -euo pipefail
# libFuzzer and AddressSanitizer report crashes themselves; the Swift backtracer would get in their way.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."

TARGETS=(vt http frame flow)
SCRATCH=.build/fuzz
BUILD_FLAGS=(-c release --package-path Fuzz --scratch-path "$SCRATCH"
             -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)

usage() {
    echo "usage: $0 {$(IFS='|'; echo "${TARGETS[*]}")|all} SECONDS [libFuzzer option...]" >&2
    echo "       $0 TARGET repro FILE..." >&2
    exit 2
}

[[ $# -ge 2 ]] || usage
target=$1
shift
if [[ $target != all ]] && [[ " ${TARGETS[*]} " != *" $target "* ]]; then usage; fi

build() {  # build [PRODUCT]: all the programs, or one
    local started=$SECONDS
    local product=()
    [[ $# -eq 1 ]] && product=(--product "$1")
    echo "== building ${1:-the fuzz targets} (swift build ${BUILD_FLAGS[*]} ${product[*]})"
    if ! swift build "${BUILD_FLAGS[@]}" "${product[@]}" > "$SCRATCH.log" 2>&1; then
        grep -v "Cannot export local symbol '__asan_extra_spill_area'" "$SCRATCH.log" | tail -40
        echo "== the fuzz build failed (whole log: $SCRATCH.log)" >&2
        exit 1
    fi
    echo "== built in $((SECONDS - started)) s"
}

binary() { echo "$SCRATCH/release/fuzz-$1"; }

if [[ ${1:-} == repro ]]; then
    shift
    [[ $target != all && $# -ge 1 ]] || usage
    mkdir -p "$SCRATCH"
    build "fuzz-$target"
    exec "$(binary "$target")" "$@"
fi

seconds=$1
shift
[[ $seconds =~ ^[0-9]+$ ]] || usage

run() {  # run TARGET: fuzz it for $seconds seconds; returns non-zero on a finding
    local name=$1
    shift
    local dir
    dir="$SCRATCH/runs/$name-$(date +%Y%m%d-%H%M%S)"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    cp -R "Fuzz/corpus/$name/." "$dir/corpus/"
    echo "== fuzzing $name for $seconds s (log: $dir/fuzz.log)"
    local status=0
    "$(binary "$name")" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/" "$@" "$dir/corpus" > "$dir/fuzz.log" 2>&1 || status=$?
    local findings
    findings=$(find "$dir/artifacts" -type f | sort)
    if [[ $status -ne 0 || -n $findings ]]; then
        tail -n 60 "$dir/fuzz.log"
        echo "== $name: FAILED (libFuzzer exit status $status)"
        for file in $findings; do
            echo "   reproducer: $file"
            echo "   replay it:  Scripts/fuzz.sh $name repro $file"
        done
        return 1
    fi
    local last stats
    last=$(grep -E '^#[0-9]+' "$dir/fuzz.log" | tail -n 1)
    stats=$(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$dir/fuzz.log" | tr '\n' ' ')
    echo "== $name: no crash; $last"
    echo "   $stats"
    echo "   corpus: $(find "Fuzz/corpus/$name" -type f | wc -l) seeds -> $(find "$dir/corpus" -type f | wc -l) inputs"
    if [[ ${FUZZ_MERGE:-0} == 1 ]]; then
        "$(binary "$name")" -merge=1 "Fuzz/corpus/$name" "$dir/corpus" > "$dir/merge.log" 2>&1
        echo "   merged into Fuzz/corpus/$name: $(find "Fuzz/corpus/$name" -type f | wc -l) seeds"
    fi
}

mkdir -p "$SCRATCH"
failed=()
if [[ $target == all ]]; then
    build
    for name in "${TARGETS[@]}"; do run "$name" "$@" || failed+=("$name"); done
else
    build "fuzz-$target"
    run "$target" "$@" || failed+=("$target")
fi
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "== fuzzing found problems in: ${failed[*]}" >&2
    exit 1
fi
