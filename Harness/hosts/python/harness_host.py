"""A harness host for Python apps: the app side of docs/PROTOCOL.md (version 2).

Standard library only; one file to copy next to the app (or put on PYTHONPATH).

    import sys
    import harness_host

    launch = harness_host.start_or_exit(app_name="counter")  # exits 64 on malformed options
    args = launch.arguments                 # argv without harness flags (program path first)
    options = launch.options                # None without the launch protocol
    host = launch.host                      # None without a bridge (or when it failed)
    if host:
        saves = host.spy("store.save")
        host.probe("items", lambda: list(items))
        host.handle("given", set_state)     # params: the decoded JSON; raise BadParams to refuse
        host.publish("count", len(items))
        host.ready()
    ...
    if host:
        saves.record(items)

Call `start` (or `start_or_exit`) before the app writes anything to its terminal: it connects
before it returns, and the harness takes output from an app that has not connected as proof
that it has no host (docs/PROTOCOL.md, section 5), failing the launch at once.

Without any harness flag and any HARNESS_* launch variable the host is inert: it opens no
socket, starts no thread, creates no file, and `launch.arguments` is `sys.argv` untouched.

Options come from one carrier: flags right after the program path (`--harness-storage DIR`)
or environment variables (`HARNESS_STORAGE=DIR`), never both. Variables read from
`os.environ` are removed from it, with the token, so programs the app starts do not inherit
them. The token is always `HARNESS_BRIDGE_TOKEN`.

Threading: probes and handlers run on the host's reader thread, one at a time. `publish`,
`Spy.record`, `ready` and `close` may be called from any thread and never block on the
harness: frames are queued (at most 64 MiB) and written by the host's writer thread; beyond
that whole frames are dropped and counted in `dropped_frames`. When the harness goes away the
host becomes inert and the app carries on.
"""

import collections
import datetime
import json
import os
import re
import socket
import struct
import sys
import threading
import urllib.parse

__all__ = ["start", "start_or_exit", "Launch", "LaunchOptions", "LaunchError", "Host", "Spy", "BadParams",
           "PROTOCOL_VERSION"]

PROTOCOL_VERSION = 2
DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024
MAX_DEPTH = 512
QUEUE_LIMIT = 64 * 1024 * 1024

FLAGS = ["--harness-network", "--harness-storage", "--harness-bridge", "--harness-clock",
         "--harness-initial-state", "--harness-set"]
VARIABLES = ["HARNESS_NETWORK", "HARNESS_STORAGE", "HARNESS_BRIDGE", "HARNESS_CLOCK",
             "HARNESS_INITIAL_STATE", "HARNESS_SET"]
TOKEN_VARIABLE = "HARNESS_BRIDGE_TOKEN"
PREFIX = "--harness-"
RAW_MEMBERS = ("params", "result", "value")

_CLOCK = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
                    r"(?:\.([0-9]{1,9}))?(Z|[+-][0-9]{2}:[0-9]{2})")


class LaunchError(Exception):
    """Malformed launch options: the app should print it and exit with status 64 (EX_USAGE)."""


class BadParams(Exception):
    """Raised by a handler whose params it cannot use: the reply is a `badParams` error."""


class ProtocolError(Exception):
    """A frame or message that breaks the protocol: the connection is dropped."""


class LaunchOptions:
    """What the harness told the app: network, storage, bridge, clock, initial state, values."""

    def __init__(self):
        self.network = None          # str, an absolute URL
        self.storage = None          # str, a directory
        self.bridge = None           # str, the socket path
        self.clock = None            # datetime.datetime in UTC
        self.initial_state = None    # str
        self.values = {}             # dict of str -> str (--harness-set)
        self.token = None            # str or None

    def __repr__(self):
        shown = {k: v for k, v in vars(self).items() if k != "token"}
        return "LaunchOptions(%r)" % shown


class Launch:
    """What `start` found: the options (or None), the app's own arguments, the host (or None)
    and, when a bridge was asked for but not joined, why (`bridge_error`)."""

    def __init__(self, options, arguments, host, bridge_error):
        self.options = options
        self.arguments = arguments
        self.host = host
        self.bridge_error = bridge_error


# MARK: - Launch options


