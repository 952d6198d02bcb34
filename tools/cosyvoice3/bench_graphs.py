#!/usr/bin/env python3
"""Real-size CosyVoice 3 graphs with random weights, for the benchmark (issue #20).

Usage: bench_graphs.py OUTDIR [--layers 24] [--variants fp32,fp16] [--depth 22]

Writes a model directory in the community export's layout (the file, input and output names, dtypes
and shapes of graphs.py, seed-models.md §1.1) whose graphs do the real models' work at the real
sizes, with random weights:
- LLM: the Qwen2-0.5B backbone (24 layers, hidden 896, 14 query heads, 2 KV heads, head_dim 64,
  RMSNorm, RoPE θ 1e6, SwiGLU MLP 4864, q/k/v biases) as a prefill and a one-token decode graph with
  the stacked KV cache [48, B, 2, len, 64]; text embedding 151936 × 896; speech embedding and
  llm_decoder 6761 wide (the stop ids' logits are −1000, so decoding runs to max_len).
- Flow: the DiT of cosyvoice3.yaml (dim 1024, depth 22, 16 heads × 64, ff_mult 2, mel/mu/spk 80):
  time embedding, input projection, causal grouped-conv position embedding (k 31, 16 groups),
  AdaLayerNormZero blocks with RoPE self-attention and a GELU feed-forward, the final modulation
  and projection; the pre-lookahead layer (80 → 1024 k 4 → 80 k 3) and speaker projection.
- HiFT (CausalHiFTGenerator of cosyvoice3.yaml): f0 predictor (80 → 512 k 4, 4 × 512 k 3, ELU,
  linear), an 9-harmonic sine source, and the decoder with its channel counts (conv_pre 80 → 512 k 5,
  upsampling ×8, ×5, ×3 as nearest-upsample + conv k 16/11/7 to 256/128/64 channels, source
  down-convolutions, source resblocks k 7/7/11 and 3 resblocks k 3/7/11 per stage, dilations
  1/3/5, Snake activations, conv_post 64 → 18 k 7, exp/sin).
The campplus and speech tokenizer graphs are graphs.py's small ones (not benchmarked).

The fp16 variant stores weights in f16 and computes in f16 with f32 inputs and outputs (what
onnxconverter's keep_io_types gives), except the backbone's KV cache, which is f16 in and out.
Weights are made on the fly (~4 GB for both variants): write OUTDIR outside the repository. A file
over the protobuf limit keeps its weights in ONNX external data beside it.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import helper

from tools.cosyvoice3 import graphs
from tools.cosyvoice3.graphs import F16, F32, I64

HIDDEN, HEADS, KV_HEADS, HEAD = 896, 14, 2, 64
MLP = 4864
TEXT_VOCAB = 151936
ROPE_THETA = 1e6
DIT_DIM, DIT_HEADS, DIT_FF, DIT_CONV_K, DIT_CONV_GROUPS = 1024, 16, 2, 31, 16
HIFT_BASE, UPSAMPLE, UP_KERNELS = 512, [8, 5, 3], [16, 11, 7]
RES_KERNELS, RES_DILATIONS, SOURCE_KERNELS = [3, 7, 11], [1, 3, 5], [7, 7, 11]
HARMONICS = 9
STOP_LOGIT = -1000.0
# Above this many bytes of weights, a file keeps them in external data (protobuf's limit is 2 GiB).
EXTERNAL_BYTES = 1_800_000_000


class Real(graphs.Graph):
    """A graph computing in f32, or in f16 (weights stored in f16) with f32 inputs and outputs."""

    def __init__(self, name, half=False, seed=0):
        super().__init__(name, half, seed)
        self.ft = F16 if half else F32
        self.np = np.float16 if half else np.float32

    def weight(self, array, hint="w"):
        return self.const(np.asarray(array, dtype=self.np), hint)

    def rand(self, shape, std, hint="w"):
        return self.weight(self.rng.standard_normal(shape, dtype=np.float32) * np.float32(std), hint)

    def scalar(self, value):
        return self.const(np.array(value, dtype=self.np), "s")

    def fin(self, name, shape, elem=F32):
        """A float input, in the compute type."""
        self.input(name, elem, shape)
        return self.op("Cast", [name], to=self.ft) if elem != self.ft else name

    def fout(self, value, name, shape, elem=F32):
        """A float output of `elem` from a compute-type value."""
        if elem != self.ft:
            self.op("Cast", [value], outputs=[name], to=elem)
        else:
            self.op("Identity", [value], outputs=[name])
        self.output(name, elem, shape)

    def linear(self, x, n_in, n_out, std=None, bias=True):
        y = self.op("MatMul", [x, self.rand((n_in, n_out), std or 1 / np.sqrt(n_in))])
        return self.op("Add", [y, self.rand((n_out,), 0.02)]) if bias else y

    def conv(self, x, c_in, c_out, k, left=0, right=0, stride=1, dilation=1, group=1, std=None, bias=True):
        if left or right:
            x = self.op("Pad", [x, self.ints([0, 0, left, 0, 0, right])], mode="constant")
        w = self.rand((c_out, c_in // group, k), std or 1 / np.sqrt(c_in // group * k))
        inputs = [x, w] + ([self.rand((c_out,), 0.02)] if bias else [])
        return self.op("Conv", inputs, strides=[stride], dilations=[dilation], group=group)

    def silu(self, x):
        return self.op("Mul", [x, self.op("Sigmoid", [x])])


def save(model, path):
    size = sum(len(t.raw_data) for t in model.graph.initializer)
    if size > EXTERNAL_BYTES:
        onnx.save_model(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                        location=path.name + ".data", size_threshold=1024)
    else:
        onnx.save_model(model, str(path))
    return size


# ---------------------------------------------------------------------------------------------
# LLM

def gather_embedding(name, in_name, out_name, rows, half, seed):
    g = Real(name, half, seed)
    ids = g.input(in_name, I64, ["batch", "seq"])
    e = g.op("Gather", [g.rand((rows, HIDDEN), 0.5), ids], axis=0)
    g.fout(e, out_name, ["batch", "seq", HIDDEN])
    return g.model()


def rms_norm(g, x, width):
    ms = g.op("ReduceMean", [g.op("Mul", [x, x])], axes=[-1], keepdims=1)
    inv = g.op("Reciprocal", [g.op("Sqrt", [g.op("Add", [ms, g.scalar(1e-6)])])])
    return g.op("Mul", [g.op("Mul", [x, inv]), g.weight(np.ones(width))])


def rope_tables(g, pos, head):
    """cos, sin [B, 1, S, head] of positions pos [B, S] (f32)."""
    inv = (1.0 / ROPE_THETA ** (np.arange(0, head, 2) / head)).astype(np.float32)
    angles = g.op("Mul", [g.op("Unsqueeze", [pos, g.ints([2])]), g.const(inv, "inv_freq")])  # [B,S,head/2]
    angles = g.op("Concat", [angles, angles], axis=2)
    cos = g.op("Unsqueeze", [g.op("Cos", [angles]), g.ints([1])])
    sin = g.op("Unsqueeze", [g.op("Sin", [angles]), g.ints([1])])
    if g.half:
        cos, sin = g.op("Cast", [cos], to=F16), g.op("Cast", [sin], to=F16)
    return cos, sin


def rotate(g, x, cos, sin, head):
    """x·cos + rotate_half(x)·sin, x [..., head]."""
    first = g.op("Slice", [x, g.ints([0]), g.ints([head // 2]), g.ints([-1])])
    second = g.op("Slice", [x, g.ints([head // 2]), g.ints([head]), g.ints([-1])])
    rotated = g.op("Concat", [g.op("Neg", [second]), first], axis=-1)
    return g.op("Add", [g.op("Mul", [x, cos]), g.op("Mul", [rotated, sin])])


def split_heads(g, x, heads):
    """[B, S, heads·64] → [B, heads, S, 64]."""
    return g.op("Transpose", [g.op("Reshape", [x, g.ints([0, 0, heads, HEAD])])], perm=[0, 2, 1, 3])


def backbone(decode, half, layers):
    """llm_backbone_initial / _decode: Qwen2 layers over inputs_embeds with the stacked KV cache."""
    kv_type = F16 if half else F32
    g = Real("llm_backbone_decode" if decode else "llm_backbone_initial", half, seed=100)
    seq = 1 if decode else "seq"
    x = g.fin("inputs_embeds", ["batch", seq, HIDDEN])
    mask = g.input("attention_mask", F32, ["batch", "total" if decode else "seq"])
    past = g.input("past_key_values", kv_type, [2 * layers, "batch", 2, "past", HEAD]) if decode else None
    one = g.const(np.array(1.0, np.float32), "one")
    if decode:
        pos = g.op("Sub", [g.op("ReduceSum", [mask, g.ints([1])], keepdims=1), one])  # [B,1]
    else:
        pos = g.op("Sub", [g.op("CumSum", [mask, g.const(np.array(1, dtype=np.int64))]), one])  # [B,S]
    cos, sin = rope_tables(g, pos, HEAD)
    # Additive mask [B, 1, 1, S, T]: padding, and (prefill) causal.
    bias = g.op("Mul", [g.op("Sub", [mask, one]), g.const(np.array(1e4, np.float32))])
    bias = g.op("Unsqueeze", [bias, g.ints([1, 2, 3])])
    if not decode:
        total = g.op("Gather", [g.op("Shape", [mask]), g.const(np.array(1, dtype=np.int64))])
        slots = g.op("Range", [g.const(np.array(0, dtype=np.int64)), total, g.const(np.array(1, dtype=np.int64))])
        later = g.op("Cast", [g.op("Greater", [g.op("Unsqueeze", [slots, g.ints([0])]),
                                               g.op("Unsqueeze", [slots, g.ints([1])])])], to=F32)
        bias = g.op("Add", [bias, g.op("Mul", [later, g.const(np.array(-1e4, np.float32))])])
    if half:
        bias = g.op("Cast", [bias], to=F16)
    group = HEADS // KV_HEADS
    kv_out = []
    for layer in range(layers):
        h = rms_norm(g, x, HIDDEN)
        q = rotate(g, split_heads(g, g.linear(h, HIDDEN, HEADS * HEAD, 0.02), HEADS), cos, sin, HEAD)
        k = rotate(g, split_heads(g, g.linear(h, HIDDEN, KV_HEADS * HEAD, 0.02), KV_HEADS), cos, sin, HEAD)
        v = split_heads(g, g.linear(h, HIDDEN, KV_HEADS * HEAD, 0.02), KV_HEADS)
        if decode:
            for kind, new in ((0, k), (1, v)):
                old = g.op("Gather", [past, g.const(np.array(2 * layer + kind, dtype=np.int64))], axis=0)
                full = g.op("Concat", [old, new], axis=2)
                if kind == 0:
                    k = full
                else:
                    v = full
        kv_out += [g.op("Unsqueeze", [k, g.ints([0])]), g.op("Unsqueeze", [v, g.ints([0])])]
        # GQA: query heads j·7 … j·7+6 read KV head j.
        q5 = g.op("Reshape", [q, g.ints([0, KV_HEADS, group, -1, HEAD])])
        k5 = g.op("Unsqueeze", [k, g.ints([2])])
        v5 = g.op("Unsqueeze", [v, g.ints([2])])
        scores = g.op("Mul", [g.op("MatMul", [q5, g.op("Transpose", [k5], perm=[0, 1, 2, 4, 3])]), g.scalar(0.125)])
        attn = g.op("Softmax", [g.op("Add", [scores, bias])], axis=-1)
        ctx = g.op("Reshape", [g.op("MatMul", [attn, v5]), g.ints([0, HEADS, -1, HEAD])])
        ctx = g.op("Reshape", [g.op("Transpose", [ctx], perm=[0, 2, 1, 3]), g.ints([0, 0, HEADS * HEAD])])
        x = g.op("Add", [x, g.linear(ctx, HEADS * HEAD, HIDDEN, 0.02, bias=False)])
        h = rms_norm(g, x, HIDDEN)
        gate = g.linear(h, HIDDEN, MLP, 0.02, bias=False)
        up = g.linear(h, HIDDEN, MLP, 0.02, bias=False)
        x = g.op("Add", [x, g.linear(g.op("Mul", [g.silu(gate), up]), MLP, HIDDEN, 0.02, bias=False)])
    kv_name = "new_past_key_values" if decode else "past_key_values"
    stacked = g.op("Concat", kv_out, axis=0)
    hidden = rms_norm(g, x, HIDDEN)
    g.fout(hidden, "hidden_states", ["batch", seq, HIDDEN])
    g.fout(stacked, kv_name, [2 * layers, "batch", 2, "total" if decode else "seq", HEAD], elem=kv_type)
    return g.model()


def llm_decoder(half):
    g = Real("llm_decoder", half, seed=101)
    h = g.op("Squeeze", [g.fin("hidden_state", ["batch", 1, HIDDEN]), g.ints([1])])
    bias = np.zeros(graphs.VOCAB_OUT, np.float32)
    bias[graphs.SPEECH:] = STOP_LOGIT  # stop ids never drawn: decoding runs to max_len
    logits = g.op("Add", [g.op("MatMul", [h, g.rand((HIDDEN, graphs.VOCAB_OUT), 0.1)]), g.weight(bias)])
    g.fout(logits, "logits", ["batch", graphs.VOCAB_OUT])
    return g.model()


# ---------------------------------------------------------------------------------------------
# Flow

def flow_token_embedding(half):
    g = Real("flow_token_embedding", half, seed=102)
    tok = g.input("token", I64, ["batch", "seq"])
    g.fout(g.op("Gather", [g.rand((graphs.SPEECH, 80), 1.0), tok], axis=0), "embedded", ["batch", "seq", 80])
    return g.model()


def flow_pre_lookahead(half):
    """PreLookaheadLayer(80, 1024, 3): conv k 4 looking 3 right, leaky ReLU, conv k 3 causal, residual; ×2."""
    g = Real("flow_pre_lookahead", half, seed=103)
    e = g.fin("token_embedded", ["batch", "seq", 80])
    t = g.op("Transpose", [e], perm=[0, 2, 1])
    h = g.op("LeakyRelu", [g.conv(t, 80, 1024, 4, right=3)], alpha=0.01)
    h = g.conv(h, 1024, 80, 3, left=2, std=0.02)
    h = g.op("Add", [e, g.op("Transpose", [h], perm=[0, 2, 1])])
    h4 = g.op("Unsqueeze", [h, g.ints([2])])
    g.fout(g.op("Reshape", [g.op("Concat", [h4, h4], axis=2), g.ints([0, -1, 80])]), "h", ["batch", "seq2", 80])
    return g.model()


def flow_speaker_projection(half):
    g = Real("flow_speaker_projection", half, seed=104)
    x = g.fin("embedding", ["batch", 192])
    g.fout(g.linear(x, 192, 80), "projected", ["batch", 80])
    return g.model()


def layer_norm(g, x, width):
    return g.op("LayerNormalization", [x, g.weight(np.ones(width)), g.weight(np.zeros(width))], axis=-1, epsilon=1e-6)


def estimator(half, depth):
    """The DiT (cosyvoice3.yaml: dim 1024, depth 22, heads 16, dim_head 64, ff_mult 2)."""
    d = DIT_DIM
    g = Real("flow_decoder_estimator", half, seed=105)
    x = g.fin("x", [2, 80, "T"])
    mask = g.input("mask", F32, [2, 1, "T"])
    mu = g.fin("mu", [2, 80, "T"])
    t = g.input("t", F32, [2])
    spks = g.fin("spks", [2, 80])
    cond = g.fin("cond", [2, 80, "T"])
    # Time: sinusoidal(256, scale 1000) → Linear → SiLU → Linear.
    freqs = np.exp(-np.log(10000.0) * np.arange(128) / 127).astype(np.float32)
    arg = g.op("Mul", [g.op("Unsqueeze", [g.op("Mul", [t, g.const(np.array(1000.0, np.float32))]), g.ints([1])]),
                       g.const(freqs, "freqs")])
    temb = g.op("Concat", [g.op("Sin", [arg]), g.op("Cos", [arg])], axis=1)
    if half:
        temb = g.op("Cast", [temb], to=F16)
    temb = g.linear(g.silu(g.linear(temb, 256, d)), d, d)  # [2, d]
    temb_act = g.silu(temb)
    # Input: Linear over [x, cond, mu, spks] (as four products), then the causal conv position embedding.
    rows = [g.op("Transpose", [v], perm=[0, 2, 1]) for v in (x, cond, mu)]  # [2,T,80]
    h = g.op("Add", [g.linear(rows[0], 80, d, bias=False), g.linear(rows[1], 80, d, bias=False)])
    h = g.op("Add", [h, g.linear(rows[2], 80, d, bias=False)])
    h = g.op("Add", [h, g.op("Unsqueeze", [g.linear(spks, 80, d), g.ints([1])])])  # [2,T,d]
    c = g.op("Transpose", [h], perm=[0, 2, 1])
    for _ in range(2):
        c = g.conv(c, d, d, DIT_CONV_K, left=DIT_CONV_K - 1, group=DIT_CONV_GROUPS, std=0.02)
        c = g.op("Mul", [c, g.op("Tanh", [g.op("Softplus", [c])])])  # Mish
    h = g.op("Add", [h, g.op("Transpose", [c], perm=[0, 2, 1])])
    # Attention mask [2,1,1,T] from mask; RoPE over positions 0..T-1.
    bias = g.op("Mul", [g.op("Sub", [mask, g.const(np.array(1.0, np.float32))]), g.const(np.array(1e4, np.float32))])
    bias = g.op("Unsqueeze", [bias, g.ints([1])])
    if half:
        bias = g.op("Cast", [bias], to=F16)
    frames = g.op("Gather", [g.op("Shape", [x]), g.const(np.array(2, dtype=np.int64))])
    positions = g.op("Cast", [g.op("Range", [g.const(np.array(0, dtype=np.int64)), frames,
                                             g.const(np.array(1, dtype=np.int64))])], to=F32)
    cos, sin = rope_tables(g, g.op("Unsqueeze", [positions, g.ints([0])]), HEAD)  # [1,1,T,64]
    for _ in range(depth):
        mods = g.linear(temb_act, d, 6 * d, std=0.1 / np.sqrt(d))  # [2, 6d], small: gates near 0.1
        mods = g.op("Unsqueeze", [mods, g.ints([1])])
        shift_a, scale_a, gate_a, shift_m, scale_m, gate_m = g.op("Split", [mods], outputs=[g.fresh("mod") for _ in range(6)],
                                                                  axis=2)
        n = g.op("Add", [g.op("Mul", [layer_norm(g, h, d), g.op("Add", [scale_a, g.scalar(1.0)])]), shift_a])
        q = rotate(g, split_heads(g, g.linear(n, d, d), DIT_HEADS), cos, sin, HEAD)
        k = rotate(g, split_heads(g, g.linear(n, d, d), DIT_HEADS), cos, sin, HEAD)
        v = split_heads(g, g.linear(n, d, d), DIT_HEADS)
        scores = g.op("Mul", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), g.scalar(0.125)])
        attn = g.op("Softmax", [g.op("Add", [scores, bias])], axis=-1)
        ctx = g.op("Transpose", [g.op("MatMul", [attn, v])], perm=[0, 2, 1, 3])
        ctx = g.linear(g.op("Reshape", [ctx, g.ints([0, 0, d])]), d, d)
        h = g.op("Add", [h, g.op("Mul", [gate_a, ctx])])
        n = g.op("Add", [g.op("Mul", [layer_norm(g, h, d), g.op("Add", [scale_m, g.scalar(1.0)])]), shift_m])
        ff = g.linear(n, d, DIT_FF * d)
        cube = g.op("Mul", [ff, g.op("Mul", [ff, ff])])
        inner = g.op("Mul", [g.op("Add", [ff, g.op("Mul", [cube, g.scalar(0.044715)])]), g.scalar(0.7978845608)])
        ff = g.op("Mul", [g.op("Mul", [ff, g.scalar(0.5)]), g.op("Add", [g.op("Tanh", [inner]), g.scalar(1.0)])])  # GELU (tanh)
        h = g.op("Add", [h, g.op("Mul", [gate_m, g.linear(ff, DIT_FF * d, d)])])
    mods = g.op("Unsqueeze", [g.linear(temb_act, d, 2 * d, std=0.1 / np.sqrt(d)), g.ints([1])])
    scale, shift = g.op("Split", [mods], outputs=[g.fresh("mod"), g.fresh("mod")], axis=2)
    n = g.op("Add", [g.op("Mul", [layer_norm(g, h, d), g.op("Add", [scale, g.scalar(1.0)])]), shift])
    out = g.op("Transpose", [g.linear(n, d, 80)], perm=[0, 2, 1])
    g.fout(out, "estimator_out", [2, 80, "T"])
    return g.model()


# ---------------------------------------------------------------------------------------------
# HiFT (f32 only, as in the export)

def hift_f0_predictor():
    g = Real("hift_f0_predictor", seed=106)
    mel = g.fin("mel", ["batch", 80, "frames"])
    h = g.op("Elu", [g.conv(mel, 80, 512, 4, right=3)])
    for _ in range(4):
        h = g.op("Elu", [g.conv(h, 512, 512, 3, left=2)])
    y = g.linear(g.op("Transpose", [h], perm=[0, 2, 1]), 512, 1)  # [B, M, 1]
    f0 = g.op("Add", [g.op("Mul", [g.op("Sigmoid", [y]), g.scalar(220.0)]), g.scalar(80.0)])  # in (80, 300) Hz
    g.fout(g.op("Squeeze", [f0, g.ints([2])]), "f0", ["batch", "frames"])
    return g.model()


def hift_source_generator():
    """SineGen2-like: f0 upsampled ×480, 9 harmonics' phases, sines, a linear merge and tanh."""
    g = Real("hift_source_generator", seed=107)
    f0 = g.fin("f0", ["batch", 1, "frames"])
    up = g.op("Reshape", [g.op("Expand", [g.op("Unsqueeze", [f0, g.ints([3])]), g.ints([1, 1, 1, 480])]),
                          g.ints([0, 1, -1])])  # [B,1,N]
    harmonics = g.const(np.arange(1, HARMONICS + 1, dtype=np.float32).reshape(1, HARMONICS, 1), "harmonics")
    step = g.op("Mul", [g.op("Mul", [up, harmonics]), g.scalar(2 * np.pi / 24000)])  # [B,9,N]
    sines = g.op("Mul", [g.op("Sin", [g.op("CumSum", [step, g.const(np.array(2, dtype=np.int64))])]), g.scalar(0.1)])
    merged = g.op("MatMul", [g.op("Transpose", [sines], perm=[0, 2, 1]), g.rand((HARMONICS, 1), 0.3)])
    g.fout(g.op("Transpose", [g.op("Tanh", [merged])], perm=[0, 2, 1]), "source", ["batch", 1, "samples"])
    return g.model()


