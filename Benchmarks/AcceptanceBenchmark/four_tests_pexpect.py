#!/usr/bin/env python3
"""The seed articles' four tests (idle, loading, loaded, error) driven by pexpect.

usage: four_tests_pexpect.py TODO_BINARY BASE_URL [parallel]
BASE_URL serves /ok/todos (a list), /fail/todos (500) and /hang/todos (never answers).
Prints one line: `pexpect <seconds>` for the four tests, back to back or in parallel.
"""
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import pexpect

todo, base = sys.argv[1], sys.argv[2].rstrip("/")
parallel = len(sys.argv) > 3 and sys.argv[3] == "parallel"


def spawn(route):
    storage = tempfile.mkdtemp(prefix="pexpect-todo-")
    env = dict(os.environ, TERM="xterm-256color")
    child = pexpect.spawn(todo, ["--api-url", f"{base}/{route}", "--storage", storage],
                          dimensions=(24, 80), env=env, encoding="utf-8", timeout=10)
    child.delaybeforesend = 0
    child.delayafterclose = 0
    child.delayafterterminate = 0
    return child, storage


def finish(child, storage):
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    for name in os.listdir(storage):
        os.remove(os.path.join(storage, name))
    os.rmdir(storage)


def idle():
    child, storage = spawn("ok")
    child.expect_exact("[ Start ]")
    finish(child, storage)


def loading():
    child, storage = spawn("hang")
    child.expect_exact("[ Start ]")
    child.send("\r")
    child.expect_exact("Loading…")
    assert not os.listdir(storage)
    finish(child, storage)


def loaded():
    child, storage = spawn("ok")
    child.expect_exact("[ Start ]")
    child.send("\r")
    child.expect_exact("Todos (")
    child.expect_exact("[ ] apple")
    finish(child, storage)


def error():
    child, storage = spawn("fail")
    child.expect_exact("[ Start ]")
    child.send("\r")
    child.expect_exact("Oops")
    child.expect_exact("[ Try again ]")
    finish(child, storage)


tests = [idle, loading, loaded, error]
start = time.perf_counter()
if parallel:
    with ThreadPoolExecutor(max_workers=4) as pool:
        for future in [pool.submit(t) for t in tests]:
            future.result()
else:
    for t in tests:
        t()
print(f"pexpect {time.perf_counter() - start:.4f}")
