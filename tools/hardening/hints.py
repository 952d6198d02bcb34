"""Every fix hint Warble prints names a command that exists and works.

Reads the string literals of Sources/**/*.swift for the commands they suggest and checks each:
- `scripts/NAME.sh` and `tools/.../NAME.sh`: the file exists and is executable; an installer named
  with a model id (`tools/whisper/install.sh whisper-base`) is run, and must succeed (it is quiet and
  quick when the model is installed, as the set-up leaves it);
- `warble SUBCOMMAND [--flag]`: `warble SUBCOMMAND --help` succeeds and lists the flag;
- the Whisper ids `warble transcribe` offers are exactly those tools/whisper/install.sh accepts.

Prints "PASS …" / "FAIL …: why" and a closing "N passed, N failed".

    python tools/hardening/hints.py --warble .build/debug/warble
"""

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = re.compile(r"((?:scripts|tools)/[\w./-]+\.sh)(?: ((?:whisper|piper|kokoro)[\w.-]*))?")
# A command, not prose ("the warble module"): quoted, or after "run", "with", "then", "(" or ":".
WARBLE = re.compile(r"(?:`|\brun |\bwith |\bthen |\(|: )warble ((?:speechd |models |bench )?[a-z]+)((?: --[a-z][a-z-]*)*)")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def hints():
    """(file:line, text) for each string literal in the sources that names a command."""
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in files:
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                for literal in LITERAL.findall(line):
                    if "scripts/" in literal or "tools/" in literal or "warble " in literal:
                        found.append((f"{os.path.relpath(path, ROOT)}:{number}", literal))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warble", required=True)
    args = parser.parse_args()
    passed = failed = 0

    def check(ok, name, why=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"PASS {name}")
        else:
            failed += 1
            print(f"FAIL {name}: {why}")

    scripts, installs, commands = {}, {}, {}
    for place, text in hints():
        for script, model in SCRIPT.findall(text):
            scripts.setdefault(script, place)
            if model:
                installs.setdefault((script, model), place)
        for sub, flags in WARBLE.findall(text):
            # "warble serve --max-upload-seconds", "warble speechd install", "warble doctor" …
            key = (sub.strip(), tuple(flags.split()))
            commands.setdefault(key, place)

    for script, place in sorted(scripts.items()):
        path = os.path.join(ROOT, script)
        check(os.path.isfile(path) and os.access(path, os.X_OK), f"{script} exists ({place})", "missing or not executable")
    for (script, model), place in sorted(installs.items()):
        run = subprocess.run([os.path.join(ROOT, script), model], capture_output=True, timeout=1800)
        check(run.returncode == 0, f"{script} {model} works ({place})", run.stderr.decode(errors="replace")[-300:])

    helps = {}
    for (sub, flags), place in sorted(commands.items()):
        words = sub.split()
        if sub not in helps:
            run = subprocess.run([args.warble, *words, "--help"], capture_output=True, timeout=60)
            helps[sub] = (run.returncode, run.stdout.decode(errors="replace"))
        code, text = helps[sub]
        # The help of an unknown subcommand is the top-level one: its usage line does not name it.
        usage = re.search(r"USAGE: (.*)", text)
        known = usage is not None and usage.group(1).startswith("warble " + sub)
        missing = [flag for flag in flags if flag not in text]
        check(code == 0 and known and not missing, f"warble {sub} {' '.join(flags)} exists ({place})".replace("  ", " "),
              f"exit {code}, usage {usage.group(1) if usage else None!r}, flags not in its help: {missing}")

    # The Whisper ids warble transcribe offers for installation are those the installer accepts.
    installer = open(os.path.join(ROOT, "tools/whisper/install.sh"), encoding="utf-8").read()
    usage = re.search(r"usage: tools/whisper/install.sh ([\w.|-]+)", installer).group(1).split("|")
    # SpeechInput.installableRecognizerIDs: the catalogue's pypi entries of the default recogniser's family, then
    # their int8 variants (the catalogue data says which).
    catalogue = json.load(open(os.path.join(ROOT, "Sources/WarbleHub/Catalogue/models.json"), encoding="utf-8"))["models"]
    defaults = json.load(open(os.path.join(ROOT, "Sources/WarbleHub/Catalogue/defaults.json"), encoding="utf-8"))
    family = next(m["family"] for m in catalogue if m["id"] == defaults["recognition"] and m.get("wheels"))
    wheels = [m["id"] for m in catalogue if m.get("wheels") and m["family"] == family]
    offered = wheels + [w + "-int8" for w in wheels]
    check(sorted(usage) == sorted(offered), "warble transcribe offers the ids tools/whisper/install.sh accepts",
          f"installer: {usage}, offered: {offered}")

    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
