#!/usr/bin/env python3
"""Fuses a Kokoro graph's Snake activations and AdaIN blocks into Warble's `ai.warble` operators.

Usage: fuse_kokoro.py SRC.onnx DST.onnx
Used by `warble models pull kokoro-v1.0[:VARIANT]`: prints {"snake": N, "adain": M} on standard
output and writes DST only when it fused something (each fusion computes the same function, so any
number of them is safe; a variant whose export spells the chains otherwise keeps its own graph).
"""
import json
import sys

import onnx

from tools.models import fuse_adain
from tools.models import fuse_snake


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    model = onnx.load(argv[1])
    counts = {"snake": fuse_snake.fuse(model), "adain": fuse_adain.fuse(model)}
    if counts["snake"] + counts["adain"] > 0:
        onnx.save(model, argv[2])
    print(json.dumps(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