def parse_clock(text):
    """The UTC datetime of a protocol clock, or None (docs/PROTOCOL.md section 1)."""
    match = _CLOCK.fullmatch(text)
    if not match:
        return None
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    if year < 1 or hour > 23 or minute > 59 or second > 59:
        return None
    zone = match.group(8)
    offset = 0
    if zone != "Z":
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if hours > 23 or minutes > 59:
            return None
        offset = (hours * 60 + minutes) * (-1 if zone[0] == "-" else 1)
    try:
        local = datetime.datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    fraction = match.group(7)
    micro = datetime.timedelta(seconds=int(fraction) / 10 ** len(fraction)) if fraction else datetime.timedelta(0)
    return (local + micro - datetime.timedelta(minutes=offset)).replace(tzinfo=datetime.timezone.utc)


def _apply(options, flag, value):
    if flag == "--harness-network":
        parts = urllib.parse.urlsplit(value)
        if not parts.scheme or not parts.hostname:
            raise LaunchError("--harness-network value '%s' is not an absolute URL" % value)
        options.network = value
    elif flag == "--harness-storage":
        options.storage = value
    elif flag == "--harness-bridge":
        options.bridge = value
    elif flag == "--harness-clock":
        clock = parse_clock(value)
        if clock is None:
            raise LaunchError("--harness-clock value '%s' is not a date-time "
                              "YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm)" % value)
        options.clock = clock
    elif flag == "--harness-initial-state":
        options.initial_state = value
    else:
        key, equals, rest = value.partition("=")
        if not equals or not key:
            raise LaunchError("--harness-set value '%s' is not KEY=VALUE" % value)
        if key in options.values:
            raise LaunchError("--harness-set key '%s' is given more than once" % key)
        options.values[key] = rest


def _parse_set_variable(text):
    def pairs_hook(pairs):
        result = {}
        for key, value in pairs:
            if key in result:
                raise LaunchError("--harness-set key '%s' is given more than once" % key)
            result[key] = value
        return result
    try:
        values = json.loads(text, object_pairs_hook=pairs_hook)
    except ValueError as error:
        raise LaunchError("HARNESS_SET must be a JSON object of strings: %s" % error) from None
    if not isinstance(values, dict) or not all(isinstance(v, str) for v in values.values()):
        raise LaunchError("HARNESS_SET must be a JSON object of strings, e.g. {\"mode\":\"fast\"}")
    if "" in values:
        raise LaunchError("HARNESS_SET must be a JSON object of strings: a key is empty")
    return values


def parse_launch(arguments, environment):
    """(options or None, remaining arguments): reads either carrier, as the Swift host does."""
    options = LaunchOptions()
    remaining = []
    seen = []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument == "--":
            remaining.extend(arguments[index:])
            break
        if not argument.startswith(PREFIX):
            remaining.append(argument)
            index += 1
            continue
        if "=" in argument:
            flag, _, value = argument.partition("=")
            index += 1
        else:
            flag = argument
            if flag not in FLAGS:
                raise LaunchError("unknown launch argument %s; known: %s" % (flag, ", ".join(FLAGS)))
            if index + 1 >= len(arguments):
                raise LaunchError("launch argument %s needs a value" % flag)
            value = arguments[index + 1]  # whatever it is, even "--" or "--harness-..."
            index += 2
        if flag not in FLAGS:
            raise LaunchError("unknown launch argument %s; known: %s" % (flag, ", ".join(FLAGS)))
        if not value:
            raise LaunchError("launch argument %s has an empty value" % flag)
        if flag != "--harness-set" and flag in seen:
            raise LaunchError("launch argument %s is given more than once" % flag)
        if flag not in seen:
            seen.append(flag)
        _apply(options, flag, value)
    variables = [name for name in VARIABLES if name in environment]
    if seen and variables:
        raise LaunchError("the launch options came both as flags (%s) and as environment variables (%s); "
                          "a launch uses one carrier" % (", ".join(seen), ", ".join(variables)))
    if not seen:
        if not variables:
            return None, list(arguments)
        for flag, name in zip(FLAGS, VARIABLES):
            if name not in environment:
                continue
            value = environment[name]
            if not value:
                raise LaunchError("launch variable %s is set but empty" % name)
            if name == "HARNESS_SET":
                options.values.update(_parse_set_variable(value))
            else:
                _apply(options, flag, value)
    options.token = environment.get(TOKEN_VARIABLE)
    return options, (remaining if seen else list(arguments))


# MARK: - Frames and messages


def _depth_ok(text, limit=MAX_DEPTH, start=0):
    """Whether the value at `start` (or the whole text) nests at most `limit` levels."""
    depth = 0
    in_string = False
    escaped = False
    for index in range(start, len(text)):
        character = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            if depth > limit:
                return False
        elif character in "]}":
            depth -= 1
            if depth <= 0 and start:
                return True
    return True


def _refuse_constant(constant):
    raise ValueError("%s is not JSON" % constant)


