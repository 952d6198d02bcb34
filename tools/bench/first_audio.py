#!/usr/bin/env python3
"""Runs a command that writes audio to standard output and reports, as JSON: the time to the first
audio bytes (past a WAV header when there is one), the whole process's wall time, and its peak
resident memory (VmHWM from /proc, sampled every 50 ms while it runs).

Usage: first_audio.py [--skip-header] [--max-seconds S] -- COMMAND...
With --max-seconds the command is stopped after S seconds ("truncated": true): the time to first audio
and the peak memory up to then still count; the wall time then is not the whole job's.
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time


def peak_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> None:
    args = sys.argv[1:]
    skip = 44 if args and args[0] == "--skip-header" else 0
    if skip:
        args = args[1:]
    limit = None
    if args and args[0] == "--max-seconds":
        limit, args = float(args[1]), args[2:]
    if args and args[0] == "--":
        args = args[1:]
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    peak = 0
    truncated = False
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, truncated
        while not done.wait(0.05):
            peak = max(peak, peak_kib(process.pid))
            if limit is not None and time.perf_counter() - start > limit and process.poll() is None:
                truncated = True
                os.killpg(process.pid, signal.SIGTERM)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    first = None
    total = 0
    while True:
        block = process.stdout.read1(1 << 16)
        if not block:
            break
        total += len(block)
        if first is None and total > skip:
            first = time.perf_counter() - start
    peak = max(peak, peak_kib(process.pid))
    code = process.wait()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    print(json.dumps({"first_audio_s": first, "wall_s": wall, "peak_rss_mib": peak / 1024,
                      "audio_bytes": total - skip, "exit": code, "truncated": truncated}))


if __name__ == "__main__":
    main()
