#!/usr/bin/env python3
"""The peers' stub of the todo service: a small threaded HTTP server on 127.0.0.1.

Routes (PREFIX names a scenario, so one server serves every flow):
  GET /ok-ANY/todos     200 with the fixture list
  GET /error-ANY/todos  500
  GET /hang-ANY/todos   never answers
  GET /retry-ANY/todos  500 the first time, then 200 with the list
  GET /__count/PREFIX   how many /PREFIX/todos requests arrived (text)
Run as a program it prints its base URL on the first line of stdout and serves until killed.
"""
import http.server
import os
import sys
import threading

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Flows", "fixtures", "todos.json")


class StubServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        with open(FIXTURE, "rb") as handle:
            self.todos = handle.read()
        self.counts = {}
        self.lock = threading.Condition()
        self.never = threading.Event()

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def count(self, prefix):
        with self.lock:
            return self.counts.get(prefix, 0)

    def wait_for_count(self, prefix, count, timeout=5):
        """Waits until `count` requests arrived on `prefix` (woken by each request)."""
        with self.lock:
            return self.lock.wait_for(lambda: self.counts.get(prefix, 0) >= count, timeout)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        server = self.server
        if len(parts) == 2 and parts[0] == "__count":
            self.answer(200, str(server.count(parts[1])).encode(), "text/plain")
            return
        if len(parts) != 2 or parts[1] != "todos":
            self.answer(404)
            return
        prefix = parts[0]
        with server.lock:
            server.counts[prefix] = server.counts.get(prefix, 0) + 1
            number = server.counts[prefix]
            server.lock.notify_all()
        kind = prefix.split("-")[0]
        if kind == "ok" or (kind == "retry" and number > 1):
            self.answer(200, server.todos)
        elif kind in ("error", "retry"):
            self.answer(500, b"database down", "text/plain")
        elif kind == "hang":
            server.never.wait()
        else:
            self.answer(404)


def start():
    """Starts a server on a thread; returns it (stop with shutdown())."""
    server = StubServer()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    server = StubServer()
    print(server.base_url, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)
