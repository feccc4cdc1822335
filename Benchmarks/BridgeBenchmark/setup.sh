#!/usr/bin/env bash
# The bridge benchmark's peer (a raw Unix-socket exchange of the same frames) is built into
# the benchmark itself, so there is nothing to install.
set -euo pipefail
echo "BridgeBenchmark: no peers to install (the raw echo baseline is part of the program)."
