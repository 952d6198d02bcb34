#!/usr/bin/env python3
"""Sums an ONNX Runtime profile by operator type: where a model's time goes.

    WARBLE_ORT_PROFILE=/tmp/prof warble say -q -o /tmp/x.wav --voice kokoro-jf_alpha "Some text."
    tools/bench/ort_profile.py /tmp/prof_*.json [--top 15]

Every `warble` command honours WARBLE_ORT_PROFILE=PREFIX: each ONNX Runtime session it creates writes
PREFIX_<pid>-<n>_<date>.json (Chrome trace format; n numbers the process's sessions) when it is released (a session still open when the process
ends leaves its file empty). Prints, per file, the runs, the time
inside Run and the kernels' time by operator type, largest first.
"""
import argparse
import collections
import json


def summarise(path: str, top: int) -> None:
    text = open(path).read()
    if not text.strip():
        # ONNX Runtime opens the file with the session and fills it on release: a session still open
        # when the process ended (the engine keeps its models loaded) leaves it empty.
        print(f"{path}: empty (its session was not released before the process ended)")
        return
    events = json.loads(text)
    by_op: collections.Counter[str] = collections.Counter()
    runs = run_us = 0
    for event in events:
        if event.get("cat") == "Node" and event.get("name", "").endswith("_kernel_time"):
            by_op[event.get("args", {}).get("op_name", "?")] += event["dur"]
        elif event.get("cat") == "Session" and event.get("name") == "model_run":
            runs += 1
            run_us += event["dur"]
    kernels = sum(by_op.values()) or 1
    print(f"{path}: {runs} runs, {run_us / 1000:.1f} ms in Run, {kernels / 1000:.1f} ms in kernels")
    for op, us in by_op.most_common(top):
        print(f"  {op:28s} {us / 1000:9.1f} ms {100 * us / kernels:5.1f} %")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profiles", nargs="+")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    for path in args.profiles:
        summarise(path, args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
