"""Converts a Hugging Face decoder-only checkpoint (NeuTTS backbones) to ONNX, without PyTorch.

    python convert.py SRC_DIR OUT_ONNX        (prints a JSON summary; exit 2: unsupported model)

Reads SRC_DIR/config.json and SRC_DIR/model.safetensors (or the shards that
model.safetensors.index.json names); tensors may be f32, f16 or bf16 (bf16 is widened exactly to
f32 as uint16 << 16). Writes OUT_ONNX and its weights as external data in OUT_ONNX + "_data"
(`backbone.onnx` -> `backbone.onnx_data`, named relative to the graph), all f32, in the standard
decoder-only export layout (tools/neutts/README.md):

  inputs   input_ids i64 [batch_size, sequence_length]
           attention_mask i64 [batch_size, total_sequence_length]   (1 = attend, 0 = padding)
           position_ids i64 [batch_size, sequence_length]
           past_key_values.{i}.key / .value f32 [batch_size, kv_heads, past_sequence_length, head_dim]
  outputs  logits f32 [batch_size, 1, vocab]   (the last position's only; the standard layout has
                                                 every position's, which generation never reads)
           present.{i}.key / .value f32 [batch_size, kv_heads, total_sequence_length, head_dim]

Architectures: LlamaForCausalLM (NeuTTS Nano) and Qwen2ForCausalLM (NeuTTS Air), computed as
transformers' modeling_llama / modeling_qwen2 do: RMSNorm, RoPE with the rotate_half convention
(rope types default, linear, llama3), grouped-query attention, causal mask combined with the
attention mask, SiLU-gated MLP, tied or separate lm_head. Anything else (another architecture,
rope type, activation, sliding window, a tensor the graph would not use) is refused by name.
"""
from __future__ import annotations

import json
import math
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from tools.common.onnx_graph import Graph  # the repo's small ONNX builder

OPSET = 17
ARCHITECTURES = {"LlamaForCausalLM": "llama", "Qwen2ForCausalLM": "qwen2"}
ROPE_TYPES = ("default", "linear", "llama3")
F32, I64 = TensorProto.FLOAT, TensorProto.INT64
ALIGN = 4096  # external data offsets: page-aligned, so that ONNX Runtime can map them


class ConversionError(Exception):
    """The checkpoint is broken or incomplete (exit code 1)."""


class UnsupportedModel(ConversionError):
    """The checkpoint is valid but holds something this converter does not build (exit code 2)."""


# ---------------------------------------------------------------------------------------------
# safetensors, read with numpy

_DTYPES = {"F32": ("<f4", 4), "F16": ("<f2", 2), "BF16": ("<u2", 2), "F64": ("<f8", 8)}


class SafeTensors:
    """The tensors of one checkpoint (one file or the shards of an index), read lazily."""

    def __init__(self, src_dir: str):
        single = os.path.join(src_dir, "model.safetensors")
        index = os.path.join(src_dir, "model.safetensors.index.json")
        if os.path.isfile(single):
            files = [single]
        elif os.path.isfile(index):
            with open(index, encoding="utf-8") as f:
                weight_map = json.load(f).get("weight_map") or {}
            files = sorted({os.path.join(src_dir, name) for name in weight_map.values()})
            if not files:
                raise ConversionError(f"{index} has no weight_map")
        else:
            raise ConversionError(f"{src_dir} has neither model.safetensors nor model.safetensors.index.json")
        self.entries = {}   # name -> (path, dtype, shape, begin, end)
        self.maps = {}
        for path in files:
            if not os.path.isfile(path):
                raise ConversionError(f"shard {path} is missing")
            with open(path, "rb") as f:
                head = f.read(8)
                if len(head) != 8:
                    raise ConversionError(f"{path} is not a safetensors file (too short)")
                (n,) = struct.unpack("<Q", head)
                if n > 100_000_000:
                    raise ConversionError(f"{path} is not a safetensors file (header of {n} bytes)")
                header = json.loads(f.read(n))
            base = 8 + n
            size = os.path.getsize(path)
            for name, info in header.items():
                if name == "__metadata__":
                    continue
                begin, end = info["data_offsets"]
                if info["dtype"] not in _DTYPES:
                    raise UnsupportedModel(f"tensor {name} in {os.path.basename(path)} is {info['dtype']}; "
                                           f"this converter reads {', '.join(_DTYPES)}")
                if base + end > size:
                    raise ConversionError(f"{path} is truncated (tensor {name} ends past the file)")
                self.entries[name] = (path, info["dtype"], tuple(info["shape"]), base + begin, base + end)

    def dtypes(self) -> list[str]:
        return sorted({e[1] for e in self.entries.values()})

    def __contains__(self, name):
        return name in self.entries

    def shape(self, name):
        return self.entries[name][2]

    def f32(self, name) -> np.ndarray:
        path, dtype, shape, begin, end = self.entries[name]
        if path not in self.maps:
            self.maps[path] = np.memmap(path, dtype=np.uint8, mode="r")
        code, width = _DTYPES[dtype]
        count = int(np.prod(shape, dtype=np.int64))
        if end - begin != count * width:
            raise ConversionError(f"tensor {name}: {end - begin} bytes for shape {list(shape)} of {dtype}")
        raw = np.frombuffer(self.maps[path][begin:end], dtype=code, count=count)
        if dtype == "BF16":
            out = (raw.astype(np.uint32) << 16).view(np.float32)
        else:
            out = raw.astype(np.float32)
        return out.reshape(shape)


