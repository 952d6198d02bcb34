#!/usr/bin/env python3
"""Splits a Piper (VITS) voice at its decoder input, so the decoder can run in windows.

Usage: split_piper.py MODEL.onnx OUTDIR  (prints the split facts as JSON)

The decoder is the subgraph whose nodes are named /dec/*; the one tensor it reads from the rest of
the graph is the latent z ([1, 192, T], the flow's output times the mask). Part A (the model's
inputs -> z) and part B (z -> audio) are extracted with onnx.utils.extract_model; A then B equals
the whole model. From part B's convolutions the script derives:
- hopSamples: audio samples per frame of z (the product of the transposed convolutions' strides);
- contextFrames: how many frames of z on each side a window needs so that its centre decodes exactly
  as in one pass (the receptive field of the decoder, in frames of z, rounded up, plus a margin).
Part B is then rewritten to run in 4-D, its convolutions in 2-D (conv_layout.py: ORT's blocked NCHWc
kernels), which makes it faster with the same arithmetic, and kept in that layout between its
convolutions (keep_blocked: 8 reorders left of 34, the Divs folded, 0.9x the time). Part A stays as it is: the same rewrite
would save it 12 % of its run time but cost 0.2 s at every load (ORT re-blocks 109 convolutions'
weights), which a listener waits through before the first audio.
Everything is checked here with ONNX Runtime: A then B against the whole model, and windowed decoding
against one-shot decoding.
"""
import json
import math
import sys
from pathlib import Path

import numpy as np
import onnx
import onnx.utils
import onnxruntime as ort

from tools.models.conv_layout import graph_to_4d, keep_blocked

MARGIN_FRAMES = 2


def attribute(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def find_latent(graph) -> str:
    dec = [n for n in graph.node if n.name.startswith("/dec/")]
    if not dec:
        raise SystemExit("no /dec/ nodes: this does not look like a Piper (VITS) voice")
    produced = {o for n in dec for o in n.output}
    initializers = {i.name for i in graph.initializer}
    external = {i for n in dec for i in n.input if i and i not in produced and i not in initializers}
    constants = {o for n in graph.node if n.op_type == "Constant" for o in n.output}
    external -= constants
    if len(external) != 1:
        raise SystemExit(f"the decoder reads {sorted(external)}, expected exactly one latent tensor")
    return external.pop()


def receptive_field(graph, latent: str) -> tuple[int, float]:
    """(hop samples per latent frame, receptive radius in latent frames) of the decoder."""
    scale = {latent: 1}      # output samples per latent frame at each tensor
    radius = {latent: 0.0}   # receptive radius, in latent frames
    for node in graph.node:
        known = [i for i in node.input if i in scale]
        if not known:
            continue
        s = max(scale[i] for i in known)
        r = max(radius[i] for i in known)
        if node.op_type == "Conv":
            k = attribute(node, "kernel_shape", [1])[0]
            d = attribute(node, "dilations", [1])[0]
            stride = attribute(node, "strides", [1])[0]
            if stride != 1:
                raise SystemExit(f"{node.name}: strided convolution in the decoder is not supported")
            r += (k - 1) * d / 2 / s
        elif node.op_type == "ConvTranspose":
            k = attribute(node, "kernel_shape", [1])[0]
            stride = attribute(node, "strides", [1])[0]
            r += (math.ceil(k / stride) / 2 + 1) / s
            s *= stride
        for o in node.output:
            scale[o] = s
            radius[o] = r
    output = graph.output[0].name
    if output not in scale:
        raise SystemExit("the decoder does not reach the model output")
    return scale[output], radius[output]


def split(model_path: Path, out: Path) -> dict:
    """Writes out/encoder.ort and out/decoder.onnx; returns the split facts (checked)."""
    model = onnx.load(str(model_path))
    latent = find_latent(model.graph)
    inputs = [i.name for i in model.graph.input]
    output = model.graph.output[0].name
    part_a, part_b = out / "encoder.onnx", out / "decoder.onnx"
    onnx.utils.extract_model(str(model_path), str(part_a), inputs, [latent], check_model=False)
    onnx.utils.extract_model(str(model_path), str(part_b), [latent], [output], check_model=False)
    decoder = onnx.load(str(part_b))
    hop, radius = receptive_field(decoder.graph, latent)
    context = math.ceil(radius) + MARGIN_FRAMES
    graph_to_4d(decoder.graph)
    keep_blocked(decoder.graph)
    onnx.save(decoder, str(part_b))
    # Part A in ONNX Runtime's own format, saved after its hardware-independent graph optimisations: it
    # loads in 0.56 s instead of 0.72 s (2,700 nodes), and the listener waits for that load.
    part_a_ort = out / "encoder.ort"
    save_options = ort.SessionOptions()
    save_options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    save_options.optimized_model_filepath = str(part_a_ort)
    save_options.add_session_config_entry("session.save_model_format", "ORT")
    ort.InferenceSession(str(part_a), save_options, providers=["CPUExecutionProvider"])
    part_a.unlink()

    # Checks with ONNX Runtime on a fixed phoneme sequence (noise off: deterministic).
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    full = ort.InferenceSession(str(model_path), options)
    a = ort.InferenceSession(str(part_a_ort), options)
    b = ort.InferenceSession(str(part_b), options)
    ids = np.array([[1, 0] + [v for p in range(20, 80) for v in (p, 0)] + [2]], dtype=np.int64)
    feeds = {"input": ids, "input_lengths": np.array([ids.shape[1]], dtype=np.int64),
             "scales": np.array([0.0, 1.0, 0.0], dtype=np.float32)}
    if "sid" in inputs:
        feeds["sid"] = np.array([0], dtype=np.int64)
    whole = full.run(None, feeds)[0].reshape(-1)
    z = a.run(None, feeds)[0]
    split = b.run(None, {latent: z})[0].reshape(-1)
    frames = z.shape[2]
    if split.shape != whole.shape:
        raise SystemExit(f"A then B gives {split.shape} samples, the whole model {whole.shape}")
    split_error = float(np.abs(split - whole).max())
    if split_error > 1e-4:
        raise SystemExit(f"A then B differs from the whole model by {split_error}")
    if split.size != frames * hop:
        raise SystemExit(f"the decoder gives {split.size} samples for {frames} frames, not {hop} per frame")
    windowed = []
    start = 0
    size = 32
    while start < frames:
        end = min(frames, start + size)
        lo, hi = max(0, start - context), min(frames, end + context)
        piece = b.run(None, {latent: z[:, :, lo:hi]})[0].reshape(-1)
        windowed.append(piece[(start - lo) * hop:(end - lo) * hop])
        start, size = end, size * 2
    windowed = np.concatenate(windowed)
    window_error = float(np.abs(windowed - split).max())
    if window_error > 1e-4:
        raise SystemExit(f"windowed decoding with {context} context frames differs by {window_error}")

    facts = {"encoder": "encoder.ort", "decoder": "decoder.onnx", "latent": latent, "hopSamples": hop,
             "contextFrames": context, "receptiveRadiusFrames": round(radius, 3),
             "checkedMaxAbsDifference": window_error,
             "checkedWholeModelDifference": split_error, "layout": "decoder in 4-D, convolutions in 2-D, kept blocked (conv_layout.py); encoder in ORT format"}
    return facts


def main() -> None:
    print(json.dumps(split(Path(sys.argv[1]), Path(sys.argv[2]))))


if __name__ == "__main__":
    main()
