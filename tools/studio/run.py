"""Runs Warble Studio's browser tests (tools/studio/test_*.py) against one `warble serve` and one Chromium:
each module's `run(studio)` in order (speak and voices first: history lists their sessions), a module without
one as its own process attached to the same server (WARBLE_STUDIO_URL, WARBLE_STUDIO_KEY). Prints one line per
check, the seconds each module took, and "studio: N passed, N failed"."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
from pathlib import Path

from tools.studio.harness import Studio

FIRST = ["test_speak", "test_voices", "test_history", "test_bad_input", "test_keyboard"]


def main() -> int:
    here = Path(__file__).parent
    names = [p.stem for p in sorted(here.glob("test_*.py"))]
    only = sys.argv[1:]
    order = [n for n in FIRST if n in names] + [n for n in names if n not in FIRST]
    if only:
        order = [n for n in order if n in only]
    started = time.monotonic()
    with Studio() as studio:
        print(f"studio: {studio.url} (screenshots in {studio.shots})", flush=True)
        for name in order:
            began = time.monotonic()
            module = importlib.import_module(f"tools.studio.{name}")
            if hasattr(module, "run"):
                try:
                    module.run(studio)
                except Exception as error:
                    studio.check(False, f"{name}: {type(error).__name__}: {error}")
            else:
                env = dict(os.environ, WARBLE_STUDIO_URL=studio.url, WARBLE_STUDIO_KEY=studio.key)
                done = subprocess.run([sys.executable, str(here / f"{name}.py")], env=env)
                studio.check(done.returncode == 0, f"{name}.py exited {done.returncode}")
            print(f"     {name}: {time.monotonic() - began:.1f} s", flush=True)
        if studio.failed and studio.log:
            print("--- server log (last 40 lines) ---")
            print("\n".join(studio.log.read_text(errors="replace").splitlines()[-40:]))
    print(f"studio: {studio.passed} passed, {studio.failed} failed ({time.monotonic() - started:.1f} s)")
    return 1 if studio.failed else 0


if __name__ == "__main__":
    sys.exit(main())
