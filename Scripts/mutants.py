#!/usr/bin/env python3
"""Reads Scripts/mutants.txt for Scripts/mutate.sh (see the format at the top of that file).

    mutants.py LIST check              every mutant applies exactly once (errors on stderr, exit 1)
    mutants.py LIST ids [ID...]        the ids, in list order (only the given ones, checked to exist)
    mutants.py LIST describe ID        "FILE<TAB>DESCRIPTION"
    mutants.py LIST apply ID           writes the mutant into its file (after checking it applies once)
"""
import sys
from pathlib import Path


def parse(path):
    mutants, current, errors = [], None, []
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if raw.startswith("#"):
            continue
        if raw.strip() == "":
            current = None
            continue
        if raw.startswith("== "):
            head = raw[3:].strip()
            ident, _, description = head.partition(" ")
            current = {"id": ident, "description": description.strip(), "file": None,
                       "original": [], "replacement": [], "line": number}
            mutants.append(current)
            continue
        if current is None:
            errors.append(f"{path}:{number}: text outside a mutant block: {raw!r}")
            continue
        if raw.startswith("file: "):
            current["file"] = raw[len("file: "):].strip()
        elif raw.startswith("-"):
            current["original"].append(raw[2:] if raw.startswith("- ") else raw[1:])
        elif raw.startswith("+"):
            current["replacement"].append(raw[2:] if raw.startswith("+ ") else raw[1:])
        else:
            errors.append(f"{path}:{number}: expected 'file:', '- ' or '+ ': {raw!r}")
    seen = set()
    for mutant in mutants:
        where = f"{path}:{mutant['line']}: mutant {mutant['id']}"
        if mutant["id"] in seen:
            errors.append(f"{where}: duplicate id")
        seen.add(mutant["id"])
        if not mutant["description"]:
            errors.append(f"{where}: no description")
        if not mutant["file"]:
            errors.append(f"{where}: no 'file:' line")
        if not mutant["original"] or "".join(mutant["original"]).strip() == "":
            errors.append(f"{where}: no original text")
        if not mutant["replacement"]:
            errors.append(f"{where}: no replacement ('+' alone deletes the text)")
        mutant["original"] = "\n".join(mutant["original"])
        mutant["replacement"] = "\n".join(mutant["replacement"])
        if mutant["original"] == mutant["replacement"]:
            errors.append(f"{where}: the replacement equals the original")
    return mutants, errors


def check(mutant):
    """None when the mutant applies exactly once, else why not."""
    path = Path(mutant["file"] or "")
    if not path.is_file():
        return f"mutant {mutant['id']}: no file {path}"
    count = path.read_text(encoding="utf-8").count(mutant["original"])
    if count != 1:
        return (f"mutant {mutant['id']}: the original text occurs {count} times in {path} "
                f"(it must occur exactly once):\n    {mutant['original']!r}")
    return None


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    mutants, errors = parse(argv[1])
    command, rest = argv[2], argv[3:]
    by_id = {m["id"]: m for m in mutants}
    if command == "check":
        errors += [e for e in map(check, mutants) if e]
        for error in errors:
            print(error, file=sys.stderr)
        return 1 if errors else 0
    if errors:
        for error in errors:
            print(error, file=sys.stderr)
        return 1
    if command == "ids":
        unknown = [i for i in rest if i not in by_id]
        if unknown:
            print(f"unknown mutant id(s): {' '.join(unknown)}", file=sys.stderr)
            return 1
        for mutant in mutants:
            if not rest or mutant["id"] in rest:
                print(mutant["id"])
        return 0
    if command in ("describe", "apply") and len(rest) == 1 and rest[0] in by_id:
        mutant = by_id[rest[0]]
        if command == "describe":
            print(f"{mutant['file']}\t{mutant['description']}")
            return 0
        problem = check(mutant)
        if problem:
            print(problem, file=sys.stderr)
            return 1
        path = Path(mutant["file"])
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(mutant["original"], mutant["replacement"], 1), encoding="utf-8")
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
