#!/usr/bin/env python3
"""Rewrites a model's AdaIN blocks (instance norm with a per-channel affine) into `ai.warble` AdaIN nodes.

    fuse_adain.py SRC.onnx DST.onnx

StyleTTS 2 / Kokoro's decoder normalises each channel over time and applies a style-dependent scale
and shift, exported as ReduceMean, Sub, Mul, ReduceMean, Add(eps), Sqrt, Div, Mul(scale), Add(shift):
seven passes over the tensor. Warble's AdaIN kernel (Sources/CONNXRuntime/WarbleCustomOps.c) takes
three. Only chains whose reductions run over the last axis of a 3-D tensor with keepdims, whose eps is a
constant scalar and whose intermediate values have no other consumers are rewritten. Prints how many
were fused (exit 1 when none).
"""

from __future__ import annotations

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

from tools.models import graph_rewrite
from tools.models.graph_rewrite import DOMAIN


def fuse(model: onnx.ModelProto) -> int:
    graph = model.graph
    index = graph_rewrite.GraphIndex(graph)
    inits, constant, users, only = index.inits, index.constant, index.users, index.only

    def last_axis_mean(node) -> bool:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        axes = constant(node.input[1]) if len(node.input) > 1 else np.asarray(attrs.get("axes", []))
        return (axes is not None and [int(a) for a in np.ravel(axes)] in ([2], [-1])
                and attrs.get("keepdims", 1) == 1)

    chains = []
    for mean in [n for n in graph.node if n.op_type == "ReduceMean"]:
        x = mean.input[0]
        sub = only(mean.output[0], "Sub")
        if not last_axis_mean(mean) or sub is None or list(sub.input) != [x, mean.output[0]]:
            continue
        d = sub.output[0]
        d_users = users(d)
        square = next((u for u in d_users if u.op_type == "Mul" and list(u.input) == [d, d]), None)
        div = next((u for u in d_users if u.op_type == "Div" and u.input[0] == d), None)
        if square is None or div is None or len(d_users) != 2:
            continue
        var = only(square.output[0], "ReduceMean")
        if var is None or not last_axis_mean(var):
            continue
        add_eps = only(var.output[0], "Add")
        eps_name = next((i for i in add_eps.input if i != var.output[0]), None) if add_eps else None
        eps = constant(eps_name) if eps_name else None
        if eps is None or eps.size != 1 or eps.dtype != np.float32:
            continue
        sqrt = only(add_eps.output[0], "Sqrt")
        if sqrt is None or only(sqrt.output[0], "Div") is not div or div.input[1] != sqrt.output[0]:
            continue
        scale_mul = only(div.output[0], "Mul")
        scale = next((i for i in scale_mul.input if i != div.output[0]), None) if scale_mul else None
        shift_add = only(scale_mul.output[0], "Add") if scale_mul else None
        shift = next((i for i in shift_add.input if i != scale_mul.output[0]), None) if shift_add else None
        if scale is None or shift is None:
            continue
        scalar_eps = eps_name + "/scalar"
        if scalar_eps not in inits:
            tensor = numpy_helper.from_array(np.asarray(eps, np.float32).reshape(()), scalar_eps)
            graph.initializer.append(tensor)
            inits[scalar_eps] = tensor
        node = helper.make_node("AdaIN", [x, scale, shift, scalar_eps], [shift_add.output[0]],
                                name=(shift_add.name or shift_add.output[0]) + "/warble_adain", domain=DOMAIN)
        chains.append(([mean, sub, square, var, add_eps, sqrt, div, scale_mul, shift_add], node))
    return graph_rewrite.replace_chains(model, chains)


def main(argv: list[str]) -> int:
    return graph_rewrite.main(argv, fuse, "fuse_adain", "AdaIN blocks", __doc__.strip().splitlines()[2].strip())


if __name__ == "__main__":
    sys.exit(main(sys.argv))
