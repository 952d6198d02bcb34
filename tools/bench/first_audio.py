#!/usr/bin/env python3
"""Runs a command that writes audio to standard output and reports, as JSON: the time to the first
audio bytes (past a WAV header when there is one), the whole process's wall time, and its peak
resident memory (from /usr/bin/time).

Usage: first_audio.py [--skip-header] [--max-seconds S] -- COMMAND...
With --max-seconds the command is stopped after S seconds ("truncated": true): the time to first audio
and the peak memory up to then still count; the wall time then is not the whole job's.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time


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
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        # Its own process group, so that stopping it at the cap stops the measured command too
        # (GNU time does not pass signals on).
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss.name] + args,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        first = None
        total = 0
        truncated = False
        if limit is not None:
            def stop() -> None:
                nonlocal truncated
                if process.poll() is None:
                    truncated = True
                    os.killpg(process.pid, signal.SIGTERM)
            timer = threading.Timer(limit, stop)
            timer.start()
        while True:
            block = process.stdout.read1(1 << 16)
            if not block:
                break
            total += len(block)
            if first is None and total > skip:
                first = time.perf_counter() - start
        code = process.wait()
        if limit is not None:
            timer.cancel()
        wall = time.perf_counter() - start
        lines = [line for line in rss.read().strip().splitlines() if line.strip().isdigit()]
        peak_kib = int(lines[-1]) if lines else 0
    print(json.dumps({"first_audio_s": first, "wall_s": wall, "peak_rss_mib": peak_kib / 1024,
                      "audio_bytes": total - skip, "exit": code, "truncated": truncated}))


if __name__ == "__main__":
    main()
