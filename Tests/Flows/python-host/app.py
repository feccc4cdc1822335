"""A tiny line-oriented todo list that adopts the Python harness host (Harness/hosts/python).

    python3 app.py            # then: add TEXT, done N, list, quit

With the launch protocol: the list is saved in the storage folder (todos.json), the frozen
clock is shown as "today", `--harness-set greeting=...` replaces the banner's greeting and
`--harness-initial-state` starts on a sample list. Through the bridge it exposes:

    spy      store.save   every list it saves
    probe    items        the list: [{"title": ..., "done": ...}, ...]
    handler  given        a sample name ("empty", "three") or a whole list; answers the count
    event    count        the number of items, at launch and on every change
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Harness", "hosts", "python"))
import harness_host  # noqa: E402

SAMPLES = {
    "empty": [],
    "three": [{"title": "apples", "done": False}, {"title": "bread", "done": True}, {"title": "milk", "done": False}],
}


def main():
    launch = harness_host.start_or_exit(app_name="python-todo")
    options = launch.options
    host = launch.host
    items = []
    if options and options.initial_state:
        if options.initial_state not in SAMPLES:
            sys.stderr.write("unknown initial state %r; known: %s\n" % (options.initial_state, ", ".join(sorted(SAMPLES))))
            return 64
        items = [dict(item) for item in SAMPLES[options.initial_state]]
    storage = options.storage if options else None
    saves = host.spy("store.save") if host else None

    def save():
        if saves:
            saves.record(items)
        if storage:
            with open(os.path.join(storage, "todos.json"), "w") as file:
                json.dump(items, file)
        if host:
            host.publish("count", len(items))

    def given(params):
        if isinstance(params, str):
            if params not in SAMPLES:
                raise harness_host.BadParams("unknown sample %r; known: %s" % (params, ", ".join(sorted(SAMPLES))))
            replacement = [dict(item) for item in SAMPLES[params]]
        elif isinstance(params, list) and all(isinstance(i, dict) and isinstance(i.get("title"), str) for i in params):
            replacement = [{"title": i["title"], "done": bool(i.get("done", False))} for i in params]
        else:
            raise harness_host.BadParams("given takes a sample name or a list of {\"title\", \"done\"}")
        items[:] = replacement
        save()
        return len(items)

    if host:
        host.probe("items", lambda: list(items))
        host.handle("given", given)
        host.publish("count", len(items))
        host.ready()

    greeting = (options.values.get("greeting") if options else None) or "Hello"
    today = " today is %s" % options.clock.strftime("%Y-%m-%d") if options and options.clock else ""
    print("%s from the python todo list.%s" % (greeting, today), flush=True)
    while True:
        try:
            line = input("> ")
        except EOFError:
            break
        command, _, rest = line.strip().partition(" ")
        if command == "add" and rest:
            items.append({"title": rest, "done": False})
            save()
            print("added %d: %s" % (len(items), rest))
        elif command == "done" and rest.isdigit() and 1 <= int(rest) <= len(items):
            items[int(rest) - 1]["done"] = True
            save()
            print("done %s" % rest)
        elif command == "list":
            for number, item in enumerate(items, 1):
                print("%d [%s] %s" % (number, "x" if item["done"] else " ", item["title"]))
            print("(%d items)" % len(items))
        elif command == "quit":
            break
        else:
            print("commands: add TEXT, done N, list, quit")
    if host:
        host.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
