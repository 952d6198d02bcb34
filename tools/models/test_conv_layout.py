#!/usr/bin/env python3
"""Checks conv_layout.py on a small HiFi-GAN-shaped graph with random weights (the shape of Piper's decoder:
Conv, ConvTranspose, residual blocks of LeakyRelu -> Conv -> Add, their sum divided by a constant):

- graph_to_4d, then keep_blocked, give the 1-D graph's output within float noise (1e-5 relative to the
  output's peak), at two input lengths;
- after keep_blocked, ONNX Runtime's optimised graph (CPU, all optimisations) has no Div, no LeakyRelu
  outside a convolution and at most two reorders a transposed convolution plus the graph's input and
  output (without it: a reorder pair around every convolution of the residual blocks);
- a Div whose output has another reader is left alone, and a graph refused by graph_to_4d stays refused.

Usage: .venv/bin/python tools/models/test_conv_layout.py   (exit 0 when every check holds)
"""
import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools.models.conv_layout import graph_to_4d, keep_blocked  # noqa: E402

RNG = np.random.default_rng(7)


def weight(name, *shape):
    return numpy_helper.from_array((RNG.standard_normal(shape) * 0.1).astype(np.float32), name)


def hifigan(extra_div_reader=False):
    """x [1, 32, T] -> Conv -> LeakyRelu -> ConvTranspose(x4) -> two residual blocks summed / 2 ->
    LeakyRelu -> Conv(1) -> Tanh -> Unsqueeze(1)."""
    nodes, inits = [], [numpy_helper.from_array(np.array(2.0, np.float32), "two"),
                        numpy_helper.from_array(np.array([1], np.int64), "axis1")]
    def conv(name, x, cin, cout, k, d=1):
        inits.extend([weight(name + ".w", cout, cin, k), weight(name + ".b", cout)])
        nodes.append(helper.make_node("Conv", [x, name + ".w", name + ".b"], [name], name=name,
                                      kernel_shape=[k], dilations=[d], pads=[d * (k - 1) // 2] * 2))
        return name
    def lrelu(name, x):
        nodes.append(helper.make_node("LeakyRelu", [x], [name], name=name, alpha=0.1))
        return name
    def add(name, a, b):
        nodes.append(helper.make_node("Add", [a, b], [name], name=name))
        return name
    h = lrelu("pre.act", conv("pre", "x", 32, 32, 7))
    inits.extend([weight("up.w", 32, 16, 8), weight("up.b", 16)])
    nodes.append(helper.make_node("ConvTranspose", [h, "up.w", "up.b"], ["up"], name="up",
                                  kernel_shape=[8], strides=[4], pads=[2, 2]))
    outs = []
    for b, k in enumerate((3, 5)):
        r = "up"
        for j, d in enumerate((1, 3)):
            r = add(f"rb{b}.{j}.add", conv(f"rb{b}.{j}", lrelu(f"rb{b}.{j}.act", r), 16, 16, k, d), r)
        outs.append(r)
    total = add("sum", outs[0], outs[1])
    nodes.append(helper.make_node("Div", [total, "two"], ["mean"], name="mean"))
    post = conv("post", lrelu("post.act", "mean"), 16, 1, 7)
    if extra_div_reader:
        post = add("post.plus", post, conv("side", "mean", 16, 1, 1))
    nodes.append(helper.make_node("Tanh", [post], ["tanh"], name="tanh"))
    nodes.append(helper.make_node("Unsqueeze", ["tanh", "axis1"], ["y"], name="out"))
    graph = helper.make_graph(nodes, "hifigan", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 32, "T"])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 1, "S"])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def run(model, x, optimised_path=None):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    if optimised_path:
        options.optimized_model_filepath = optimised_path
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0].reshape(-1)


def optimised_ops(model, scratch):
    path = str(Path(scratch) / "optimised.onnx")
    run(model, np.zeros((1, 32, 8), np.float32), path)
    return Counter(node.op_type for node in onnx.load(path).graph.node)


def main() -> None:
    failures = []
    def check(ok, message):
        if not ok:
            failures.append(message)

    with tempfile.TemporaryDirectory() as scratch:
        for extra in (False, True):
            original = hifigan(extra)
            four_d = onnx.ModelProto()
            four_d.CopyFrom(original)
            graph_to_4d(four_d.graph)
            blocked = onnx.ModelProto()
            blocked.CopyFrom(four_d)
            added = keep_blocked(blocked.graph)
            onnx.checker.check_model(blocked)
            # Two LeakyRelus in each of four convolutions' blocks, the pre and post ones, one ConvTranspose.
            check(added == 7, f"extra reader {extra}: {added} depthwise convolutions added, expected 7")
            for length in (5, 40):
                x = RNG.standard_normal((1, 32, length)).astype(np.float32)
                want = run(original, x)
                peak = float(np.abs(want).max())
                for name, model in (("4-D", four_d), ("kept blocked", blocked)):
                    got = run(model, x)
                    error = float(np.abs(got - want).max()) if got.shape == want.shape else float("inf")
                    check(error <= 1e-5 * peak, f"{name}, T={length}, extra reader {extra}: differs by {error} "
                                                f"(peak {peak})")
            ops = optimised_ops(blocked, scratch)
            reorders = ops["ReorderInput"] + ops["ReorderOutput"]
            before = optimised_ops(four_d, scratch)
            before_reorders = before["ReorderInput"] + before["ReorderOutput"]
            if extra:
                # The Div has a second reader: kept, and the plain tensor it needs costs a reorder pair.
                check(ops["Div"] == 1, f"a Div with two readers was folded: {dict(ops)}")
            else:
                check(ops["Div"] == 0, f"the Div was not folded into the depthwise convolution: {dict(ops)}")
                check(reorders <= 4, f"{reorders} reorders left (input, output and two around the "
                                     f"ConvTranspose expected): {dict(ops)}")
            check(ops["LeakyRelu"] == 0, f"LeakyRelu left outside a convolution: {dict(ops)}")
            check(reorders < before_reorders, f"keep_blocked did not remove reorders: {before_reorders} -> {reorders}")

        refused = hifigan()
        refused.graph.node.insert(0, helper.make_node("Softmax", ["x"], ["unused"], name="odd"))
        try:
            graph_to_4d(refused.graph)
            failures.append("graph_to_4d accepted a Softmax node")
        except ValueError:
            pass

    for failure in failures:
        print(f"test_conv_layout: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print("test_conv_layout: all checks passed")


if __name__ == "__main__":
    main()
