#!/usr/bin/env python3
"""Feeds a file through pyte in 4096-byte chunks; prints the best parse time in seconds.
usage: pyte_driver.py FILE COLS ROWS RUNS"""
import sys
import time

import pyte


def main():
    path, cols, rows, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    with open(path, "rb") as f:
        data = f.read()
    best = float("inf")
    for _ in range(runs):
        screen = pyte.Screen(cols, rows)
        stream = pyte.ByteStream(screen)
        start = time.perf_counter()
        for offset in range(0, len(data), 4096):
            stream.feed(data[offset:offset + 4096])
        best = min(best, time.perf_counter() - start)
    print("%.6f" % best)


if __name__ == "__main__":
    main()
