#!/usr/bin/env bash
# Differential fuzzing of the emulator against libvterm (docs/terminal-emulator.md,
# "Differential fuzzing against libvterm").
#
#   Scripts/difffuzz.sh [SECONDS] [OPTION...]    compares for SECONDS (default 60)
#   Scripts/difffuzz.sh --repro 'ESCAPED BYTES'  compares one stream (a reproducer it printed)
#
# Options go to the program: --seed S (default 1), --streams N (a fixed number instead of a
# time), --size COLSxROWS (default 80x24), --reports N (kinds of difference shown, default 5),
# --print-stream I (prints stream I of the seed, escaped), --list (every differing stream, not one
# report per kind).
#
# Streams (random ones, and the `vt` fuzz corpus's seeds mutated) are fed to our emulator and to
# libvterm, and the screens are compared cell by cell after each piece. A difference that is not
# one of the documented divergences (Fuzz/difffuzz/Divergences.swift) is minimized and printed,
# and the script exits 1.
#
# Needs libvterm-dev (installed here with apt-get when missing, as .ci/run installs its tools).
# The program is built outside SwiftPM, so `swift build` never needs libvterm: TerminalEmulator
# (no dependency of its own) as a static library with swiftc, the C helper with cc, the driver
# with swiftc, in .build/difffuzz; rebuilt when a source is newer than the program.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! dpkg -s libvterm-dev >/dev/null 2>&1 && [[ ! -f /usr/include/vterm.h ]]; then
    apt-get update && apt-get install -y libvterm-dev
fi

OUT=.build/difffuzz
PROGRAM=$OUT/difffuzz
mkdir -p "$OUT"
if [[ ! -x $PROGRAM ]] || [[ -n $(find Harness/TerminalEmulator Fuzz/difffuzz -newer "$PROGRAM" -type f | head -1) ]]; then
    started=$SECONDS
    echo "== building the differential fuzzer ($PROGRAM)"
    mapfile -t emulator < <(find Harness/TerminalEmulator -name '*.swift' | sort)
    swiftc -O -wmo -parse-as-library -emit-library -static -emit-module -module-name TerminalEmulator \
        -package-name difffuzz -emit-module-path "$OUT/TerminalEmulator.swiftmodule" \
        "${emulator[@]}" -o "$OUT/libTerminalEmulator.a"
    cc -O2 -Wall -c Fuzz/difffuzz/vterm_screen.c -o "$OUT/vterm_screen.o"
    swiftc -O -I "$OUT" -I Fuzz/difffuzz/CVTermScreen Fuzz/difffuzz/*.swift "$OUT/vterm_screen.o" \
        -L "$OUT" -lTerminalEmulator -lvterm -o "$PROGRAM.new"
    mv "$PROGRAM.new" "$PROGRAM"
    echo "== built in $((SECONDS - started)) s"
fi

arguments=()
if [[ $# -ge 1 && $1 =~ ^[0-9]+$ ]]; then
    arguments=(--seconds "$1")
    shift
elif [[ $# -eq 0 || $1 != --* ]]; then
    [[ $# -eq 0 ]] || { echo "usage: $0 [SECONDS] [--seed S] [--streams N] [--size COLSxROWS] [--reports N]" >&2; exit 2; }
    arguments=(--seconds 60)
fi
exec "$PROGRAM" --corpus Fuzz/corpus/vt "${arguments[@]}" "$@"
