#!/usr/bin/env python3
"""Drives `harness mcp` through the Python `mcp` SDK, as an agent's client would: lists the tools,
then for the todo app (with a stub), `python3 -q` and `bc -q`: launches, sends keys, waits, reads
the screen (with styles) and the requests, saves a flow and runs it with `harness run`, which must
pass at once. Exits 0 when everything held, 1 with what did not.

Usage: mcp_client_test.py HARNESS PRODUCTS_DIR FIXTURES_DIR
(CI: .build/mcp-venv/bin/python Tests/Agents/mcp_client_test.py .build/debug/harness .build/debug Tests/Flows/fixtures)
"""
import asyncio
import base64
import os
import shutil
import subprocess
import sys
import tempfile

try:
    from mcp import Client, StdioServerParameters
except ImportError as error:  # the venv is missing: say how to make it, never skip
    sys.exit(f"mcp_client_test: the Python mcp SDK is not installed ({error}); "
             "run: python3 -m venv .build/mcp-venv && .build/mcp-venv/bin/pip install mcp==2.3.0")

HARNESS, PRODUCTS, FIXTURES = (os.path.abspath(argument) for argument in sys.argv[1:4])
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


async def call(client, tool, **arguments):
    result = await client.call_tool(tool, arguments)
    structured = result.structured_content or {}
    text = "".join(getattr(part, "text", "") for part in result.content)
    if result.is_error:
        raise AssertionError(f"{tool} {arguments}: {text}")
    return structured, text


def replay(folder, flow):
    run = subprocess.run([HARNESS, "run", flow, "--timeout", "30s"], cwd=folder, capture_output=True, text=True,
                         env={**os.environ, "HARNESS_RECORD": "never"})
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    check(run.returncode == 0 and last == "1 passed, 0 failed",
          f"harness run {flow} passes at once ({last!r}){'' if run.returncode == 0 else chr(10) + run.stdout + run.stderr}")


async def todo(client, folder):
    shutil.copy(os.path.join(FIXTURES, "todos.json"), os.path.join(folder, "todos.json"))
    launched, _ = await call(client, "launch", program=os.path.join(PRODUCTS, "todo"), size="80x24", cwd=folder,
                             stubs=["GET /todos 200 json todos.json"], setup=["set api.timeout=86400"])
    session = launched["session"]
    await call(client, "wait_for", session=session, text="[ Start ]")
    await call(client, "press", session=session, keys=["enter"])
    waited, _ = await call(client, "wait_for", session=session, text="Todos (25)")
    check("Todos (25)" in waited["text"], "todo: wait_for returns the screen's text")
    screen, _ = await call(client, "screen", session=session, styles=True)
    check(any(run["style"] for run in screen.get("styles", [])), "todo: screen with styles gives styled runs")
    snapshot = await client.call_tool("snapshot", {"session": session, "name": "loaded"})
    images = [part for part in snapshot.content if getattr(part, "type", "") == "image"]
    check(len(images) == 1 and images[0].mime_type == "image/png"
          and base64.b64decode(images[0].data).startswith(b"\x89PNG\r\n\x1a\n"),
          "todo: snapshot gives the SDK a PNG image of the screen")
    requests, _ = await call(client, "requests", session=session)
    check([(r["method"], r["target"]) for r in requests["requests"]] == [("GET", "/todos")], "todo: requests shows GET /todos")
    await call(client, "press", session=session, keys=["down"])
    await call(client, "wait_for", session=session, text="2/25")
    saved, _ = await call(client, "save_flow", session=session, path="todo.flow")
    check("stub GET /todos 200 json todos.json" in saved["flow"], "todo: the saved flow has the stub")
    await call(client, "close", session=session)
    replay(folder, "todo.flow")


async def line_program(client, folder, name, program, args, prompt):
    if shutil.which(program) is None:
        check(False, f"{name}: {program} is installed")
        return
    launched, _ = await call(client, "launch", program=program, args=args, cwd=folder)
    session = launched["session"]
    if prompt:
        await call(client, "wait_for", session=session, text=prompt)
    await call(client, "type", session=session, text="6*7")
    await call(client, "press", session=session, keys=["enter"])
    waited, _ = await call(client, "wait_for", session=session, text="42")
    check("42" in waited["text"], f"{name}: 6*7 shows 42")
    output, _ = await call(client, "output", session=session)
    check("42" in output["output"], f"{name}: output has the printed 42")
    await call(client, "save_flow", session=session, path=f"{name}.flow")
    closed, _ = await call(client, "close", session=session)
    check("status" in closed, f"{name}: close gives the exit status")
    replay(folder, f"{name}.flow")


async def main():
    server = StdioServerParameters(command=HARNESS, args=["mcp"], env={**os.environ})
    with tempfile.TemporaryDirectory(prefix="mcp-client-") as folder:
        async with Client(server) as client:
            tools = await client.list_tools()
            names = {tool.name for tool in tools.tools}
            check({"launch", "type", "press", "wait_for", "screen", "requests", "save_flow", "close"} <= names,
                  f"tools/list names the tools ({sorted(names)})")
            await todo(client, folder)
            await line_program(client, folder, "python", "python3", ["-q"], ">>>")
            await line_program(client, folder, "bc", "bc", ["-q"], None)
    if failures:
        sys.exit("mcp_client_test: failed:\n  " + "\n  ".join(failures))
    print("mcp_client_test: all passed")


asyncio.run(main())