# ---------------------------------------------------------------------------------------------
# configuration

class Spec:
    """The numbers the graph needs, read from config.json and checked against the tensors."""

    def __init__(self, config: dict):
        archs = config.get("architectures") or []
        if len(archs) != 1 or archs[0] not in ARCHITECTURES:
            raise UnsupportedModel(f"architecture {archs or '(none given)'} is not supported; "
                                   f"this converter builds {', '.join(ARCHITECTURES)}")
        self.architecture = archs[0]
        self.family = ARCHITECTURES[self.architecture]

        def need(key):
            if key not in config or config[key] is None:
                raise ConversionError(f"config.json has no {key}")
            return config[key]

        self.hidden = int(need("hidden_size"))
        self.layers = int(need("num_hidden_layers"))
        self.heads = int(need("num_attention_heads"))
        self.kv_heads = int(config.get("num_key_value_heads") or self.heads)
        self.vocab = int(need("vocab_size"))
        self.intermediate = int(need("intermediate_size"))
        self.head_dim = int(config.get("head_dim") or self.hidden // self.heads)
        self.eps = float(config.get("rms_norm_eps", 1e-6))
        self.tied = bool(config.get("tie_word_embeddings", False))
        if self.heads % self.kv_heads:
            raise ConversionError(f"{self.heads} attention heads are not a multiple of {self.kv_heads} KV heads")
        act = config.get("hidden_act", "silu")
        if act != "silu":
            raise UnsupportedModel(f"hidden_act {act!r} is not supported (only silu)")
        if self.family == "llama":
            self.qkv_bias = self.o_bias = bool(config.get("attention_bias", False))
            self.mlp_bias = bool(config.get("mlp_bias", False))
        else:  # Qwen2: q/k/v always have biases, o_proj and the MLP never
            self.qkv_bias, self.o_bias, self.mlp_bias = True, False, False
            if config.get("use_sliding_window"):
                raise UnsupportedModel("Qwen2 with use_sliding_window=true is not supported")
        layer_types = config.get("layer_types")
        if layer_types and any(t != "full_attention" for t in layer_types):
            raise UnsupportedModel(f"layer types {sorted(set(layer_types))} are not supported (only full_attention)")
        self.rope = self._rope(config)
        self.inv_freq = self._inv_freq()

    def _rope(self, config: dict) -> dict:
        # transformers >= 5 writes rope_parameters (with rope_theta inside); older configs write
        # rope_theta and rope_scaling (with "type" or "rope_type") at the top level.
        params = dict(config.get("rope_parameters") or config.get("rope_scaling") or {})
        if params and any(isinstance(v, dict) for v in params.values()):
            raise UnsupportedModel("per-layer-type rope_parameters are not supported")
        params.setdefault("rope_theta", config.get("rope_theta", 10000.0))
        kind = params.get("rope_type", params.get("type", "default"))
        if kind not in ROPE_TYPES:
            raise UnsupportedModel(f"rope type {kind!r} is not supported; this converter builds {', '.join(ROPE_TYPES)}")
        partial = params.get("partial_rotary_factor", config.get("partial_rotary_factor", 1.0))
        if partial not in (None, 1, 1.0):
            raise UnsupportedModel(f"partial_rotary_factor {partial} is not supported (only 1.0)")
        params["rope_type"] = kind
        if kind == "llama3":
            params.setdefault("original_max_position_embeddings", config.get("max_position_embeddings"))
            for key in ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"):
                if params.get(key) is None:
                    raise ConversionError(f"llama3 rope scaling without {key}")
        if kind == "linear" and params.get("factor") is None:
            raise ConversionError("linear rope scaling without factor")
        return params

    def _inv_freq(self) -> np.ndarray:
        """transformers' modeling_rope_utils, in float64, rounded once to float32."""
        dim, p = self.head_dim, self.rope
        inv = 1.0 / (float(p["rope_theta"]) ** (np.arange(0, dim, 2, dtype=np.float64) / dim))
        if p["rope_type"] == "linear":
            inv = inv / float(p["factor"])
        elif p["rope_type"] == "llama3":
            factor, low, high = float(p["factor"]), float(p["low_freq_factor"]), float(p["high_freq_factor"])
            old = float(p["original_max_position_embeddings"])
            low_wavelen, high_wavelen = old / low, old / high
            wavelen = 2 * math.pi / inv
            scaled = np.where(wavelen > low_wavelen, inv / factor, inv)
            smooth = (old / wavelen - low) / (high - low)
            smoothed = (1 - smooth) * scaled / factor + smooth * scaled
            medium = ~(wavelen < high_wavelen) & ~(wavelen > low_wavelen)
            inv = np.where(medium, smoothed, scaled)
        return inv.astype(np.float32)


# ---------------------------------------------------------------------------------------------
# graph

class _Weights:
    """Writes f32 initializers straight into the external data file (page-aligned)."""

    def __init__(self, graph: Graph, data_path: str, location: str):
        self.graph, self.location = graph, location
        self.file = open(data_path, "wb")
        self.offset = 0
        self.bytes = 0

    def add(self, array: np.ndarray, name: str) -> str:
        array = np.ascontiguousarray(array, dtype=np.float32)
        pad = (-self.offset) % ALIGN
        if pad:
            self.file.write(b"\0" * pad)
            self.offset += pad
        self.file.write(array.tobytes())
        tensor = TensorProto(name=name, data_type=F32, dims=list(array.shape))
        tensor.data_location = TensorProto.EXTERNAL
        for key, value in (("location", self.location), ("offset", str(self.offset)), ("length", str(array.nbytes))):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, value
        self.graph.inits.append(tensor)
        self.offset += array.nbytes
        self.bytes += array.nbytes
        return name

    def close(self):
        self.file.close()


def _build(spec: Spec, st: SafeTensors, data_path: str, location: str,
           all_positions: bool) -> tuple[onnx.ModelProto, int]:
    g = Graph("backbone")
    weights = _Weights(g, data_path, location)
    used = set()
    prefix = "model." if "model.embed_tokens.weight" in st else ""

    def tensor(name, shape):
        if name not in st:
            raise ConversionError(f"tensor {name} is missing")
        if tuple(st.shape(name)) != tuple(shape):
            raise ConversionError(f"tensor {name} has shape {list(st.shape(name))}; config.json implies {list(shape)}")
        used.add(name)
        return st.f32(name)

    def linear(x, name, n_in, n_out, bias):
        w = weights.add(tensor(f"{name}.weight", (n_out, n_in)).T, f"{name}.weight")
        y = g.op("MatMul", [x, w])
        if bias:
            y = g.op("Add", [y, weights.add(tensor(f"{name}.bias", (n_out,)), f"{name}.bias")])
        return y

    def rms_norm(x, name):
        w = weights.add(tensor(f"{name}.weight", (spec.hidden,)), f"{name}.weight")
        var = g.op("ReduceMean", [g.op("Mul", [x, x])], axes=[-1], keepdims=1)
        return g.op("Mul", [g.op("Mul", [x, g.op("Reciprocal", [g.op("Sqrt", [g.op("Add", [var, g.scalar(spec.eps)])])])]), w])

    H, KV, D, W = spec.heads, spec.kv_heads, spec.head_dim, spec.hidden
    rep = H // KV
    ids = g.input("input_ids", I64, ["batch_size", "sequence_length"])
    mask = g.input("attention_mask", I64, ["batch_size", "total_sequence_length"])
    pos = g.input("position_ids", I64, ["batch_size", "sequence_length"])
    pasts = [g.input(f"past_key_values.{i}.{kind}", F32, ["batch_size", KV, "past_sequence_length", D])
             for i in range(spec.layers) for kind in ("key", "value")]

    embed_name = f"{prefix}embed_tokens.weight"
    embed = weights.add(tensor(embed_name, (spec.vocab, W)), embed_name)
    x = g.op("Gather", [embed, ids], axis=0)                                        # [B,S,W]

    # RoPE: cos/sin of position x inv_freq, duplicated over both halves, [B,1,S,D]
    freqs = g.op("Mul", [g.op("Unsqueeze", [g.op("Cast", [pos], to=F32), g.ints([2])]), g.const(spec.inv_freq, "inv_freq")])
    angles = g.op("Unsqueeze", [g.op("Concat", [freqs, freqs], axis=-1), g.ints([1])])
    cos, sin = g.op("Cos", [angles]), g.op("Sin", [angles])

    def rope(t):  # t [B,n,S,D]: t*cos + rotate_half(t)*sin, rotate_half = cat(-t2, t1)
        t1 = g.op("Slice", [t, g.ints([0]), g.ints([D // 2]), g.ints([3])])
        t2 = g.op("Slice", [t, g.ints([D // 2]), g.ints([D]), g.ints([3])])
        rotated = g.op("Concat", [g.op("Neg", [t2]), t1], axis=3)
        return g.op("Add", [g.op("Mul", [t, cos]), g.op("Mul", [rotated, sin])])

    # Mask [B,1,S,T]: key slot j is visible to query i (slot P+i) when j <= P+i and attention_mask[b,j] == 1
    s_len, p_len = g.dim(ids, 1), g.dim(pasts[0], 2)
    t_len = g.op("Add", [s_len, p_len])
    scalar = lambda t: g.op("Squeeze", [t, g.ints([0])])  # noqa: E731
    q_slots = g.op("Range", [scalar(p_len), scalar(t_len), g.i64(1)])               # [S]
    k_slots = g.op("Range", [g.i64(0), scalar(t_len), g.i64(1)])                    # [T]
    causal = g.op("LessOrEqual", [g.op("Unsqueeze", [k_slots, g.ints([0])]), g.op("Unsqueeze", [q_slots, g.ints([1])])])
    padding = g.op("Unsqueeze", [g.op("Cast", [mask], to=TensorProto.BOOL), g.ints([1, 2])])   # [B,1,1,T]
    allowed = g.op("And", [causal, padding])                                       # [B,1,S,T]
    blocked = g.scalar(float(np.finfo(np.float32).min))
    scale = g.scalar(float(D) ** -0.5)

    def heads(t, n):  # [B,S,n*D] -> [B,n,S,D]
        return g.op("Transpose", [g.op("Reshape", [t, g.ints([0, 0, n, D])])], perm=[0, 2, 1, 3])

    presents = []
    for i in range(spec.layers):
        p = f"{prefix}layers.{i}"
        h = rms_norm(x, f"{p}.input_layernorm")
        q = rope(heads(linear(h, f"{p}.self_attn.q_proj", W, H * D, spec.qkv_bias), H))
        k = rope(heads(linear(h, f"{p}.self_attn.k_proj", W, KV * D, spec.qkv_bias), KV))
        v = heads(linear(h, f"{p}.self_attn.v_proj", W, KV * D, spec.qkv_bias), KV)
        k = g.op("Concat", [pasts[2 * i], k], outputs=[f"present.{i}.key"], axis=2)     # [B,KV,T,D]
        v = g.op("Concat", [pasts[2 * i + 1], v], outputs=[f"present.{i}.value"], axis=2)
        presents += [k, v]
        # GQA without copying K/V: query head h uses KV head h // rep, so [B,H,S,D] -> [B,KV,rep*S,D]
        qg = g.op("Reshape", [q, g.ints([0, KV, -1, D])])
        scores = g.op("Mul", [g.op("MatMul", [qg, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), scale])  # [B,KV,rep*S,T]
        scores = g.op("Where", [allowed, g.op("Reshape", [scores, g.ints([0, H, -1, 0])]), blocked])   # [B,H,S,T]
        probs = g.op("Reshape", [g.op("Softmax", [scores], axis=-1), g.ints([0, KV, -1, 0])])
        att = g.op("Reshape", [g.op("MatMul", [probs, v]), g.ints([0, H, -1, D])])                     # [B,H,S,D]
        att = g.op("Reshape", [g.op("Transpose", [att], perm=[0, 2, 1, 3]), g.ints([0, 0, H * D])])
        x = g.op("Add", [x, linear(att, f"{p}.self_attn.o_proj", H * D, W, spec.o_bias)])
        h = rms_norm(x, f"{p}.post_attention_layernorm")
        gate = linear(h, f"{p}.mlp.gate_proj", W, spec.intermediate, spec.mlp_bias)
        up = linear(h, f"{p}.mlp.up_proj", W, spec.intermediate, spec.mlp_bias)
        act = g.op("Mul", [g.op("Mul", [gate, g.op("Sigmoid", [gate])]), up])
        x = g.op("Add", [x, linear(act, f"{p}.mlp.down_proj", spec.intermediate, W, spec.mlp_bias)])

    # Only the last position's logits: generation reads no other row, and for a 313-token prompt the
    # head over every row was 38 % of the prefill (a [313, 576] x [576, 194256] Gemm and 243 MB out).
    if not all_positions:
        x = g.op("Slice", [x, g.ints([-1]), g.ints([2**62]), g.ints([1])])         # [B,1,W]
    x = rms_norm(x, f"{prefix}norm")
    # lm_head: Gemm with transB on the [V,W] matrix, so a tied head shares the embedding's bytes
    if spec.tied:
        head = embed
    else:
        head = weights.add(tensor("lm_head.weight", (spec.vocab, W)), "lm_head.weight")
    flat = g.op("Gemm", [g.op("Reshape", [x, g.ints([-1, W])]), head], transB=1)
    rows = s_len if all_positions else g.ints([1])
    g.op("Reshape", [flat, g.op("Concat", [g.dim(ids, 0), rows, g.ints([spec.vocab])], axis=0)], outputs=["logits"])
    weights.close()

    ignorable = {"lm_head.weight"} if spec.tied else set()
    unused = [n for n in st.entries if n not in used and n not in ignorable and not n.endswith("rotary_emb.inv_freq")]
    if unused:
        raise UnsupportedModel(f"{len(unused)} tensors would be left unused (e.g. {', '.join(sorted(unused)[:4])}): "
                               "the checkpoint holds something this converter does not build")

    g.output("logits", F32, ["batch_size", "sequence_length" if all_positions else 1, spec.vocab])
    for i in range(spec.layers):
        for kind in ("key", "value"):
            g.output(f"present.{i}.{kind}", F32, ["batch_size", KV, "total_sequence_length", D])
    graph = helper.make_graph(g.nodes, "backbone", g.inputs, g.outputs, g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="warble-neutts-convert")
    model.ir_version = 8
    return model, weights.bytes


def convert(src_dir: str, out_path: str, all_positions: bool = False) -> dict:
    """Builds OUT_PATH (+ OUT_PATH_data) from SRC_DIR; returns a summary of what was read.
    all_positions: logits for every position (the standard layout; the fixtures' check that Warble
    takes it too) instead of the last one's."""
    cfg_path = os.path.join(src_dir, "config.json")
    if not os.path.isfile(cfg_path):
        raise ConversionError(f"{cfg_path} is missing")
    with open(cfg_path, encoding="utf-8") as f:
        config = json.load(f)
    spec = Spec(config)
    st = SafeTensors(src_dir)
    out_dir = os.path.dirname(os.path.abspath(out_path))
    os.makedirs(out_dir, exist_ok=True)
    tmp, tmp_data = out_path + ".partial", out_path + "_data.partial"
    try:  # written under temporary names, renamed when complete
        model, weight_bytes = _build(spec, st, tmp_data, os.path.basename(out_path) + "_data", all_positions)
        with open(tmp, "wb") as f:
            f.write(model.SerializeToString())
        os.replace(tmp_data, out_path + "_data")
        os.replace(tmp, out_path)
    finally:
        for leftover in (tmp, tmp_data):
            if os.path.exists(leftover):
                os.remove(leftover)
    return {
        "architecture": spec.architecture, "layers": spec.layers, "heads": spec.heads, "kv_heads": spec.kv_heads,
        "head_dim": spec.head_dim, "hidden": spec.hidden, "intermediate": spec.intermediate, "vocab": spec.vocab,
        "tied_embeddings": spec.tied, "rope_type": spec.rope["rope_type"], "rope_theta": float(spec.rope["rope_theta"]),
        "dtype": ",".join(st.dtypes()).lower(), "weight_bytes": weight_bytes,
        "onnx": out_path, "data": out_path + "_data",
    }


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.split("\n\n")[1] if len(argv) > 1 and argv[1] in ("-h", "--help") else
              "usage: python convert.py SRC_DIR OUT_ONNX", file=sys.stderr)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    try:
        summary = convert(argv[1], argv[2])
    except UnsupportedModel as e:
        print(f"convert.py: unsupported model: {e}", file=sys.stderr)
        return 2
    except ConversionError as e:
        print(f"convert.py: error: {e}", file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
