#!/usr/bin/env bash
# The session core's figures in one run: keystroke-to-screen latency beside a raw PTY echo
# (LatencyBenchmark), the four seed tests beside Tcl expect and pexpect (AcceptanceBenchmark),
# then the scale figures (ScaleBenchmark). Builds the release products once, then runs the three
# programs one after the other; stops at the first that fails.
#
#   Benchmarks/ScaleBenchmark/run-all.sh            # 2000 keys, 7 runs of the seed tests, full scale rounds
#   Benchmarks/ScaleBenchmark/run-all.sh --quick    # 500 keys, 3 runs, ScaleBenchmark --quick
set -euo pipefail
cd "$(dirname "$0")/../.."

keys=2000 runs=7 scale=()
case "${1:-}" in
    "") ;;
    --quick) keys=500 runs=3 scale=(--quick) ;;
    *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac

bash Benchmarks/AcceptanceBenchmark/setup.sh   # Tcl expect and pexpect, when missing
for product in todo LatencyBenchmark AcceptanceBenchmark ScaleBenchmark; do
    swift build -c release --product "$product"
done

echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -srm), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== LatencyBenchmark $keys"
.build/release/LatencyBenchmark "$keys"
echo
echo "== AcceptanceBenchmark $runs"
.build/release/AcceptanceBenchmark "$runs"
echo
echo "== ScaleBenchmark${scale[*]:+ ${scale[*]}}"
.build/release/ScaleBenchmark "${scale[@]}"
