#!/usr/bin/env python3
"""Widens CosyVoice 3's fp16 graphs to f32 in place, on pull (`warble models pull cosyvoice3`).

On x86 CPUs ONNX Runtime has no f16 kernels for most of these operators: it casts the f16 weights and
activations to f32 and back around every one, so the fp16 files run slower than the fp32 ones
(scripts/bench-cosyvoice3.sh: 97 against 89 ms a token, real-time factor 5.5 against 5.3). Widening
keeps the download at half the size and runs as fast as the fp32 files: every f16 initializer and
constant becomes f32, every Cast to f16 becomes a Cast to f32 (which ONNX Runtime then drops), and
every f16 input, output and value_info becomes f32 (the KV cache included: the pipeline reads each
element type from the session). The values are the f16 values exactly (f16 → f32 is lossless).

    widen_fp16.py DIRECTORY FILE...     prints {"widened": [...], "unchanged": [...]} as JSON
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

F16, F32 = TensorProto.FLOAT16, TensorProto.FLOAT


def widen_tensor(tensor):
    if tensor.data_type != F16:
        return False
    wide = numpy_helper.from_array(numpy_helper.to_array(tensor).astype(np.float32), tensor.name)
    tensor.CopyFrom(wide)
    return True


def widen_graph(graph):
    changed = 0
    for tensor in graph.initializer:
        changed += widen_tensor(tensor)
    for value in list(graph.input) + list(graph.output) + list(graph.value_info):
        kind = value.type.tensor_type
        if kind.elem_type == F16:
            kind.elem_type = F32
            changed += 1
    for node in graph.node:
        for attribute in node.attribute:
            if node.op_type == "Cast" and attribute.name == "to" and attribute.i == F16:
                attribute.i = F32
                changed += 1
            elif attribute.type == onnx.AttributeProto.TENSOR:
                changed += widen_tensor(attribute.t)
            elif attribute.type == onnx.AttributeProto.GRAPH:
                changed += widen_graph(attribute.g)
            elif attribute.type == onnx.AttributeProto.GRAPHS:
                changed += sum(widen_graph(g) for g in attribute.graphs)
    return changed


def widen(path):
    model = onnx.load(path)
    if not widen_graph(model.graph):
        return False
    temporary = path + ".widening"
    if model.ByteSize() > 1_900_000_000:
        onnx.save(model, temporary, save_as_external_data=True, location=os.path.basename(path) + ".data")
    else:
        onnx.save(model, temporary)
    os.replace(temporary, path)
    return True


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    directory, names = sys.argv[1], sys.argv[2:]
    report = {"widened": [], "unchanged": []}
    for name in names:
        report["widened" if widen(os.path.join(directory, name)) else "unchanged"].append(name)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