def _strict_loads(text):
    """json.loads that refuses NaN/Infinity (not JSON) and nesting deeper than 512."""
    if not _depth_ok(text):
        raise ValueError("nesting deeper than %d levels" % MAX_DEPTH)
    return json.loads(text, parse_constant=_refuse_constant)


_WHITESPACE = " \t\n\r"


def decode_envelope(payload):
    """The message's members as a dict; a raw member (params, result, value) is kept as its
    text: every byte between its colon and the closing brace, trimmed (section 3)."""
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("the payload is not UTF-8") from None
    decoder = json.JSONDecoder(parse_constant=_refuse_constant)
    index = 0

    def skip(i):
        while i < len(text) and text[i] in _WHITESPACE:
            i += 1
        return i

    index = skip(index)
    if index >= len(text) or text[index] != "{":
        raise ProtocolError("the payload is not a JSON object")
    members = {}
    index = skip(index + 1)
    if index < len(text) and text[index] == "}":
        index += 1
    else:
        while True:
            index = skip(index)
            try:
                key, index = decoder.raw_decode(text, index)
            except ValueError as error:
                raise ProtocolError("malformed JSON: %s" % error) from None
            if not isinstance(key, str):
                raise ProtocolError("an object key is not a string")
            index = skip(index)
            if index >= len(text) or text[index] != ":":
                raise ProtocolError("expected ':'")
            index = skip(index + 1)
            if key in RAW_MEMBERS:
                end = len(text)
                while end > index and text[end - 1] in _WHITESPACE:
                    end -= 1
                if end <= index or text[end - 1] != "}":
                    raise ProtocolError("the object does not end with '}' after its last member")
                raw = text[index:end - 1].strip(_WHITESPACE)
                if not raw:
                    raise ProtocolError("expected a value")
                members[key] = RawValue(raw)
                return members
            start = index
            try:
                if not _depth_ok(text, start=start):
                    raise ProtocolError("nesting deeper than %d levels" % MAX_DEPTH)
                value, index = decoder.raw_decode(text, index)
            except (ValueError, RecursionError) as error:
                raise ProtocolError("malformed JSON: %s" % error) from None
            members[key] = value
            index = skip(index)
            if index >= len(text):
                raise ProtocolError("unterminated object")
            if text[index] == "}":
                index += 1
                break
            if text[index] != ",":
                raise ProtocolError("expected ',' or '}'")
            index += 1
    if skip(index) != len(text):
        raise ProtocolError("unexpected data after the object")
    return members


class RawValue:
    """A raw JSON member as received: decoded (and checked) only when used."""

    def __init__(self, text):
        self.text = text

    def decode(self):
        return _strict_loads(self.text)


def _is_integer(value):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2 ** 53


def _encode(members, raw_name=None, raw_text=None):
    """A frame: the members as JSON, the raw member last."""
    body = json.dumps(members, ensure_ascii=False, separators=(",", ":"))
    if raw_name is not None:
        body = body[:-1] + ("," if len(members) else "") + json.dumps(raw_name) + ":" + raw_text + "}"
    data = body.encode("utf-8")
    return struct.pack(">I", len(data)) + data


def _receive_exactly(sock, count):
    chunks = []
    while count:
        chunk = sock.recv(count)
        if not chunk:
            return None
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def _receive_frame(sock, max_frame_size):
    header = _receive_exactly(sock, 4)
    if header is None:
        return None
    (length,) = struct.unpack(">I", header)
    if length == 0:
        raise ProtocolError("a frame of length 0")
    if length > max_frame_size:
        raise ProtocolError("a frame of %d bytes is larger than %d" % (length, max_frame_size))
    payload = _receive_exactly(sock, length)
    if payload is None:
        return None
    return decode_envelope(payload)


# MARK: - The host


class Spy:
    """Records values; each is kept (for `__spy.calls`) and pushed as a `record` message."""

    def __init__(self, host, name):
        self._host = host
        self.name = name

    def record(self, value):
        self._host._record(self.name, value)

    @property
    def values(self):
        with self._host._lock:
            return list(self._host._spies[self.name])


