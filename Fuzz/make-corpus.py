#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/corpus/<target>/ (run from anywhere; rerun after changing it).

Each target's input format is described at the top of its Fuzz/Sources/fuzz-<target>/main.swift:
the vt, http and frame inputs start with header bytes (sizes, the seed that cuts the input into
chunks, flags), then the bytes themselves.
"""
import glob
import json
import os
import shutil
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def reset(target):
    shutil.rmtree(os.path.join(CORPUS, target), ignore_errors=True)


# --- vt: [cols-1, rows-1, seed hi, seed lo] + what a program writes ------------------------------
reset("vt")
ESC = b"\x1b"
CSI = ESC + b"["
OSC = ESC + b"]"
vt_seeds = {
    "sgr": CSI + b"1;31mError" + CSI + b"m ok " + CSI + b"38;5;208mx" + CSI + b"48;2;1;2;3my" + CSI + b"0;4;7;9mz" + CSI + b"m\r\n",
    "cursor": CSI + b"2J" + CSI + b"H" + CSI + b"5;10Hhere" + CSI + b"3A" + CSI + b"2B" + CSI + b"4C" + CSI + b"1D" + CSI + b"10G" + CSI + b"7d" + ESC + b"7" + CSI + b"Hx" + ESC + b"8y",
    "scroll-region": CSI + b"2;5r" + CSI + b"5H" + b"a\nb\nc\nd\ne\nf\n" + ESC + b"M" + ESC + b"D" + CSI + b"2S" + CSI + b"3T" + CSI + b"r",
    "edit": b"abcdefghij\r" + CSI + b"3@" + CSI + b"2P" + CSI + b"4X" + CSI + b"K" + CSI + b"1K" + CSI + b"2K" + CSI + b"2L" + CSI + b"M" + CSI + b"J" + CSI + b"1J" + CSI + b"3J",
    "alt-screen": b"main\r\n" + CSI + b"?1049h" + CSI + b"Halt" + CSI + b"?1049l" + CSI + b"?47h" + CSI + b"?47l" + CSI + b"?1047h" + CSI + b"?1047l",
    "wide-and-combining": "日本語の文字 e\u0301 a\u0308\u0323 👍🏽 🇫🇷 한국어 ｗｉｄｅ\r\n".encode() + CSI + b"1;79H" + "中".encode() + CSI + b"1;1H" + CSI + b"@" + "界".encode() * 50,
    "wrap": b"x" * 200 + CSI + b"?7l" + b"y" * 100 + CSI + b"?7h" + b"z" * 90,
    "tabs": b"a\tb\tc\r\n" + ESC + b"H" + CSI + b"g" + CSI + b"3g" + b"\t\t" + CSI + b"2I" + CSI + b"2Z",
    "modes": CSI + b"?1h" + CSI + b"?25l" + CSI + b"?2004h" + CSI + b"?1000h" + CSI + b"?1006h" + CSI + b"4h" + b"ins" + CSI + b"4l" + CSI + b"20h" + b"lf\n" + CSI + b"20l" + CSI + b"?6h" + CSI + b"?25h",
    "osc-title": OSC + b"0;a title\x07" + OSC + b"2;other title" + ESC + b"\\" + OSC + b"8;;http://x\x07link" + OSC + b"8;;\x07",
    "queries": CSI + b"5n" + CSI + b"6n" + CSI + b"c" + CSI + b">c" + CSI + b"0c",
    "charsets": ESC + b"(0lqqk\r\nx  x\r\nmqqj" + ESC + b"(B" + b"\x0e" + b"abc" + b"\x0f" + ESC + b")0",
    "rep-and-dcs": b"a" + CSI + b"20b" + ESC + b"P1$r0m" + ESC + b"\\" + ESC + b"_apc" + ESC + b"\\" + ESC + b"^pm" + ESC + b"\\",
    "malformed": CSI + b"999999999999999999999H" + CSI + b"1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33m" + CSI + b"?;;;h" + b"\x80\xff\xc3" + CSI + b"\x18x" + ESC + b"\x1b[" + b"\xe2\x82",
    "reset": b"text" + ESC + b"c" + CSI + b"!p" + b"more",
    "scrollback": b"".join(b"line %d\r\n" % i for i in range(120)) + CSI + b"3J" + b"".join(b"again %d\n" % i for i in range(40)),
}
for index, (name, data) in enumerate(sorted(vt_seeds.items())):
    write("vt", name, bytes([79 % 64, 23, index, index * 7 % 256]) + data)
    write("vt", name + "-small", bytes([9, 3, 200 + index, index]) + data)
for path in sorted(glob.glob(os.path.join(ROOT, "Tests/TerminalEmulatorTests/Fixtures/*.bytes"))):
    with open(path, "rb") as f:
        data = f.read()
    name = os.path.basename(path)[: -len(".bytes")]
    write("vt", "fixture-" + name, bytes([79 % 64, 23, 1, 2]) + data)

# --- http: [chunk seed, flags (bit 0: small limits)] + what a client sends ------------------------
reset("http")
http_seeds = {
    "get": b"GET /todos HTTP/1.1\r\nHost: localhost:8080\r\nAccept: */*\r\n\r\n",
    "post-json": b"POST /todos?x=1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n{\"title\":\"a\",\"done\":false}",
    "chunked": b"PUT /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\nA\r\n0123456789\r\n0\r\nTrailer: 1\r\n\r\n",
    "pipelined": b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello\r\nGET /d HTTP/1.0\r\n\r\nGET /e HTTP/1.1\nConnection: close\n\n",
    "expect-continue": b"POST /u HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
    "keep-alive-1.0": b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nDELETE /todos/1 HTTP/1.0\r\n\r\n",
    "absolute-target": b"OPTIONS * HTTP/1.1\r\n\r\nGET http://example.com/x HTTP/1.1\r\n\r\n",
    "bad-folding": b"GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n",
    "bad-version": b"GET / HTTP/2.0\r\n\r\n",
    "both-framings": b"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
    "content-length-list": b"POST / HTTP/1.1\r\nContent-Length: 2, 2\r\n\r\nok",
    "big-body": b"POST /big HTTP/1.1\r\nContent-Length: 300\r\n\r\n" + b"b" * 300,
    "big-head": b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"h" * 600 + b"\r\n\r\n",
    "stray-cr": b"\r\n\r\nGET /\r HTTP/1.1\r\n\r\n",
    "gzip-coding": b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
}
for index, (name, data) in enumerate(sorted(http_seeds.items())):
    write("http", name, bytes([index * 17 % 256, 0]) + data)
    write("http", name + "-small-limits", bytes([index * 5 % 256, 1]) + data)

# --- frame: [chunk seed, flags (bit 0: 256-byte frame limit)] + frames ----------------------------
reset("frame")


def frame(payload):
    body = payload.encode() if isinstance(payload, str) else payload
    return struct.pack(">I", len(body)) + body


def envelope(fields, raw=None):
    text = "{" + ",".join('"%s":%s' % (k, json.dumps(v, ensure_ascii=False)) for k, v in fields)
    if raw is not None:
        text += ',"%s":%s' % raw
    return text + "}"


messages = {
    "hello": envelope([("type", "hello"), ("version", 1), ("token", "a1b2"), ("pid", 4242), ("app", "todo \"quoted\" ünï\n")]),
    "welcome": envelope([("type", "welcome"), ("version", 1)]),
    "refused": envelope([("type", "refused"), ("code", "badToken"), ("reason", "wrong token")]),
    "ready": envelope([("type", "ready")]),
    "call": envelope([("type", "call"), ("id", 7), ("name", "given")], ("params", '{"state":"error","items":[1,2.5e3,-0.5,true,null,"\\u00e9\\ud83d\\ude00"]}')),
    "call-null": envelope([("type", "call"), ("id", 8), ("name", "state")], ("params", "null")),
    "reply": envelope([("type", "reply"), ("id", 7)], ("result", '[{"userId":1,"id":1,"title":"a","completed":false}]')),
    "reply-error": '{"type":"reply","id":9,"error":{"code":"unknownName","message":"no \'x\'","available":["a","b"]}}',
    "reply-error-plain": '{"type":"reply","id":10,"error":{"code":"handlerFailed","message":"boom\\tbang"}}',
    "event": envelope([("type", "event"), ("seq", 0), ("name", "state")], ("value", '"loading"')),
    "record": envelope([("type", "record"), ("spy", "database.save"), ("index", 3)], ("value", "[]")),
    "goodbye": envelope([("type", "goodbye"), ("reason", "bye")]),
    "whitespace": ' { "type" : "event" , "seq" : 18446744073709551615 , "name" : "n\\u0041" , "value" : { "a" : [ 1 , { } ] } } ',
}
for index, (name, payload) in enumerate(sorted(messages.items())):
    write("frame", name, bytes([index * 13 % 256, 0]) + frame(payload))
everything = b"".join(frame(payload) for _, payload in sorted(messages.items()))
write("frame", "all-messages", bytes([3, 0]) + everything)
write("frame", "all-messages-small-limit", bytes([9, 1]) + everything)
write("frame", "malformed", bytes([1, 0]) + frame('{"type":"call","id":-1,"name":1}') + frame("[1,2]") + frame('{"type":"x"'))
write("frame", "oversized", bytes([2, 1]) + struct.pack(">I", 1025) + b"{}")
write("frame", "empty-frame", bytes([4, 0]) + frame("{\"type\":\"ready\"}") + struct.pack(">I", 0))

# --- flow: the text of a .flow file ----------------------------------------------------------------
reset("flow")
for path in sorted(glob.glob(os.path.join(ROOT, "Tests/Flows/**/*.flow"), recursive=True)):
    with open(path, "rb") as f:
        data = f.read()
    name = os.path.relpath(path, os.path.join(ROOT, "Tests/Flows")).replace("/", "-")
    write("flow", name, data)
write("flow", "every-command.flow", b"""app ./app --flag "two words"
env A=1
env EMPTY=
size 100x30
clock 2023-11-14T22:13:20Z
timeout 2.5s
stub POST /todos 201 json fixtures/todos.json
stub GET /slow 200 text "ok" delay 1500ms
seed fixtures/todos.json as todos.json
launch
type "hello \\"world\\"\\n"
press enter ctrl-c up down left right tab shift-tab esc backspace f1 pgup pgdn home end
paste "pasted"
resize 80x24
click "OK"
click 3,10
double-click 0,0
drag 1,0 to 1,20
scroll down 3 at "Log"
scroll up at 2,2
expect "Todos" within 3s
expect /^ \\[.\\] a$/
expect-not "Error"
expect-output "done"
expect-output-not "panic"
wait-stable 200ms
snapshot after-launch
snapshot-transcript whole
spy database.save count 1
spy database.save last fixtures/sorted.json
event state sequence idle,loading,loaded
file todos.json exists
file todos.json equals fixtures/sorted.json
requests GET /todos count 1
kill
exit 0
""")
write("flow", "errors.flow", b"app\nsize 0x0\nlaunh\npress ctrl-\xff\nexpect /(/\ntimeout -1s\nstub GET 99\n\t\"unterminated\n")
