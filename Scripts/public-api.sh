#!/usr/bin/env bash
# Counts the public declarations `import Harness` puts in scope: Harness's own, those of the
# modules it re-exports whole (`@_exported import X` in Harness/Harness/Exports.swift, and theirs
# in turn), and the single declarations it re-exports (`@_exported import struct X.Y`, with their
# members). Each declaration counts once: a type, each of its members and enum cases, each
# extension member; the extensions a module adds to another module's types count too. Read from
# `swift symbolgraph-extract` over the built modules (no rebuild).
#
#   Scripts/public-api.sh [--limit N] [--no-build] [--list]
#
#   --limit N   exit 1 when the count is above N
#   --no-build  do not build Harness first (`swift build --target Harness`)
#   --list      print the count of each module, then every declaration's path
#
# Prints `import Harness: N public declarations (limit L)`.
set -euo pipefail
cd "$(dirname "$0")/.."

limit="" build=1 list=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --limit) limit="${2:?--limit needs a number}"; shift 2 ;;
        --no-build) build=0; shift ;;
        --list) list=1; shift ;;
        *) echo "public-api.sh: unknown argument '$1' (use --limit N, --no-build, --list)" >&2; exit 2 ;;
    esac
done
[[ -z "$limit" || "$limit" =~ ^[0-9]+$ ]] || { echo "public-api.sh: --limit '$limit' is not a number" >&2; exit 2; }

((build)) && swift build --target Harness >/dev/null
bin="$(swift build --show-bin-path)"
[[ -f "$bin/Modules/Harness.swiftmodule" ]] || { echo "public-api.sh: no built Harness module under $bin (build first)" >&2; exit 2; }
triple="$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
out="$(mktemp -d /tmp/public-api.XXXXXX)"
trap 'rm -rf "$out"' EXIT

python3 - "$out" "$list" "$limit" "$bin" "$triple" <<'PY' || exit $?
import glob, json, os, re, subprocess, sys

out, listing, limit, bin, triple = sys.argv[1], sys.argv[2] == "1", sys.argv[3], sys.argv[4], sys.argv[5]
whole, single = [], {}          # modules re-exported whole; module -> names re-exported alone
def exports(module):
    path = f"Harness/{module}/Exports.swift"
    if not os.path.exists(path):
        return
    for match in re.finditer(r"^@_exported import (?:(?:struct|enum|class|protocol|func|var|typealias) )?([\w.]+)", open(path).read(), re.M):
        name = match.group(1)
        if "." in name:
            owner, symbol = name.split(".", 1)
            single.setdefault(owner, set()).add(symbol)
        elif name not in whole:
            whole.append(name)
            exports(name)
whole.append("Harness")
exports("Harness")

count, paths, per_module = 0, [], {}
for module in whole + [m for m in single if m not in whole]:
    os.makedirs(f"{out}/{module}", exist_ok=True)
    subprocess.run(["swift", "symbolgraph-extract", "-module-name", module, "-I", f"{bin}/Modules",
                    "-I", "Harness/CHarnessSystem/include", "-Xcc", f"-fmodule-map-file={bin}/CHarnessSystem.build/module.modulemap",
                    "-target", triple, "-output-dir", f"{out}/{module}", "-minimum-access-level", "public"],
                   check=True, stdout=subprocess.DEVNULL)
    graphs = sorted(glob.glob(f"{out}/{module}/{module}.symbols.json")) + sorted(glob.glob(f"{out}/{module}/{module}@*.symbols.json"))
    if not graphs:
        sys.exit(f"public-api.sh: no symbol graph for {module}")
    found = set()
    for graph in graphs:
        for symbol in json.load(open(graph))["symbols"]:
            if symbol["accessLevel"] != "public":
                continue
            path = ".".join(symbol["pathComponents"])
            if module in single and module not in whole and symbol["pathComponents"][0] not in single[module]:
                continue
            found.add((path, symbol["identifier"]["precise"]))
    per_module[module] = len(found)
    count += len(found)
    paths += sorted(f"{module}: {path}" for path, _ in found)
if listing:
    for module, n in per_module.items():
        print(f"{module}: {n}")
    print("\n".join(paths))
print(f"import Harness: {count} public declarations" + (f" (limit {limit})" if limit else ""))
if limit and count > int(limit):
    print(f"public-api.sh: above the limit by {count - int(limit)}: make declarations only this package uses `package`, "
          "or keep their module out of Harness's re-exports", file=sys.stderr)
    sys.exit(1)
PY
