"""Serves one file at /todos with pytest-httpserver; prints its base URL, then serves until stdin closes or SIGTERM."""
import signal
import sys

from pytest_httpserver import HTTPServer

body = open(sys.argv[1], "rb").read()
try:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
except TypeError:  # Older versions have no threaded option.
    server = HTTPServer(host="127.0.0.1", port=0)
server.expect_request("/todos").respond_with_data(body, content_type="application/json")
server.start()
print(server.url_for("").rstrip("/"), flush=True)
signal.signal(signal.SIGTERM, lambda *_: (server.stop(), sys.exit(0)))
try:
    sys.stdin.read()
finally:
    if server.is_running():
        server.stop()
