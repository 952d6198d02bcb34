#!/usr/bin/env python3
"""Checks the package's layers (Docs/Architecture.md) from `swift package describe`:
- WarbleSpeech (the vocabulary), WarbleServer and WarbleSpeechd (the adapters) depend, directly or
  through other targets, on no model backend: not ONNXRuntime, CONNXRuntime, WarbleModels or WarbleEngine;
- the core library (WarbleSpeech, WarbleModels, WarbleEngine, WarbleServer, WarbleSpeechd) never
  depends on WarblePhonemes (espeak-ng, GPL-3);
- in Sources/, only ONNXRuntime itself, the model families (WarbleModels) and the engine import ONNXRuntime;
- no executable imports WarbleModels (a family's benchmark is its own, reached through the engine);
- no family's name in a Swift string literal outside its own folder and the catalogue data (family_strings.py).
Prints one line per check and exits 1 when one fails. Usage: tools/layers/check_layers.py [PACKAGE_DIR]"""
import json
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=root,
                                      check=True, capture_output=True, text=True).stdout)
targets = {t["name"]: t for t in described["targets"]}


def closure(name):
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        for dependency in targets.get(current, {}).get("target_dependencies", []):
            if dependency not in seen:
                seen.add(dependency)
                todo.append(dependency)
    return seen


failures = 0


def check(ok, message):
    global failures
    print(("ok    " if ok else "FAIL  ") + message)
    failures += 0 if ok else 1


backends = {"ONNXRuntime", "CONNXRuntime", "CWarbleOperators", "WarbleModels", "WarbleEngine"}
for adapter in ["WarbleSpeech", "WarbleServer", "WarbleSpeechd"]:
    found = closure(adapter) & backends
    check(adapter in targets and not found, f"{adapter} depends on no model backend" + (f" (it reaches {sorted(found)})" if found else ""))
for core in ["WarbleSpeech", "WarbleModels", "WarbleEngine", "WarbleServer", "WarbleSpeechd"]:
    check("WarblePhonemes" not in closure(core), f"{core} does not link WarblePhonemes (GPL-3)")

allowed = {"ONNXRuntime", "WarbleModels", "WarbleEngine"}
importers = sorted({path.relative_to(root / "Sources").parts[0]
                    for path in (root / "Sources").rglob("*.swift")
                    if re.search(r"^\s*(@testable\s+)?import\s+ONNXRuntime\b", path.read_text(), re.M)})
check(set(importers) <= allowed, f"only {sorted(allowed)} import ONNXRuntime (importers: {importers})")

# Executables speak to the engine, never to the families themselves (a family's stage benchmark is reached
# through RuntimeDiagnostics.benchStages).
executables = [t["name"] for t in described["targets"] if t.get("type") == "executable"]
models_importers = sorted(str(path.relative_to(root / "Sources"))
                          for name in executables
                          for path in (root / "Sources" / targets[name].get("path", name).removeprefix("Sources/")).rglob("*.swift")
                          if re.search(r"^\s*(@testable\s+)?import\s+WarbleModels\b", path.read_text(), re.M))
check(executables and not models_importers, f"no executable imports WarbleModels (found: {models_importers or 'none'})")

import collections  # noqa: E402

import family_strings  # noqa: E402 (beside this file)

# The names still waiting to move behind the families' hooks (family_strings_left.txt): nothing new, and the counts
# exact, so that the list only shrinks.
left = collections.Counter()
for line in (pathlib.Path(__file__).with_name("family_strings_left.txt")).read_text().splitlines():
    if line.strip() and not line.startswith("#"):
        path, name, count = line.split()
        left[(path, name)] = int(count)
misplaced = family_strings.offending(root)
found = collections.Counter((path, name) for path, _, name, _ in misplaced)
new = [(path, line, name, text) for path, line, name, text in misplaced if found[(path, name)] > left[(path, name)]]
stale = sorted(f"{path} {name}: listed {count}, found {found[(path, name)]}" for (path, name), count in left.items()
               if found[(path, name)] < count)
check(not new and not stale, "no family name in a string literal outside its family's folder and the catalogue data "
      + f"(but the {sum(left.values())} listed in family_strings_left.txt)"
      + "".join(f"\n      {path}:{line}: {name}: {text}" for path, line, name, text in new)
      + "".join(f"\n      lower the count in family_strings_left.txt: {entry}" for entry in stale))

sys.exit(1 if failures else 0)
