#!/bin/sh
# Installs the peers the emulator benchmark compares against, when missing:
#   pyte      (pip install pyte)        pure-Python VT100 emulator
#   libvterm  (apt-get install libvterm-dev)  C library used by Neovim and Emacs vterm
# Usage: sh Benchmarks/EmulatorBenchmark/setup.sh
set -eu
if python3 -c "import pyte" 2>/dev/null; then
    echo "pyte: already installed"
else
    python3 -m pip install --quiet pyte
fi
if [ -f /usr/include/vterm.h ]; then
    echo "libvterm: already installed"
else
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get install -y libvterm-dev || { $SUDO apt-get update && $SUDO apt-get install -y libvterm-dev; }
fi
command -v cc >/dev/null || echo "warning: no C compiler (cc): the libvterm driver cannot be built" >&2
