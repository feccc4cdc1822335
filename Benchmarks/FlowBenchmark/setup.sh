#!/usr/bin/env bash
# Installs the peers the flow benchmark compares against: pexpect (PyPI) and Tcl expect (Debian).
set -euo pipefail
python3 -c 'import pexpect' 2>/dev/null || pip install pexpect
command -v expect >/dev/null || { apt-get update -qq && apt-get install -y -qq expect; }
