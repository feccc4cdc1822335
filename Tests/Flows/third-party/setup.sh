#!/usr/bin/env bash
# Installs the third-party programs the bundled flows under Tests/Flows/third-party drive and
# that Debian does not carry: Textual (PyPI), in a virtual environment of its own.
#
#   Tests/Flows/third-party/setup.sh    prints the folder to put first in PATH
#
# The flows name their programs by bare names (`app textual-demo`); a name found nowhere in
# PATH makes the flow skipped, not failed (docs/FLOWS.md, "Not installed"), so a checkout
# without this setup still runs the rest. CI runs it and puts the folder in PATH, then checks
# that no flow was skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
place=$root/.build/third-party
textual_version=8.2.8

if ! "$place/venv/bin/python" -c "import textual, sys; sys.exit(textual.__version__ != '$textual_version')" 2>/dev/null; then
    rm -rf "$place/venv"
    python3 -m venv "$place/venv" >&2
    "$place/venv/bin/pip" install --quiet --disable-pip-version-check "textual==$textual_version" >&2
fi
mkdir -p "$place/bin"
cat > "$place/bin/textual-demo" <<WRAPPER
#!/bin/sh
exec "$place/venv/bin/python" "$here/fixtures/textual_demo.py" "\$@"
WRAPPER
chmod +x "$place/bin/textual-demo"
echo "$place/bin"
