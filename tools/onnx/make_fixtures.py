#!/usr/bin/env python3
"""Synthetic ONNX models for the ONNXRuntime binding's tests and benchmark.

Usage: make_fixtures.py OUTDIR

Every model is tiny and built from the ONNX operator set directly (pinned `onnx`), so the tests
exercise the real ONNX Runtime library on known graphs: each element type in and out, symbolic
and dynamic dimensions, several outputs, a KV-cache-like input fed back from an output, model
metadata, and files that are not ONNX at all. `expected.json` records what the tests check.
"""
import json
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 17)]
IR_VERSION = 8

DTYPES = {
    "f32": TensorProto.FLOAT,
    "f16": TensorProto.FLOAT16,
    "f64": TensorProto.DOUBLE,
    "i64": TensorProto.INT64,
    "i32": TensorProto.INT32,
    "i8": TensorProto.INT8,
    "u8": TensorProto.UINT8,
    "bool": TensorProto.BOOL,
}


def save(model: onnx.ModelProto, path: Path) -> None:
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, str(path))


def element_model(name: str, dtype: int) -> onnx.ModelProto:
    """y = Identity(x) in the same type; f = Cast(x -> float32); n = Shape(x). x has one symbolic dim."""
    x = helper.make_tensor_value_info("x", dtype, ["n"])
    y = helper.make_tensor_value_info("y", dtype, ["n"])
    f = helper.make_tensor_value_info("f", TensorProto.FLOAT, ["n"])
    n = helper.make_tensor_value_info("n", TensorProto.INT64, [1])
    nodes = [
        helper.make_node("Identity", ["x"], ["y"]),
        helper.make_node("Cast", ["x"], ["f"], to=TensorProto.FLOAT),
        helper.make_node("Shape", ["x"], ["n"]),
    ]
    graph = helper.make_graph(nodes, f"element_{name}", [x], [y, f, n])
    return helper.make_model(graph, opset_imports=OPSET, producer_name="warble-fixtures")


def symbolic_model() -> onnx.ModelProto:
    """x f32 [batch, time, 4]: doubled = 2x [batch, time, 4]; total = ReduceSum(x, axis 2) [batch, time]."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "time", 4])
    doubled = helper.make_tensor_value_info("doubled", TensorProto.FLOAT, ["batch", "time", 4])
    total = helper.make_tensor_value_info("total", TensorProto.FLOAT, ["batch", "time"])
    two = numpy_helper.from_array(np.array(2.0, dtype=np.float32), "two")
    axes = numpy_helper.from_array(np.array([2], dtype=np.int64), "axes")
    nodes = [
        helper.make_node("Mul", ["x", "two"], ["doubled"]),
        helper.make_node("ReduceSum", ["x", "axes"], ["total"], keepdims=0),
    ]
    graph = helper.make_graph(nodes, "symbolic", [x], [doubled, total], initializer=[two, axes])
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="warble-fixtures",
                              producer_version="1.0", doc_string="symbolic dimensions")
    helper.set_model_props(model, {"purpose": "binding tests", "sample_rate": "22050"})
    model.graph.doc_string = "a graph with symbolic dimensions"
    return model


def unnamed_dims_model() -> onnx.ModelProto:
    """x f32 [?, 3] with an unnamed dynamic dim -> y = x + 1."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 3])
    one = numpy_helper.from_array(np.array(1.0, dtype=np.float32), "one")
    graph = helper.make_graph([helper.make_node("Add", ["x", "one"], ["y"])], "unnamed", [x], [y],
                              initializer=[one])
    return helper.make_model(graph, opset_imports=OPSET, producer_name="warble-fixtures")


def kv_cache_model(dtype: int, name: str) -> onnx.ModelProto:
    """A cache that grows by one step per run, like a decoder's KV cache.

    token [1, 1, 8], past [1, past_len, 8] -> present = Concat(past, token) [1, past_len + 1, 8],
    mean = ReduceMean(present over time) [1, 8].
    """
    token = helper.make_tensor_value_info("token", dtype, [1, 1, 8])
    past = helper.make_tensor_value_info("past", dtype, [1, "past_len", 8])
    present = helper.make_tensor_value_info("present", dtype, [1, "total_len", 8])
    mean = helper.make_tensor_value_info("mean", dtype, [1, 8])
    axes = numpy_helper.from_array(np.array([1], dtype=np.int64), "axes")
    nodes = [
        helper.make_node("Concat", ["past", "token"], ["present"], axis=1),
        helper.make_node("ReduceMean", ["present", "axes"], ["mean"], keepdims=0),
    ]
    graph = helper.make_graph(nodes, name, [token, past], [present, mean], initializer=[axes])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)],
                             producer_name="warble-fixtures")


def tiny_linear_model() -> onnx.ModelProto:
    """The benchmark model: y = x @ W + b with x [1, 16]; small enough that Run's overhead dominates."""
    rng = np.random.default_rng(7)
    w = numpy_helper.from_array(rng.standard_normal((16, 16)).astype(np.float32), "W")
    b = numpy_helper.from_array(rng.standard_normal(16).astype(np.float32), "b")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])
    graph = helper.make_graph([helper.make_node("Gemm", ["x", "W", "b"], ["y"])], "tiny_linear",
                              [x], [y], initializer=[w, b])
    return helper.make_model(graph, opset_imports=OPSET, producer_name="warble-fixtures")


