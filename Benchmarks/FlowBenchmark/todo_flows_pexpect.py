#!/usr/bin/env python3
"""The bundled todo flows (Tests/Flows/*.flow) as pexpect tests, with their own stub server.

usage: todo_flows_pexpect.py TODO_BINARY
Runs idle, loading, error, loaded, try-again and scroll-and-quit back to back; exits 1 on the
first failure. pexpect reads the output stream (no screen model), so the flows' snapshots,
bridge spies and events are left out; the sandbox files and request counts are checked.
"""
import filecmp
import os
import shutil
import sys
import tempfile
import uuid

import pexpect

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_stub  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SORTED = os.path.join(HERE, "..", "..", "Tests", "Flows", "fixtures", "sorted.json")
todo = sys.argv[1]
server = peer_stub.start()


class Run:
    def __init__(self, kind, rows=24, cols=80):
        self.prefix = f"{kind}-{uuid.uuid4().hex[:8]}"
        self.storage = tempfile.mkdtemp(prefix="pexpect-todo-")
        env = dict(os.environ, TERM="xterm-256color")
        self.child = pexpect.spawn(todo, ["--api-url", f"{server.base_url}/{self.prefix}", "--storage", self.storage],
                                   dimensions=(rows, cols), env=env, encoding="utf-8", timeout=5)
        self.child.delaybeforesend = 0
        self.child.delayafterclose = 0
        self.child.delayafterterminate = 0

    def expect(self, *texts):
        for text in texts:
            self.child.expect_exact(text)

    def send(self, text):
        self.child.send(text)

    def requests(self, count):
        assert server.count(self.prefix) == count, f"{self.prefix}: {server.count(self.prefix)} requests, expected {count}"

    def file(self, name):
        return os.path.join(self.storage, name)

    def quit(self):
        self.child.send("q")
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0, f"exit status {self.child.exitstatus}"
        shutil.rmtree(self.storage)


def idle():
    run = Run("ok")
    run.expect("Load your todos to begin.", "[ Start ]")
    run.requests(0)
    assert not os.path.exists(run.file("todos.json"))
    run.quit()


def loading():
    run = Run("hang")
    run.expect("[ Start ]")
    run.send("\r")
    run.expect("Loading…")
    assert server.wait_for_count(run.prefix, 1)  # the request follows the Loading frame
    run.requests(1)
    assert not os.path.exists(run.file("todos.json"))
    run.quit()


def error():
    run = Run("error")
    run.expect("[ Start ]")
    run.send("\r")
    run.expect("Oops", "The server answered 500 Internal Server Error.", "[ Try again ]")
    run.requests(1)
    assert not os.path.exists(run.file("todos.json"))
    run.quit()


def loaded():
    run = Run("ok")
    run.expect("[ Start ]")
    run.send("\r")
    run.expect("Todos (25)", "1/25", "answer emails", "backup photos", "Book dentist", "Buy milk", "call mum",
               "Éclair recipe", "eclair shopping")
    assert filecmp.cmp(run.file("todos.json"), SORTED, shallow=False)
    run.requests(1)
    run.quit()


def try_again():
    run = Run("retry")
    run.expect("[ Start ]")
    run.send("\r")
    run.expect("Oops", "[ Try again ]")
    assert not os.path.exists(run.file("todos.json"))
    run.send("\r")
    run.expect("Todos (25)", "answer emails")
    run.requests(2)
    assert filecmp.cmp(run.file("todos.json"), SORTED, shallow=False)
    run.quit()


def scroll_and_quit():
    run = Run("ok", rows=10, cols=60)
    run.expect("[ Start ]")
    run.send(" ")
    run.expect("1/25")
    run.send("\x1b[B\x1b[B")
    run.expect("3/25")
    run.send("\x1b[6~")
    run.child.expect(r"1[01]/25")
    run.send("\x1b[F")
    run.expect("25/25", "walk the dog")
    run.send("\x1b[H")
    run.expect("1/25", "answer emails")
    run.child.setwinsize(12, 70)
    run.expect("answer emails")
    assert os.path.exists(run.file("todos.json"))
    run.quit()


for test in [idle, loading, error, loaded, try_again, scroll_and_quit]:
    test()
server.shutdown()