def snake(g, x, channels):
    alpha = g.weight(g.rng.uniform(0.5, 1.5, (1, channels, 1)))
    s = g.op("Sin", [g.op("Mul", [x, alpha])])
    return g.op("Add", [x, g.op("Mul", [g.op("Mul", [s, s]), g.op("Reciprocal", [alpha])])])


def resblock(g, x, channels, k):
    """ResBlock (causal): per dilation, Snake → conv(k, d) → Snake → conv(k, 1) → residual."""
    for d in RES_DILATIONS:
        y = g.conv(snake(g, x, channels), channels, channels, k, left=(k - 1) * d, dilation=d, std=0.3 / np.sqrt(channels * k))
        y = g.conv(snake(g, y, channels), channels, channels, k, left=k - 1, std=0.3 / np.sqrt(channels * k))
        x = g.op("Add", [x, y])
    return x


def hift_decoder():
    g = Real("hift_decoder", seed=108)
    mel = g.fin("mel", ["batch", 80, "frames"])
    src = g.fin("source_stft", ["batch", 18, "stft_frames"])
    x = g.conv(mel, 80, HIFT_BASE, 5, right=4)  # conv_pre, 4 frames of right context
    down_rates = list(np.cumprod([1] + UPSAMPLE[::-1][:-1]))[::-1]  # 15, 3, 1
    ch = HIFT_BASE
    for i, (u, k) in enumerate(zip(UPSAMPLE, UP_KERNELS)):
        out = ch // 2
        x = g.op("LeakyRelu", [x], alpha=0.1)
        x = g.op("Reshape", [g.op("Expand", [g.op("Unsqueeze", [x, g.ints([3])]), g.ints([1, 1, 1, u])]),
                             g.ints([0, ch, -1])])  # nearest upsample ×u
        x = g.conv(x, ch, out, k, left=k - 1)
        if i == len(UPSAMPLE) - 1:
            x = g.op("Pad", [x, g.ints([0, 0, 1, 0, 0, 0])], mode="reflect")
        r = int(down_rates[i])
        si = g.conv(src, 18, out, 1) if r == 1 else g.conv(src, 18, out, 2 * r, left=r - 1, stride=r)
        x = g.op("Add", [x, resblock(g, si, out, SOURCE_KERNELS[i])])
        xs = None
        for kr in RES_KERNELS:
            y = resblock(g, x, out, kr)
            xs = y if xs is None else g.op("Add", [xs, y])
        x = g.op("Mul", [xs, g.scalar(1.0 / len(RES_KERNELS))])
        ch = out
    x = g.conv(g.op("LeakyRelu", [x], alpha=0.01), ch, 18, 7, left=6, std=0.3 / np.sqrt(ch * 7))
    mag = g.op("Exp", [g.op("Slice", [x, g.ints([0]), g.ints([9]), g.ints([1])])])
    phase = g.op("Sin", [g.op("Slice", [x, g.ints([9]), g.ints([18]), g.ints([1])])])
    g.fout(mag, "magnitude", ["batch", 9, "stft_frames"])
    g.fout(phase, "phase", ["batch", 9, "stft_frames"])
    return g.model()


