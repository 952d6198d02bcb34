#!/usr/bin/env python3
"""Per-run cost of Python onnxruntime on a small float model, for comparison with `warble bench onnx`.

Usage: onnx_overhead.py MODEL [--runs N] [--repeats N] [--threads N]. Prints one JSON line.
The same work as the Swift side: an input array, session.run, outputs back as numpy arrays.
"""
import argparse
import json
import time

import numpy as np
import onnxruntime as ort


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--runs", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(args.model, options, providers=["CPUExecutionProvider"])
    feeds = {}
    for inp in session.get_inputs():
        shape = [d if isinstance(d, int) else 1 for d in inp.shape]
        count = int(np.prod(shape))
        feeds[inp.name] = ((np.arange(count) % 7) * 0.25).astype(np.float32).reshape(shape)

    def once() -> float:
        return sum(float(o.flat[0]) for o in session.run(None, feeds))

    for _ in range(1_000):
        once()
    per_run = []
    sink = 0.0
    for _ in range(args.repeats):
        start = time.perf_counter()
        for _ in range(args.runs):
            sink += once()
        per_run.append((time.perf_counter() - start) / args.runs)
    per_run.sort()
    print(json.dumps({"impl": "python", "onnxruntime": ort.__version__, "runs": args.runs, "repeats": args.repeats,
                      "median_us_per_run": per_run[len(per_run) // 2] * 1e6, "checksum": np.isfinite(sink).item()}))


if __name__ == "__main__":
    main()
