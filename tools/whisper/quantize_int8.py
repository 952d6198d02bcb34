#!/usr/bin/env python3
"""Int8 variant of a converted Whisper model with ONNX Runtime's dynamic quantisation.

    quantize_int8.py SRC_DIR OUT_DIR --id whisper-tiny.en-int8 [--source TEXT]
                     [--parts encoder,decoder] [--per-tensor] [--no-logits]

SRC_DIR is an installed f32 model (tools/whisper/install.sh: encoder.onnx, decoder.onnx, text files,
manifest.json). OUT_DIR receives the same file set with the same graph inputs and outputs (names,
element types, shapes), so the Swift pipeline runs it unchanged, and a manifest whose
`quantization` is "int8-dynamic" and `derivedFrom` names the source model and its graphs' sha256.

What is quantised (chosen by measurement, see tools/whisper/README.md, "Int8"):
  - every MatMul with a constant weight, in the encoder and the decoder (QInt8 weights with one scale
    per output column, 7-bit range as ORT does for MatMulInteger; activations quantised per call by DynamicQuantizeLinear, which ONNX Runtime fuses into
    DynamicQuantizeMatMul). Attention products (Q K, P V) have no constant side and stay f32;
  - the decoder's output projection (a Gemm against the tied embedding table in the f32 graph; quantize_dynamic
    makes it a
    MatMul against a transposed copy of the table) is quantised too (it is most of the decoder's
    weight traffic: 384 x 51864 for tiny.en, read once per step);
  - the embedding lookup keeps the table in f16 and widens the gathered rows (`--embedding f16`), so the
    f32 table is not held at all;
  - the encoder's two Conv layers, LayerNorms, biases and position tables stay f32.
Before quantising, the f16 weights stored by the converter (Cast nodes ONNX Runtime would fold) become
f32 initialisers, because quantize_dynamic only quantises a MatMul whose weight is an initialiser.
Needs numpy, onnx and onnxruntime (the pinned tools/requirements.txt).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from tools.whisper.convert_ct2 import PREPROCESSOR, VOCABULARIES, sha256_of

TEXT_FILES = ("tokenizer.json", "config.json")
GRAPHS = ("encoder.onnx", "decoder.onnx")
QUANTIZATION = "int8-dynamic"


class QuantizeError(Exception):
    pass


def fold_weight_casts(model: onnx.ModelProto, keep: set[str] = frozenset()) -> None:
    """Cast(f16/bf16 initialiser) -> f32 initialiser named like the Cast's output. Initialisers in
    `keep` stay as they are (still used by other nodes)."""
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    kept_nodes, new_inits, folded_sources = [], [], set()
    for node in graph.node:
        src = node.input[0] if node.op_type == "Cast" and node.input else None
        if src in inits and inits[src].data_type in (TensorProto.FLOAT16, TensorProto.BFLOAT16) \
                and next(a.i for a in node.attribute if a.name == "to") == TensorProto.FLOAT:
            arr = numpy_helper.to_array(inits[src])
            if inits[src].data_type == TensorProto.BFLOAT16:
                arr = (np.asarray(arr).view(np.uint16).astype(np.uint32) << 16).view(np.float32)
            new_inits.append(numpy_helper.from_array(np.asarray(arr, dtype=np.float32), node.output[0]))
            folded_sources.add(src)
            continue
        kept_nodes.append(node)
    still_used = {i for n in kept_nodes for i in n.input} | set(keep)
    remaining = [t for t in graph.initializer if t.name not in folded_sources or t.name in still_used]
    del graph.node[:]
    graph.node.extend(kept_nodes)
    del graph.initializer[:]
    graph.initializer.extend(remaining + new_inits)


def _producer(graph: onnx.GraphProto, name: str):
    return next((n for n in graph.node if name in n.output), None)


def prepare_decoder(model: onnx.ModelProto, embedding: str) -> str:
    """With embedding 'f16', the token Gather reads the stored f16 table and widens the gathered rows,
    so no f32 copy of the table is kept (the output projection gets its own int8 copy); graphs from
    convert_ct2.py since logit_positions already gather the stored table, and are left as they are. Returns the
    name of the output projection node (a Gemm against the table, transB=1; quantize_dynamic turns it
    into a MatMul against a transposed copy)."""
    graph = model.graph
    gemm = next((n for n in graph.node if n.op_type == "Gemm"), None)
    if gemm is None:
        raise QuantizeError("the decoder has no Gemm (output projection); is it a tools/whisper/convert_ct2.py graph?")
    table_f32 = gemm.input[1]
    cast = _producer(graph, table_f32)
    if cast is None or cast.op_type != "Cast":
        raise QuantizeError(f"the output projection weight {table_f32!r} is not a Cast of a stored table")
    table_stored = cast.input[0]
    inits = {t.name: t for t in graph.initializer}
    gather = next((n for n in graph.node if n.op_type == "Gather" and n.input[0] == table_f32), None)
    if gather is not None and embedding == "f16" and inits[table_stored].data_type == TensorProto.FLOAT16:
        rows = gather.output[0] + ".f16"
        widen = helper.make_node("Cast", [rows], [gather.output[0]], name=gather.name + ".widen", to=TensorProto.FLOAT)
        gather.output[0] = rows
        gather.input[0] = table_stored
        graph.node.insert(list(graph.node).index(gather) + 1, widen)
    return gemm.name


def quantize_graph(src: str, dst: str, is_decoder: bool, per_channel: bool, logits: bool,
                   embedding: str, quantize: bool) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = onnx.load(src)
    keep, exclude = set(), []
    if is_decoder:
        projection = prepare_decoder(model, embedding)
        keep = {n.input[0] for n in model.graph.node if n.op_type == "Gather"}
        if not logits:
            exclude += [projection, projection + "_MatMul"]  # quantize_dynamic renames the Gemm it replaces
    fold_weight_casts(model, keep)
    if not quantize:
        onnx.save(model, dst)
        return
    with tempfile.TemporaryDirectory() as tmp:
        staged = os.path.join(tmp, "f32.onnx")
        onnx.save(model, staged)
        quantize_dynamic(staged, dst, op_types_to_quantize=["MatMul"], per_channel=per_channel,
                         nodes_to_exclude=exclude, weight_type=QuantType.QInt8,
                         extra_options={"MatMulConstBOnly": True, "EnableSubgraph": False})
    check_interface(src, dst)


def check_interface(src: str, dst: str) -> None:
    """The quantised graph keeps every input and output name, element type and shape."""
    def interface(path: str):
        g = onnx.load(path, load_external_data=False).graph
        inits = {t.name for t in g.initializer}
        return ([(v.name, v.type.SerializeToString()) for v in g.input if v.name not in inits],
                [(v.name, v.type.SerializeToString()) for v in g.output])
    if interface(src) != interface(dst):
        raise QuantizeError(f"{dst}: inputs/outputs differ from {src}")


def quantize_model(src: str, out: str, model_id: str, source: str, parts: set[str], per_channel: bool,
                   logits: bool, embedding: str) -> dict:
    with open(os.path.join(src, "manifest.json"), encoding="utf-8") as f:
        base = json.load(f)
    if base.get("family") != "whisper":
        raise QuantizeError(f"{src}/manifest.json is not a Whisper model (family {base.get('family')!r})")
    if base.get("quantization"):
        raise QuantizeError(f"{src} is already quantised ({base['quantization']}); give the f32 model")
    os.makedirs(out, exist_ok=True)
    for name in GRAPHS:
        is_decoder = name == "decoder.onnx"
        quantize_graph(os.path.join(src, name), os.path.join(out, name), is_decoder, per_channel,
                       logits, embedding, ("decoder" if is_decoder else "encoder") in parts)
    extra_text = tuple(n for n in VOCABULARIES if os.path.exists(os.path.join(src, n)))
    if not extra_text:
        raise QuantizeError(f"{src} has no vocabulary ({' or '.join(VOCABULARIES)})")
    # The vocabulary the source has (vocabulary.txt, or vocabulary.json for large-v3 and its turbo), and its
    # preprocessor_config.json when it has one.
    extra_text += (PREPROCESSOR,) if os.path.isfile(os.path.join(src, PREPROCESSOR)) else ()
    for name in TEXT_FILES + extra_text:
        shutil.copyfile(os.path.join(src, name), os.path.join(out, name))
    files = [{"path": n, "sha256": sha256_of(os.path.join(out, n)), "bytes": os.path.getsize(os.path.join(out, n))}
             for n in GRAPHS + TEXT_FILES + extra_text]
    source_files = {f["path"]: f["sha256"] for f in base["files"] if f["path"] in GRAPHS}
    manifest = dict(base)
    manifest.update({
        "id": model_id,
        "displayName": f"{base.get('displayName', base['id'])} int8",
        "licence": "MIT",
        "source": source,
        "quantization": QUANTIZATION,
        "derivedFrom": {"id": base["id"], "files": source_files},
        "files": files,
    })
    manifest["config"] = dict(base["config"])
    manifest["config"]["quantization"] = {
        "method": "onnxruntime.quantization.quantize_dynamic",
        "weight_type": "QInt8",
        "per_channel": per_channel,
        "op_types": ["MatMul"],
        "parts": sorted(parts),
        "output_projection": "int8" if logits else "f32",
        "embedding_table": embedding,
        "kept_f32": "Conv, LayerNorm, biases, position tables, attention products",
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    return manifest


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src")
    parser.add_argument("out")
    parser.add_argument("--id", required=True)
    parser.add_argument("--source", default="")
    parser.add_argument("--parts", default="encoder,decoder", help="graphs to quantise (others: f32 weights)")
    parser.add_argument("--per-tensor", action="store_true", help="one weight scale per tensor (default: per column)")
    parser.add_argument("--no-logits", action="store_true", help="keep the output projection in f32")
    parser.add_argument("--embedding", choices=("f16",), default="f16",
                        help="f16 only: quantize_dynamic transposes the tied table in place, so the lookup needs its own copy")
    args = parser.parse_args(argv)
    parts = {p for p in args.parts.split(",") if p}
    if not parts <= {"encoder", "decoder"}:
        parser.error(f"--parts takes encoder and/or decoder, got {args.parts}")
    source = args.source or f"{args.src} quantised by tools/whisper/quantize_int8.py"
    try:
        manifest = quantize_model(args.src, args.out, args.id, source, parts, not args.per_tensor,
                                  not args.no_logits, args.embedding)
    except (QuantizeError, OSError, KeyError) as error:
        print(f"quantize_int8: error: {error}", file=sys.stderr)
        return 1
    sizes = ", ".join(f"{f['path']} {f['bytes'] / 1e6:.1f} MB" for f in manifest["files"][:2])
    print(f"quantize_int8: wrote {args.out} ({sizes})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
