"""How many threads a fixture maker's reference engine may use.

tools/fixtures/make_all.py runs makers side by side and sets WARBLE_FIXTURE_THREADS to each one's share of the
cores (with OMP_NUM_THREADS, and OMP_WAIT_POLICY=PASSIVE so that an idle OpenMP thread sleeps instead of spinning
on a core the other maker needs); a maker run by hand uses `default`.
"""
import os


def maker_threads(default: int = 2) -> int:
    value = os.environ.get("WARBLE_FIXTURE_THREADS", "")
    return int(value) if value.isdigit() and int(value) > 0 else default
