#!/usr/bin/env python3
"""Rewrites a model's Snake activations into single `ai.warble` Snake nodes.

    fuse_snake.py SRC.onnx DST.onnx

HiFi-GAN / iSTFTNet generators (Kokoro's decoder) apply y = x + (1 / a) * sin(a * x)^2 per channel,
exported as Mul(a, x) -> Sin -> Pow(2) -> Mul(1 / a) -> Add(x): five passes over the largest tensors
of the model, one of them ONNX Runtime's unvectorised Sin (about 16 % of a Kokoro run). Warble's
Snake kernel (Sources/CONNXRuntime/WarbleCustomOps.c, registered by ONNXRuntime.SessionOptions
.warbleOperators) does it in one pass. Only chains whose a and 1 / a are constant per-channel
tensors ([1, C, 1] or [C]) with no other consumers of the intermediate values are rewritten; the
rest of the graph is unchanged. Prints how many were fused (exit 1 when none).
"""

from __future__ import annotations

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

from tools.models import graph_rewrite
from tools.models.graph_rewrite import DOMAIN


def per_channel(inits: dict, name: str) -> np.ndarray | None:
    if name not in inits:
        return None
    value = numpy_helper.to_array(inits[name])
    if value.dtype != np.float32 or value.ndim not in (1, 3) or (value.ndim == 3 and value.shape[::2] != (1, 1)):
        return None
    return value


def fuse(model: onnx.ModelProto) -> int:
    graph = model.graph
    index = graph_rewrite.GraphIndex(graph)
    inits, producer, only = index.inits, index.producer, index.only
    chains = []
    for sin in [n for n in graph.node if n.op_type == "Sin"]:
        scale_in = producer.get(sin.input[0])
        if scale_in is None or scale_in.op_type != "Mul" or only(sin.input[0], "Sin") is None:
            continue
        alpha_name = next((i for i in scale_in.input if per_channel(inits, i) is not None), None)
        x = next((i for i in scale_in.input if i != alpha_name), None)
        pow_node = only(sin.output[0], "Pow")
        if alpha_name is None or x is None or pow_node is None:
            continue
        exponent = index.constant(pow_node.input[1])
        if exponent is None or exponent.size != 1 or float(exponent) != 2.0:
            continue
        scale_mul = only(pow_node.output[0], "Mul")
        if scale_mul is None:
            continue
        scale_name = next((i for i in scale_mul.input if i != pow_node.output[0]), None)
        add = only(scale_mul.output[0], "Add")
        if scale_name is None or per_channel(inits, scale_name) is None or add is None or x not in add.input:
            continue
        alpha, scale = per_channel(inits, alpha_name), per_channel(inits, scale_name)
        if alpha.size != scale.size:
            continue
        snake = helper.make_node("Snake", [x, alpha_name, scale_name], [add.output[0]],
                                 name=(add.name or add.output[0]) + "/warble_snake", domain=DOMAIN)
        chains.append(([scale_in, sin, pow_node, scale_mul, add], snake))
    return graph_rewrite.replace_chains(model, chains)


def main(argv: list[str]) -> int:
    return graph_rewrite.main(argv, fuse, "fuse_snake", "Snake activations", __doc__.strip().splitlines()[2].strip())


if __name__ == "__main__":
    sys.exit(main(sys.argv))
