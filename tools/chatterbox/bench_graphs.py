#!/usr/bin/env python3
"""Real-size Chatterbox Turbo graphs with random weights, for the benchmark (issue #21).

Usage: bench_graphs.py OUTDIR [--variant fp32|q4f16] [--layers 24]

Writes OUTDIR/onnx/{speech_encoder,embed_tokens,language_model,conditional_decoder}{suffix}.onnx, each
with its `.onnx_data` sidecar as in ResembleAI/chatterbox-turbo-ONNX, and a toy tokenizer.json at the
root (so the directory is a model repository; the benchmark feeds token ids). Names, dtypes and
shapes are graphs.py's (tools/chatterbox/README.md); the compute is:
- language_model: GPT-2 medium at its real size (24 layers, 16 heads × 64, width 1024, MLP 4096,
  tanh GELU, LayerNorm, learned positions 8196 × 1024, head 1024 → 6563). START and STOP get a −10⁴
  bias, so greedy decoding never stops and writes every step's token (the benchmark needs N steps).
- embed_tokens: one 50276 × 1024 table (GPT-2's vocabulary with Turbo's added tokens).
- speech_encoder and conditional_decoder: stand-ins of realistic cost (the real ones cannot be had
  here). See "Benchmark graphs" in tools/chatterbox/README.md for the sizes and the reasons.
The q4f16 variant: every language-model MatMul is com.microsoft MatMulNBits (4 bits, block 32,
random codes and scales) with f32 activations; other weights stored f16 (cast to f32 inside); the
KV cache and logits are f16, every other input and output f32 (graphs.py's q4f16 layout).

Random weights are made on the fly (2.2 GB fp32, 0.7 GB q4f16, about 20 s): write OUTDIR
outside the repository; it is never committed.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import helper

from tools.chatterbox import graphs
from tools.chatterbox.graphs import F16, F32, I64

LAYERS, HEADS, HEAD_DIM = 24, 16, 64
WIDTH, MLP = HEADS * HEAD_DIM, 4096
POSITIONS, TEXT_VOCAB = 8196, 50276
BLOCK = 32  # MatMulNBits block size
# Speech encoder stand-in: 25 Hz frames through transformer blocks at width 1024.
ENCODER_LAYERS = 6
# Conditional decoder stand-in: flow part (CFG pair, residual conv k 3 at 1024 channels, 50 Hz) and a
# HiFiGAN-style generator at HiFT's channel counts (50 Hz mel → 6 kHz → ×4 samples = 24 kHz).
FLOW_CHANNELS, FLOW_BLOCKS = 1024, 24
HIFI_BASE, UPSAMPLE, UP_KERNELS = 512, [8, 5, 3], [16, 11, 7]
RES_KERNELS, RES_DILATIONS, SOURCE_KERNELS = [3, 7, 11], [1, 3, 5], [7, 7, 11]
HOP = 4
BLOCKED = -1e4


class Big(graphs.Graph):
    """graphs.Graph with random weights and the real layers' helpers; `q4` makes MatMuls MatMulNBits."""

    def __init__(self, name, half=False, seed=0, q4=False):
        super().__init__(name, half, seed)
        self.q4 = q4
        self.macs = 0.0  # multiply-adds per unit of the rate given to linear/conv (see decoder_macs)

    def rand(self, shape, std, hint="w"):
        return self.weight(self.rng.standard_normal(shape, dtype=np.float32) * np.float32(std), hint)

    def linear(self, x, n_in, n_out, std=0.02, bias=True, rate=0.0):
        self.macs += n_in * n_out * rate
        if self.q4:
            blocks = n_in // BLOCK
            codes = self.const(self.rng.integers(0, 256, (n_out, blocks, BLOCK // 2), dtype=np.uint8), "q4")
            scales = self.const(np.full(n_out * blocks, std / 4.6, np.float32), "scales")
            y = self.op("MatMulNBits", [x, codes, scales], domain="com.microsoft", K=n_in, N=n_out, bits=4, block_size=BLOCK)
        else:
            y = self.op("MatMul", [x, self.rand((n_in, n_out), std)])
        return self.op("Add", [y, self.rand((n_out,), 0.02)]) if bias else y

    def conv(self, x, c_in, c_out, k, dilation=1, rate=0.0, std=None):
        self.macs += c_in * c_out * k * rate
        pad = (k - 1) * dilation // 2
        w = self.rand((c_out, c_in, k), std or 1 / np.sqrt(c_in * k))
        return self.op("Conv", [x, w, self.rand((c_out,), 0.02)], dilations=[dilation], pads=[pad, pad])

    def layer_norm(self, x):
        return self.op("LayerNormalization", [x, self.weight(np.ones(WIDTH)), self.weight(np.zeros(WIDTH))], axis=-1, epsilon=1e-5)

    def gelu(self, x):
        """GPT-2's gelu_new: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))."""
        cube = self.op("Mul", [x, self.op("Mul", [x, x])])
        inner = self.op("Mul", [self.op("Add", [x, self.op("Mul", [cube, self.scalar(0.044715)])]), self.scalar(0.7978845608)])
        return self.op("Mul", [self.op("Mul", [x, self.scalar(0.5)]), self.op("Add", [self.op("Tanh", [inner]), self.scalar(1.0)])])

    def heads(self, x):
        """[B, S, 1024] → [B, 16, S, 64]."""
        return self.op("Transpose", [self.op("Reshape", [x, self.ints([0, 0, HEADS, HEAD_DIM])])], perm=[0, 2, 1, 3])

    def model(self):
        model = super().model()
        if self.q4:
            model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
        return model


def block(g, x, bias, past=None, kv_type=F32):
    """One GPT-2 block (pre-LayerNorm). past: (key, value) inputs → also returns the presents."""
    qkv = g.linear(g.layer_norm(x), WIDTH, 3 * WIDTH)
    q, k, v = g.op("Split", [qkv, g.ints([WIDTH] * 3)], outputs=[g.fresh("q"), g.fresh("k"), g.fresh("v")], axis=-1)
    q, k, v = g.heads(q), g.heads(k), g.heads(v)
    presents = None
    if past is not None:
        if kv_type != F32:
            k, v = g.op("Cast", [k], to=kv_type), g.op("Cast", [v], to=kv_type)
        k = g.op("Concat", [past[0], k], axis=2)
        v = g.op("Concat", [past[1], v], axis=2)
        presents = (k, v)
        if kv_type != F32:
            k, v = g.op("Cast", [k], to=F32), g.op("Cast", [v], to=F32)
    scores = g.op("Mul", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), g.scalar(HEAD_DIM ** -0.5)])
    if bias is not None:
        scores = g.op("Add", [scores, bias])
    ctx = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
    ctx = g.op("Reshape", [g.op("Transpose", [ctx], perm=[0, 2, 1, 3]), g.ints([0, 0, WIDTH])])
    x = g.op("Add", [x, g.linear(ctx, WIDTH, WIDTH)])
    m = g.linear(g.gelu(g.linear(g.layer_norm(x), WIDTH, MLP)), MLP, WIDTH)
    return g.op("Add", [x, m]), presents


# ---------------------------------------------------------------------------------------------

def language_model(half, layers):
    kv_type = F16 if half else F32
    g = Big("language_model", half, seed=301, q4=half)
    emb = g.input("inputs_embeds", F32, ["batch_size", "sequence_length", WIDTH])
    mask = g.input("attention_mask", I64, ["batch_size", "total_sequence_length"])
    pos = g.input("position_ids", I64, ["batch_size", "sequence_length"])
    pasts = [(g.input(f"past_key_values.{i}.key", kv_type, ["batch_size", HEADS, "past_sequence_length", HEAD_DIM]),
              g.input(f"past_key_values.{i}.value", kv_type, ["batch_size", HEADS, "past_sequence_length", HEAD_DIM]))
             for i in range(layers)]
    x = g.op("Add", [emb, g.op("Gather", [g.rand((POSITIONS, WIDTH), 0.01), pos], axis=0)])
    # Additive bias [B, 1, S, T]: −10⁴ where the mask is 0 or the slot is after the row (causal).
    s_len, p_len = g.dim(emb, 1), g.dim(pasts[0][0], 2)
    t_len = g.op("Add", [s_len, p_len])
    slots = g.op("Range", [g.i64(0), g.op("Squeeze", [t_len, g.ints([0])]), g.i64(1)])
    rows = g.op("Add", [g.op("Range", [g.i64(0), g.op("Squeeze", [s_len, g.ints([0])]), g.i64(1)]), p_len])
    later = g.op("Cast", [g.op("Greater", [g.op("Unsqueeze", [slots, g.ints([0])]), g.op("Unsqueeze", [rows, g.ints([1])])])], to=F32)
    masked = g.op("Unsqueeze", [g.op("Sub", [g.scalar(1.0), g.op("Cast", [mask], to=F32)]), g.ints([1, 2])])
    bias = g.op("Mul", [g.op("Min", [g.op("Add", [later, masked]), g.scalar(1.0)]), g.scalar(BLOCKED)])
    presents = []
    for past in pasts:
        x, present = block(g, x, bias, past, kv_type)
        presents += present
    head_bias = g.rng.normal(0, 0.02, graphs.VOCAB).astype(np.float32)
    head_bias[[graphs.START, graphs.STOP]] = BLOCKED  # never written: every step gives a speech token
    logits = g.op("Add", [g.linear(g.layer_norm(x), WIDTH, graphs.VOCAB, bias=False), g.weight(head_bias)])
    g.op("Cast", [logits], outputs=["logits"], to=F16) if half else g.op("Identity", [logits], outputs=["logits"])
    g.output("logits", F16 if half else F32, ["batch_size", "sequence_length", graphs.VOCAB])
    for i, (k, v) in enumerate(zip(presents[::2], presents[1::2])):
        for kind, value in (("key", k), ("value", v)):
            g.op("Identity", [value], outputs=[f"present.{i}.{kind}"])
            g.output(f"present.{i}.{kind}", kv_type, ["batch_size", HEADS, "total_sequence_length", HEAD_DIM])
    return g.model()


def embed_tokens(half):
    g = Big("embed_tokens", half, seed=302)
    ids = g.input("input_ids", I64, ["batch_size", "sequence_length"])
    table = g.rng.standard_normal((TEXT_VOCAB, WIDTH), dtype=np.float32) * np.float32(0.02)
    # Gather first, then cast the rows (not the 50276-row table) in the half variant.
    rows = g.op("Gather", [g.const(table.astype(np.float16) if half else table, "wte"), ids], axis=0)
    g.op("Cast", [rows], outputs=["inputs_embeds"], to=F32) if half else g.op("Identity", [rows], outputs=["inputs_embeds"])
    g.output("inputs_embeds", F32, ["batch_size", "sequence_length", WIDTH])
    return g.model()


def speech_encoder(half):
    """Stand-in: the first 15 s in 960-sample frames (25 Hz) → 1024 → ENCODER_LAYERS blocks (full
    attention) → audio_features = [speaker row] ++ rows; audio_tokens = argmax of a 6561-way head over
    the first 10 s; speaker_embeddings from the mean row; speaker_features: 2 frames a token of the
    first 10 s (log energy of an 80-way projection of 480-sample frames)."""
    g = Big("speech_encoder", half, seed=303)
    x = g.input("audio_values", F32, ["batch_size", "num_samples"])
    n = g.dim(x, 1)

    def frames(seconds, size):
        count = g.op("Div", [g.op("Min", [n, g.ints([seconds * graphs.SAMPLE_RATE])]), g.i64(size)])
        cut = g.op("Slice", [x, g.ints([0]), g.op("Mul", [count, g.i64(size)]), g.ints([1])])
        return g.op("Reshape", [cut, g.op("Concat", [g.ints([0]), count, g.ints([size])], axis=0)]), count

    f15, _ = frames(graphs.ENC_SECONDS, graphs.TOKEN_SAMPLES)
    h = g.linear(f15, graphs.TOKEN_SAMPLES, WIDTH, std=1.0 / np.sqrt(graphs.TOKEN_SAMPLES))
    for _ in range(ENCODER_LAYERS):
        h, _ = block(g, h, None)
    h = g.layer_norm(h)
    pooled = g.op("ReduceMean", [h], axes=[1], keepdims=1)  # [B,1,1024]
    g.op("Concat", [g.linear(pooled, WIDTH, WIDTH), h], outputs=["audio_features"], axis=1)
    g.op("Squeeze", [g.linear(pooled, WIDTH, graphs.SPK_DIM, std=0.5), g.ints([1])], outputs=["speaker_embeddings"])
    n10 = g.op("Div", [g.op("Min", [n, g.ints([graphs.DEC_SECONDS * graphs.SAMPLE_RATE])]), g.i64(graphs.TOKEN_SAMPLES)])
    first10 = g.op("Slice", [h, g.ints([0]), n10, g.ints([1])])
    g.op("ArgMax", [g.linear(first10, WIDTH, graphs.SPEECH_CODES, std=0.5)], outputs=["audio_tokens"], axis=-1, keepdims=0)
    f10, _ = frames(graphs.DEC_SECONDS, graphs.TOKEN_SAMPLES // 2)
    f10 = g.op("Slice", [f10, g.ints([0]), g.op("Mul", [n10, g.i64(2)]), g.ints([1])])
    z = g.linear(f10, graphs.TOKEN_SAMPLES // 2, graphs.MEL, std=1.0 / np.sqrt(graphs.TOKEN_SAMPLES // 2))
    g.op("Log", [g.op("Add", [g.op("Mul", [z, z]), g.scalar(1e-5)])], outputs=["speaker_features"])
    g.output("audio_features", F32, ["batch_size", "feature_length", WIDTH])
    g.output("audio_tokens", I64, ["batch_size", "prompt_token_length"])
    g.output("speaker_embeddings", F32, ["batch_size", graphs.SPK_DIM])
    g.output("speaker_features", F32, ["batch_size", "prompt_feature_length", graphs.MEL])
    return g.model()


def snake(g, x, channels):
    alpha = g.weight(g.rng.uniform(0.5, 1.5, (1, channels, 1)))
    s = g.op("Sin", [g.op("Mul", [x, alpha])])
    return g.op("Add", [x, g.op("Mul", [g.op("Mul", [s, s]), g.op("Reciprocal", [alpha])])])


def resblock(g, x, channels, k, rate):
    """HiFiGAN ResBlock1 with Snake: per dilation, snake → conv(k, d) → snake → conv(k) → residual."""
    for d in RES_DILATIONS:
        y = g.conv(snake(g, x, channels), channels, channels, k, d, rate, std=0.3 / np.sqrt(channels * k))
        y = g.conv(snake(g, y, channels), channels, channels, k, 1, rate, std=0.3 / np.sqrt(channels * k))
        x = g.op("Add", [x, y])
    return x


def conditional_decoder(half):
    """Stand-in of S3Gen (flow-matching mel decoder + HiFT) with comparable multiply-adds per second
    of audio (tools/chatterbox/README.md, "Benchmark graphs"). Tokens (prompt ++ speech) → 512-wide
    embedding + speaker → ×2 to 50 Hz → 1024 channels → a CFG pair (batch 2) through FLOW_BLOCKS
    residual SiLU + conv k 3 blocks → 80-channel mel (1.7·cond − 0.7·uncond); the prompt's frames
    (F = speaker_features frames) dropped; then HiFT's generator: conv_pre 80 → 512 k 7, three
    stages (ConvTranspose ×8/×5/×3 to 256/128/64 channels, a source-branch-sized resblock k 7/7/11
    and the three resblocks k 3/7/11, dilations 1/3/5, Snake), conv_post → 4 samples a frame."""
    g = Big("conditional_decoder", half, seed=304)
    tokens = g.input("speech_tokens", I64, ["batch_size", "num_speech_tokens"])
    spk = g.input("speaker_embeddings", F32, ["batch_size", graphs.SPK_DIM])
    feats = g.input("speaker_features", F32, ["batch_size", "feature_dim", graphs.MEL])
    mel_rate = 2 * 25  # frames per second of audio (applied to prompt frames too)
    e = g.op("Gather", [g.rand((graphs.SPEECH_CODES, 512), 1.0), g.op("Mod", [tokens, g.i64(graphs.SPEECH_CODES)])], axis=0)
    e = g.op("Add", [e, g.op("Unsqueeze", [g.linear(spk, graphs.SPK_DIM, 512, std=0.05), g.ints([1])])])
    e = g.op("Transpose", [e], perm=[0, 2, 1])  # [B,512,K]
    e = g.op("Reshape", [g.op("Expand", [g.op("Unsqueeze", [e, g.ints([3])]), g.ints([1, 1, 1, 2])]), g.ints([0, 512, -1])])
    h = g.conv(e, 512, FLOW_CHANNELS, 3, rate=mel_rate)
    h = g.op("Concat", [h, g.op("Mul", [h, g.scalar(0.5)])], axis=0)  # the CFG pair
    for _ in range(FLOW_BLOCKS):
        y = g.conv(g.op("Mul", [h, g.op("Sigmoid", [h])]), FLOW_CHANNELS, FLOW_CHANNELS, 3, rate=2 * mel_rate,
                   std=0.2 / np.sqrt(FLOW_CHANNELS * 3))
        h = g.op("Add", [h, y])
    mel2 = g.conv(h, FLOW_CHANNELS, graphs.MEL, 1, rate=2 * mel_rate)
    cond, uncond = g.op("Split", [mel2, g.ints([1, 1])], outputs=[g.fresh("cond"), g.fresh("uncond")], axis=0)
    mel = g.op("Sub", [g.op("Mul", [cond, g.scalar(1.7)]), g.op("Mul", [uncond, g.scalar(0.7)])])
    mel = g.op("Slice", [mel, g.dim(feats, 1), g.ints([2 ** 62]), g.ints([2])])  # drop the prompt's frames
    x = g.conv(mel, graphs.MEL, HIFI_BASE, 7, rate=mel_rate)
    ch, rate = HIFI_BASE, mel_rate
    for u, k, ks in zip(UPSAMPLE, UP_KERNELS, SOURCE_KERNELS):
        out, rate = ch // 2, rate * u
        g.macs += ch * out * k * rate / u
        w = g.rand((ch, out, k), 1 / np.sqrt(ch * k / u))
        x = g.op("ConvTranspose", [g.op("LeakyRelu", [x], alpha=0.1), w, g.rand((out,), 0.02)], strides=[u],
                 pads=[(k - u) // 2, (k - u) // 2])
        x = resblock(g, x, out, ks, rate)  # costs what the source branch's resblock costs
        xs = None
        for kr in RES_KERNELS:
            y = resblock(g, x, out, kr, rate)
            xs = y if xs is None else g.op("Add", [xs, y])
        x = g.op("Mul", [xs, g.scalar(1.0 / len(RES_KERNELS))])
        ch = out
    x = g.op("Tanh", [g.conv(g.op("LeakyRelu", [x], alpha=0.01), ch, HOP, 7, rate=rate, std=0.3 / np.sqrt(ch * 7))])
    g.op("Reshape", [g.op("Transpose", [x], perm=[0, 2, 1]), g.ints([0, -1])], outputs=["waveform"])
    g.output("waveform", F32, ["batch_size", "num_samples"])
    model = g.model()
    model.doc_string = f"{g.macs / 1e9:.1f} G multiply-adds per second of audio (flow counted over the audio's frames)"
    return model, g.macs


def write(out, variant, layers, log=print):
    half = variant == "q4f16"
    suffix = "_q4f16" if half else ""
    (out / "onnx").mkdir(parents=True, exist_ok=True)
    from tools.chatterbox import make_fixtures
    make_fixtures.make_tokenizer(out)
    jobs = {
        "speech_encoder": lambda: speech_encoder(half),
        "embed_tokens": lambda: embed_tokens(half),
        "language_model": lambda: language_model(half, layers),
        "conditional_decoder": lambda: conditional_decoder(half),
    }
    total = 0
    for stem, make in jobs.items():
        start = time.time()
        model = make()
        note = ""
        if isinstance(model, tuple):
            model, macs = model
            note = f", {macs / 1e9:.1f} G multiply-adds per second of audio"
        size = sum(len(t.raw_data) for t in model.graph.initializer)
        target = out / "onnx" / f"{stem}{suffix}.onnx"
        data = target.with_name(target.name + "_data")
        target.unlink(missing_ok=True)
        data.unlink(missing_ok=True)  # onnx appends to an existing sidecar
        onnx.save_model(model, str(target), save_as_external_data=True, all_tensors_to_one_file=True,
                        location=data.name, size_threshold=1024, convert_attribute=False)
        del model
        total += size
        log(f"  {target.name}: {size / 1e6:.0f} MB of weights{note}, {time.time() - start:.1f} s")
    log(f"  total {total / 1e9:.2f} GB in {out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--variant", default="fp32", choices=["fp32", "q4f16"])
    parser.add_argument("--layers", type=int, default=LAYERS, help="language-model layers (24 in the real model)")
    args = parser.parse_args()
    out = Path(args.outdir)
    repo = Path(__file__).resolve().parents[2]
    if out.resolve().is_relative_to(repo):
        parser.error(f"{out} is inside the repository; the weights are gigabytes and must not be committed")
    write(out, args.variant, args.layers, log=lambda s: print(s, file=sys.stderr))


if __name__ == "__main__":
    main()