class Host:
    """The connected host: declare probes, handlers and spies, publish events, say ready."""

    def __init__(self, options, app_name, max_frame_size):
        self.options = options
        self.app_name = app_name
        self.max_frame_size = max_frame_size
        self.dropped_frames = 0
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._queue = collections.deque()
        self._queued_bytes = 0
        self._open = False
        self._closing = False
        self._sock = None
        self._entries = {}   # name -> (kind, function)
        self._spies = {}     # name -> [values]
        self._seq = 0
        self._sent_ready = False

    # Declarations

    def probe(self, name, function):
        """`function()` returns the probe's current value (any JSON-encodable value)."""
        with self._lock:
            self._entries[name] = ("probe", function)

    def handle(self, name, function):
        """`function(params)` gets the decoded params and returns the result."""
        with self._lock:
            self._entries[name] = ("handler", function)

    def spy(self, name):
        with self._lock:
            self._spies.setdefault(name, [])
        return Spy(self, name)

    def publish(self, name, value):
        """Sends the event `name` with `value`; `seq` grows by one per event."""
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        with self._lock:
            seq = self._seq
            self._seq += 1
            self._send_locked(_encode({"type": "event", "seq": seq, "name": name}, "value", text))

    def ready(self):
        """Tells the harness the names are declared. Sent once."""
        with self._lock:
            if self._sent_ready:
                return
            self._sent_ready = True
            self._send_locked(_encode({"type": "ready"}))

    @property
    def is_connected(self):
        with self._lock:
            return self._open

    def wait_closed(self, timeout=None):
        """Waits until the bridge has ended (the harness closed it, or `close`); True if it has."""
        with self._lock:
            return self._wake.wait_for(lambda: not self._open, timeout)

    def close(self):
        """Says goodbye, flushes and closes the bridge; the host is inert afterwards."""
        with self._lock:
            if not self._open:
                return
            self._send_locked(_encode({"type": "goodbye", "reason": "the app closed the bridge"}))
            self._closing = True
            self._wake.notify_all()

    # Connection

    def _connect(self, path, timeout):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect(path)
            hello = {"type": "hello", "version": PROTOCOL_VERSION, "token": self.options.token or "",
                     "pid": os.getpid(), "app": self.app_name}
            sock.sendall(_encode(hello))
            answer = _receive_frame(sock, self.max_frame_size)
        except (OSError, ProtocolError) as error:
            sock.close()
            raise ConnectionError("bridge handshake failed: %s" % error) from None
        if answer is None:
            sock.close()
            raise ConnectionError("bridge handshake failed: the harness closed the connection")
        kind = answer.get("type")
        if kind == "refused":
            sock.close()
            raise ConnectionError("the harness refused the bridge (%s): %s" % (answer.get("code"), answer.get("reason")))
        if kind != "welcome" or answer.get("version") != PROTOCOL_VERSION:
            sock.close()
            raise ConnectionError("the harness answered hello with %r" % kind)
        sock.settimeout(None)
        self._sock = sock
        self._open = True
        threading.Thread(target=self._read_loop, name="harness_host.reader", daemon=True).start()
        threading.Thread(target=self._write_loop, name="harness_host.writer", daemon=True).start()

    def _send_locked(self, frame):
        if not self._open or self._closing:
            return
        if len(frame) - 4 > self.max_frame_size or self._queued_bytes + len(frame) > QUEUE_LIMIT:
            self.dropped_frames += 1
            return
        self._queue.append(frame)
        self._queued_bytes += len(frame)
        self._wake.notify_all()

    def _write_loop(self):
        while True:
            with self._lock:
                while not self._queue and self._open and not self._closing:
                    self._wake.wait()
                if not self._open:
                    return
                if not self._queue:  # closing, everything flushed
                    self._shut_locked()
                    return
                frame = self._queue.popleft()
                self._queued_bytes -= len(frame)
            try:
                self._sock.sendall(frame)  # only this thread writes; a closed peer raises, never SIGPIPE
            except OSError:
                with self._lock:
                    self._shut_locked()
                return

    def _shut_locked(self):
        if not self._open:
            return
        self._open = False
        self._queue.clear()
        self._queued_bytes = 0
        self._wake.notify_all()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def _read_loop(self):
        try:
            while True:
                message = _receive_frame(self._sock, self.max_frame_size)
                if message is None:
                    break
                kind = message.get("type")
                if kind == "call":
                    call_id, name = message.get("id"), message.get("name")
                    if not _is_integer(call_id) or not isinstance(name, str):
                        raise ProtocolError("a call without an integer id or a string name")
                    params = message.get("params", RawValue("null"))
                    if not isinstance(params, RawValue):
                        raise ProtocolError("params is not the last member")
                    self._answer(call_id, name, params)
                elif kind == "goodbye":
                    break
                else:
                    raise ProtocolError("unexpected message %r from the harness" % kind)
        except (OSError, ProtocolError):
            pass
        with self._lock:
            self._shut_locked()

    # Calls

    def _answer(self, call_id, name, params):
        try:
            result = self._run(name, params)
            text = json.dumps(result, ensure_ascii=False, allow_nan=False)
        except _CallError as error:
            return self._reply_error(call_id, error.code, error.message, error.available)
        except (TypeError, ValueError) as error:
            return self._reply_error(call_id, "badResult", "the result cannot be encoded as JSON: %s" % error)
        frame = _encode({"type": "reply", "id": call_id}, "result", text)
        if len(frame) - 4 > self.max_frame_size:
            return self._reply_error(call_id, "badResult", "the reply would exceed the max frame size")
        with self._lock:
            self._send_locked(frame)

    def _reply_error(self, call_id, code, message, available=None):
        error = {"code": code, "message": message}
        if available is not None:
            error["available"] = available
        with self._lock:
            self._send_locked(_encode({"type": "reply", "id": call_id, "error": error}))

    def _run(self, name, params):
        if name == "__names":
            with self._lock:
                entries = dict(self._entries)
                spies = sorted(self._spies)
            return {"probes": sorted(n for n, e in entries.items() if e[0] == "probe"),
                    "handlers": sorted(n for n, e in entries.items() if e[0] == "handler"),
                    "spies": spies, "builtIns": sorted(BUILT_INS)}
        if name == "__echo":
            return self._decode(params)
        if name in ("__spy.calls", "__spy.count"):
            decoded = self._decode(params)
            if not isinstance(decoded, dict) or not isinstance(decoded.get("name"), str):
                raise _CallError("badParams", "%s takes {\"name\": spy}" % name)
            with self._lock:
                values = self._spies.get(decoded["name"])
                spies = sorted(self._spies)
                values = None if values is None else list(values)
            if values is None:
                raise _CallError("unknownName", "the app has no spy named '%s'" % decoded["name"], spies)
            return values if name == "__spy.calls" else len(values)
        with self._lock:
            entry = self._entries.get(name)
            names = sorted(self._entries)
        if entry is None:
            raise _CallError("unknownName", "the app exposes no probe or handler named '%s'" % name, names)
        kind, function = entry
        try:
            return function() if kind == "probe" else function(self._decode(params))
        except _CallError:
            raise
        except BadParams as error:
            raise _CallError("badParams", str(error)) from None
        except Exception as error:  # the app's code failed: a reply, never a dead reader
            raise _CallError("handlerFailed", "%s: %s" % (type(error).__name__, error)) from None

    @staticmethod
    def _decode(params):
        try:
            return params.decode()
        except (ValueError, RecursionError) as error:
            raise _CallError("badParams", "the params are not well-formed JSON: %s" % error) from None

    def _record(self, name, value):
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        with self._lock:
            values = self._spies.setdefault(name, [])
            values.append(json.loads(text))
            self._send_locked(_encode({"type": "record", "spy": name, "index": len(values) - 1}, "value", text))


