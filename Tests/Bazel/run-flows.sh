#!/bin/sh
# A Bazel test: runs the flows under the folders it is given (paths in the runfiles tree), its
# shard of them. `harness` comes from the HARNESS variable: bazel test --test_env=HARNESS=/path/to/harness.
set -eu
exec "${HARNESS:?pass --test_env=HARNESS=/path/to/harness}" run "$@" --shard auto