# ---------------------------------------------------------------------------------------------

def write(out, variants, layers, depth, log=print):
    out.mkdir(parents=True, exist_ok=True)
    from tools.cosyvoice3 import make_fixtures
    make_fixtures.train_tokenizer(out)
    jobs = {
        "campplus.onnx": graphs.campplus,
        "speech_tokenizer_v3.onnx": graphs.speech_tokenizer,
        "text_embedding_fp32.onnx": lambda: gather_embedding("text_embedding", "input_ids", "embeddings", TEXT_VOCAB, False, 109),
        "hift_f0_predictor_fp32.onnx": hift_f0_predictor,
        "hift_source_generator_fp32.onnx": hift_source_generator,
        "hift_decoder_fp32.onnx": hift_decoder,
    }
    for variant in variants:
        half = variant == "fp16"
        jobs.update({
            f"llm_speech_embedding_{variant}.onnx":
                lambda half=half: gather_embedding("llm_speech_embedding", "token", "embedded", graphs.VOCAB_OUT, half, 110),
            f"llm_backbone_initial_{variant}.onnx": lambda half=half: backbone(False, half, layers),
            f"llm_backbone_decode_{variant}.onnx": lambda half=half: backbone(True, half, layers),
            f"llm_decoder_{variant}.onnx": lambda half=half: llm_decoder(half),
            f"flow_token_embedding_{variant}.onnx": lambda half=half: flow_token_embedding(half),
            f"flow_pre_lookahead_{variant}.onnx": lambda half=half: flow_pre_lookahead(half),
            f"flow_speaker_projection_{variant}.onnx": lambda half=half: flow_speaker_projection(half),
            f"flow.decoder.estimator.{variant}.onnx": lambda half=half: estimator(half, depth),
        })
    total = 0
    for name, make in jobs.items():
        start = time.time()
        model = make()
        size = save(model, out / name)
        del model
        total += size
        log(f"  {name}: {size / 1e6:.0f} MB of weights, {time.time() - start:.1f} s")
    log(f"  total {total / 1e9:.2f} GB in {out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--layers", type=int, default=24, help="backbone layers (24 in the real model)")
    parser.add_argument("--depth", type=int, default=22, help="DiT blocks (22 in the real model)")
    parser.add_argument("--variants", default="fp32,fp16")
    args = parser.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    for v in variants:
        if v not in ("fp32", "fp16"):
            parser.error(f"unknown variant {v!r} (fp32, fp16)")
    out = Path(args.outdir)
    repo = Path(__file__).resolve().parents[2]
    if out.resolve().is_relative_to(repo):
        parser.error(f"{out} is inside the repository; the weights are gigabytes and must not be committed")
    write(out, variants, args.layers, args.depth, log=lambda s: print(s, file=sys.stderr))


if __name__ == "__main__":
    main()