BUILT_INS = ("__names", "__spy.calls", "__spy.count", "__echo")


class _CallError(Exception):
    def __init__(self, code, message, available=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.available = available


# MARK: - Start


def start(arguments=None, environment=None, app_name=None, handshake_timeout=60.0,
          max_frame_size=DEFAULT_MAX_FRAME_SIZE):
    """Reads the launch options (from `sys.argv` and `os.environ` by default) and joins the
    bridge when one is named. Raises `LaunchError` when the options are malformed; a bridge
    that cannot be joined is not an error (see `Launch.bridge_error`). `handshake_timeout` is
    how many seconds to wait for the harness's welcome (only a hung harness takes that long);
    None waits until it answers or closes."""
    from_process = environment is None
    arguments = list(sys.argv if arguments is None else arguments)
    environment = dict(os.environ if environment is None else environment)
    options, remaining = parse_launch(arguments, environment)
    if options is None:
        return Launch(None, remaining, None, None)
    if from_process:
        for name in VARIABLES + [TOKEN_VARIABLE]:
            os.environ.pop(name, None)
    if options.bridge is None:
        return Launch(options, remaining, None, None)
    name = app_name or os.path.basename(arguments[0] if arguments else "python")
    host = Host(options, name, max_frame_size)
    try:
        host._connect(options.bridge, handshake_timeout)
    except ConnectionError as error:
        return Launch(options, remaining, None, str(error))
    return Launch(options, remaining, host, None)


def start_or_exit(**keywords):
    """`start`, printing a malformed option's reason to stderr and exiting with status 64."""
    try:
        return start(**keywords)
    except LaunchError as error:
        sys.stderr.write("harness: %s\n" % error)
        sys.exit(64)
