#!/usr/bin/env python3
"""Record the raw bytes a program writes to a pseudo-terminal of a fixed size.

usage: record-pty.py OUTPUT COLS ROWS [--until-quiet SECONDS] -- COMMAND [ARGS...]

Without --until-quiet the recording runs until the program exits. With it, the
recording stops once the program has written nothing for SECONDS (a select()
timeout on the PTY, used only by this recording tool, never by the tests), the
program is killed, and only what it drew until then is kept: that is how
full-screen programs (vim, less) are captured while still on screen.
"""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios


def main():
    args = sys.argv[1:]
    output, cols, rows = args[0], int(args[1]), int(args[2])
    rest = args[3:]
    quiet = None
    if rest and rest[0] == "--until-quiet":
        quiet = float(rest[1])
        rest = rest[2:]
    assert rest and rest[0] == "--", __doc__
    command = rest[1:]

    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["COLUMNS"] = str(cols)
        os.environ["LINES"] = str(rows)
        os.environ["LANG"] = "C.UTF-8"
        os.environ["LC_ALL"] = "C.UTF-8"
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.kill(pid, signal.SIGWINCH)

    data = bytearray()
    while True:
        ready, _, _ = select.select([fd], [], [], quiet)
        if not ready:
            break  # quiet for long enough: the screen is drawn
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break  # EIO: the program exited
        if not chunk:
            break
        data += chunk
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
    with open(output, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
