#!/usr/bin/env python3
"""Synthetic decoder graphs for the decoding kit's KV-cache tests (Tests/WarbleModelsTests/KVCacheLayoutTests).

Usage: make_fixtures.py OUTDIR

Each graph takes a decoder-only LM's step inputs and returns its cache the way real exports do, so
the tests drive the real ONNX Runtime through several steps:
- perlayer_{f32,f16}.onnx: input_ids i64[batch, seq], attention_mask i64[batch, total],
  position_ids i64[batch, seq], past_key_values.{0,1}.{key,value} T[batch, 2, past, 4] →
  logits f32[batch, seq, 5] and present.{0,1}.{key,value} T[batch, 2, past + seq, 4]
  (Hugging Face's names; Chatterbox's layout at a toy size).
- stacked_{f32,f16}.onnx: the same steps with one cache tensor past_key_values T[4, batch, 2, past, 3]
  → present_key_values (CosyVoice's stacked layout at a toy size).
What they compute (the tests check it): every new cache row is the token id as T (+ layer for keys,
+ 10 + layer for values); logits[b, s, v] = position_ids[b, s] + 1000 · Σ attention_mask[b] +
Σ present.0.key[b] (per-layer) or Σ present_key_values[0, b] (stacked), the same for every v.
"""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]
IR_VERSION = 8
TYPES = {"f32": (TensorProto.FLOAT, np.float32), "f16": (TensorProto.FLOAT16, np.float16)}
VOCAB = 5


def const(name, array):
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(array, name + "_value"))


def common_logits(nodes, cache_sum):
    """logits = position + 1000 * mask total + cache_sum ([batch, 1, 1] f32), broadcast over VOCAB."""
    nodes += [
        helper.make_node("Cast", ["position_ids"], ["pos_f"], to=TensorProto.FLOAT),
        const("axis2", np.array([2], dtype=np.int64)),
        helper.make_node("Unsqueeze", ["pos_f", "axis2"], ["pos3"]),
        const("axis1", np.array([1], dtype=np.int64)),
        helper.make_node("ReduceSum", ["attention_mask", "axis1"], ["mask_total"], keepdims=1),
        helper.make_node("Cast", ["mask_total"], ["mask_f"], to=TensorProto.FLOAT),
        const("thousand", np.array(1000, dtype=np.float32)),
        helper.make_node("Mul", ["mask_f", "thousand"], ["mask_scaled"]),
        helper.make_node("Unsqueeze", ["mask_scaled", "axis2"], ["mask3"]),
        helper.make_node("Add", ["pos3", "mask3"], ["a"]),
        helper.make_node("Add", ["a", cache_sum], ["b"]),
        const("ones_vocab", np.ones([1, 1, VOCAB], dtype=np.float32)),
        helper.make_node("Mul", ["b", "ones_vocab"], ["logits"]),
    ]


def step_inputs():
    return [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "total"]),
        helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["batch", "seq"]),
    ]


def per_layer(kind):
    onnx_type, np_type = TYPES[kind]
    nodes = [
        helper.make_node("Cast", ["input_ids"], ["ids_t"], to=onnx_type),
        const("shape4", np.array([0, 1, -1, 1], dtype=np.int64)),
        helper.make_node("Reshape", ["ids_t", "shape4"], ["ids4"], allowzero=0),
        const("ones_kv", np.ones([1, 2, 1, 4], dtype=np_type)),
        helper.make_node("Mul", ["ids4", "ones_kv"], ["rows"]),
    ]
    inputs, outputs = step_inputs(), [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "seq", VOCAB])]
    for layer in range(2):
        for which, offset in (("key", layer), ("value", 10 + layer)):
            past, present = f"past_key_values.{layer}.{which}", f"present.{layer}.{which}"
            inputs.append(helper.make_tensor_value_info(past, onnx_type, ["batch", 2, "past", 4]))
            outputs.append(helper.make_tensor_value_info(present, onnx_type, ["batch", 2, "total", 4]))
            nodes += [
                const(f"off_{layer}_{which}", np.array(offset, dtype=np_type)),
                helper.make_node("Add", ["rows", f"off_{layer}_{which}"], [f"new_{layer}_{which}"]),
                helper.make_node("Concat", [past, f"new_{layer}_{which}"], [present], axis=2),
            ]
    nodes += [
        helper.make_node("Cast", ["present.0.key"], ["k0_f"], to=TensorProto.FLOAT),
        const("axes123", np.array([1, 2, 3], dtype=np.int64)),
        helper.make_node("ReduceSum", ["k0_f", "axes123"], ["k0_sum"], keepdims=1),
        const("shape_b11", np.array([-1, 1, 1], dtype=np.int64)),
        helper.make_node("Reshape", ["k0_sum", "shape_b11"], ["cache_sum"]),
    ]
    common_logits(nodes, "cache_sum")
    return helper.make_model(helper.make_graph(nodes, f"perlayer_{kind}", inputs, outputs), opset_imports=OPSET)


def stacked(kind):
    onnx_type, np_type = TYPES[kind]
    nodes = [
        helper.make_node("Cast", ["input_ids"], ["ids_t"], to=onnx_type),
        const("axes024", np.array([0, 2, 4], dtype=np.int64)),
        helper.make_node("Unsqueeze", ["ids_t", "axes024"], ["ids5"]),
        const("ones_kv", np.ones([4, 1, 2, 1, 3], dtype=np_type)),
        helper.make_node("Mul", ["ids5", "ones_kv"], ["new"]),
        helper.make_node("Concat", ["past_key_values", "new"], ["present_key_values"], axis=3),
        helper.make_node("Cast", ["present_key_values"], ["kv_f"], to=TensorProto.FLOAT),
        const("start0", np.array([0], dtype=np.int64)),
        const("end1", np.array([1], dtype=np.int64)),
        const("axis0", np.array([0], dtype=np.int64)),
        helper.make_node("Slice", ["kv_f", "start0", "end1", "axis0"], ["layer0"]),
        const("axes0234", np.array([0, 2, 3, 4], dtype=np.int64)),
        helper.make_node("ReduceSum", ["layer0", "axes0234"], ["kv_sum"], keepdims=1),
        const("shape_b11", np.array([-1, 1, 1], dtype=np.int64)),
        helper.make_node("Reshape", ["kv_sum", "shape_b11"], ["cache_sum"]),
    ]
    common_logits(nodes, "cache_sum")
    inputs = step_inputs() + [helper.make_tensor_value_info("past_key_values", onnx_type, [4, "batch", 2, "past", 3])]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "seq", VOCAB]),
               helper.make_tensor_value_info("present_key_values", onnx_type, [4, "batch", 2, "total", 3])]
    return helper.make_model(helper.make_graph(nodes, f"stacked_{kind}", inputs, outputs), opset_imports=OPSET)


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for kind in TYPES:
        for name, make in (("perlayer", per_layer), ("stacked", stacked)):
            model = make(kind)
            model.ir_version = IR_VERSION
            onnx.checker.check_model(model, full_check=True)
            onnx.save(model, str(out / f"{name}_{kind}.onnx"))
    print(f"wrote the decoding graphs to {out}")


if __name__ == "__main__":
    main()
