#!/usr/bin/env python3
"""Record the raw bytes a program writes to a pseudo-terminal of a fixed size.

usage: record-pty.py OUTPUT COLS ROWS [--until-quiet SECONDS]
                     [--prompt TEXT]... [--type TEXT]... -- COMMAND [ARGS...]

Without --until-quiet the recording runs until the program exits. With it, the
recording stops once the program has written nothing for SECONDS (a select()
timeout on the PTY, used only by this recording tool, never by the tests), the
program is killed, and only what it drew until then is kept: that is how
full-screen programs (vim, less) are captured while still on screen.

With --type, the recording types input like a user at a prompt: each TEXT is
written to the PTY, in order, once what the program wrote since the previous
one ends with one of the --prompt texts (a REPL waiting at ">>> "). Both take
Python escapes ("\\r" for Enter, "\\x04" for ctrl-d). Typing only at a prompt keeps
the recording deterministic: the program echoes each line itself, never the
kernel ahead of time.
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
    prompts, typed = [], []
    while rest and rest[0] != "--":
        option, value = rest[0], rest[1]
        if option == "--until-quiet":
            quiet = float(value)
        elif option == "--prompt":
            prompts.append(unescaped(value))
        elif option == "--type":
            typed.append(unescaped(value))
        else:
            sys.exit(__doc__)
        rest = rest[2:]
    assert rest and rest[0] == "--", __doc__
    assert prompts or not typed, "--type needs at least one --prompt"
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
    since_typed = bytearray()  # output since the last input was typed
    while True:
        if typed and any(since_typed.endswith(prompt) for prompt in prompts):
            os.write(fd, typed.pop(0))
            since_typed.clear()
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
        since_typed += chunk
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
    with open(output, "wb") as f:
        f.write(data)


def unescaped(text):
    """The bytes of a command-line argument with Python escapes ("\\r", "\\x04") applied."""
    return text.encode("utf-8").decode("unicode_escape").encode("latin-1")


if __name__ == "__main__":
    main()