def snake_models() -> tuple[onnx.ModelProto, onnx.ModelProto, onnx.ModelProto]:
    """A Snake activation as exporters write it (Mul, Sin, Pow, Mul, Add; x [1, 4, 1000]), the same
    after tools/models/fuse_snake.py, and a fused node whose alpha has one value too many."""
    from tools.models.fuse_snake import DOMAIN, fuse

    rng = np.random.default_rng(11)
    alpha = (rng.uniform(0.3, 2.0, (1, 4, 1))).astype(np.float32)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, "time"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, "time"])
    inits = [numpy_helper.from_array(alpha, "alpha"), numpy_helper.from_array(1 / alpha, "scale"),
             numpy_helper.from_array(np.array(2.0, np.float32), "two")]
    nodes = [helper.make_node("Mul", ["alpha", "x"], ["ax"]), helper.make_node("Sin", ["ax"], ["s"]),
             helper.make_node("Pow", ["s", "two"], ["s2"]), helper.make_node("Mul", ["scale", "s2"], ["t"]),
             helper.make_node("Add", ["x", "t"], ["y"])]
    unfused = helper.make_model(helper.make_graph(nodes, "snake", [x], [y], initializer=inits),
                                opset_imports=OPSET, producer_name="warble-fixtures")
    fused = onnx.ModelProto()
    fused.CopyFrom(unfused)
    if fuse(fused) != 1:
        raise SystemExit("make_fixtures: fuse_snake did not fuse the Snake fixture")
    bad = onnx.ModelProto()
    bad.CopyFrom(fused)
    bad.graph.initializer.append(numpy_helper.from_array(np.ones(5, np.float32), "alpha5"))
    bad.graph.node[0].input[1] = "alpha5"
    if not any(o.domain == DOMAIN for o in fused.opset_import):
        raise SystemExit("make_fixtures: the fused Snake fixture lacks the ai.warble opset")
    return unfused, fused, bad


def adain_models() -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """An AdaIN block as StyleTTS 2 exports it (ReduceMean, Sub, Mul, ReduceMean, Add eps, Sqrt, Div,
    Mul scale, Add shift; x [1, 3, time], scale and shift [1, 3, 1] as inputs), and the same after
    tools/models/fuse_adain.py."""
    from tools.models.fuse_adain import fuse

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, "time"])
    scale = helper.make_tensor_value_info("scale", TensorProto.FLOAT, [1, 3, 1])
    shift = helper.make_tensor_value_info("shift", TensorProto.FLOAT, [1, 3, 1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, "time"])
    inits = [numpy_helper.from_array(np.array([2], np.int64), "axes"),
             numpy_helper.from_array(np.array(1e-5, np.float32), "eps")]
    nodes = [helper.make_node("ReduceMean", ["x", "axes"], ["m"], keepdims=1),
             helper.make_node("Sub", ["x", "m"], ["d"]), helper.make_node("Mul", ["d", "d"], ["d2"]),
             helper.make_node("ReduceMean", ["d2", "axes"], ["v"], keepdims=1),
             helper.make_node("Add", ["v", "eps"], ["ve"]), helper.make_node("Sqrt", ["ve"], ["s"]),
             helper.make_node("Div", ["d", "s"], ["n"]), helper.make_node("Mul", ["scale", "n"], ["t"]),
             helper.make_node("Add", ["t", "shift"], ["y"])]
    unfused = helper.make_model(helper.make_graph(nodes, "adain", [x, scale, shift], [y], initializer=inits),
                                opset_imports=[helper.make_opsetid("", 18)], producer_name="warble-fixtures")
    fused = onnx.ModelProto()
    fused.CopyFrom(unfused)
    if fuse(fused) != 1:
        raise SystemExit("make_fixtures: fuse_adain did not fuse the AdaIN fixture")
    return unfused, fused


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, dtype in DTYPES.items():
        save(element_model(name, dtype), out / f"element_{name}.onnx")
    save(symbolic_model(), out / "symbolic.onnx")
    save(unnamed_dims_model(), out / "unnamed_dims.onnx")
    save(kv_cache_model(TensorProto.FLOAT, "kv_cache_f32"), out / "kv_cache_f32.onnx")
    save(kv_cache_model(TensorProto.FLOAT16, "kv_cache_f16"), out / "kv_cache_f16.onnx")
    save(tiny_linear_model(), out / "tiny_linear.onnx")
    unfused, fused, bad = snake_models()
    save(unfused, out / "snake_unfused.onnx")
    unfused_adain, fused_adain = adain_models()
    save(unfused_adain, out / "adain_unfused.onnx")
    for model, name in ((fused, "snake_fused.onnx"), (bad, "snake_bad_alpha.onnx"), (fused_adain, "adain_fused.onnx")):
        model.ir_version = IR_VERSION  # the checker knows no schema for ai.warble's Snake
        onnx.save(model, str(out / name))

    (out / "not_onnx.onnx").write_text("this is a text file, not an ONNX protobuf\n")
    whole = (out / "symbolic.onnx").read_bytes()
    (out / "truncated.onnx").write_bytes(whole[: len(whole) // 2])

    expected = {
        "symbolic": {
            "producer": "warble-fixtures",
            "producer_version": "1.0",
            "graph_name": "symbolic",
            "custom_metadata": {"purpose": "binding tests", "sample_rate": "22050"},
        },
        "tiny_linear": {
            "x": [float(v) for v in np.linspace(-1, 1, 16, dtype=np.float32)],
        },
    }
    # Reference output of the benchmark model, computed by numpy, for a correctness check.
    model = onnx.load(str(out / "tiny_linear.onnx"))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    x = np.linspace(-1, 1, 16, dtype=np.float32)[None, :]
    expected["tiny_linear"]["y"] = [float(v) for v in (x @ weights["W"] + weights["b"])[0]]
    (out / "expected.json").write_text(json.dumps(expected, indent=2))
    print(f"wrote ONNX fixtures to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
