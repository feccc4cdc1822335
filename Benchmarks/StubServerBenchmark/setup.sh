#!/bin/sh
# Installs the peers the StubServerBenchmark compares against, if missing.
#   python3 -m http.server  (standard library)
#   pytest-httpserver       (PyPI)
set -e
if ! command -v python3 >/dev/null 2>&1; then
    apt-get update && apt-get install -y python3 python3-pip
fi
if ! python3 -c "import pytest_httpserver" >/dev/null 2>&1; then
    python3 -m pip install --quiet pytest-httpserver
fi
python3 -c "import pytest_httpserver, sys; print('pytest-httpserver ready on Python', sys.version.split()[0])"
