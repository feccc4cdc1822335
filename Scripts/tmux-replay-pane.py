#!/usr/bin/env python3
"""Runs inside a tmux pane for the parity test: replays a recording, then signals tmux.

usage: tmux-replay-pane.py FILE SOCKET-PATH CHANNEL

Writes FILE's bytes to the pane, then asks the terminal for its status (DSR 5,
ESC [ 5 n). tmux answers only after it has parsed every byte before the
question, so once the answer (ESC [ 0 n) is read back on stdin, the pane shows
the whole recording: the script then runs `tmux -S SOCKET-PATH wait-for -S CHANNEL`
and blocks until the server is killed. No sleep, no polling.
"""
import os
import subprocess
import sys
import termios
import tty


def main():
    path, socket, channel = sys.argv[1:4]
    try:
        tty.setraw(0)
        with open(path, "rb") as f:
            data = f.read()
        os.write(1, data)
        os.write(1, b"\033[5n")
        seen = b""
        while b"\033[0n" not in seen:
            chunk = os.read(0, 4096)
            if not chunk:
                break
            seen += chunk
    finally:
        # Also after a failure: the test then compares what the pane shows and says how it
        # differs, instead of waiting for a signal that never comes.
        subprocess.run(["tmux", "-S", socket, "wait-for", "-S", channel], check=False)
    while os.read(0, 4096):
        pass


if __name__ == "__main__":
    main()
