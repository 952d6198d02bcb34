"""NeuTTS Nano and a NeuCodec decoder stand-in at the real size with random weights, for the benchmark
(never committed).

    .venv/bin/python tools/neutts/bench_graphs.py OUTDIR [--layers 24] [--no-codec] [--int8]

Writes a model directory as `warble bench stages neutts --model-dir OUTDIR --codec OUTDIR/codec/model.onnx` and
tools/bench/neutts_bench.py read it:
- OUTDIR/source/{config.json, model.safetensors}: a random Nano checkpoint (bf16, as the published
  checkpoint stores its weights), converted by convert.py to OUTDIR/onnx/model.onnx (+ model.onnx_data,
  f32, about 0.9 GB). The configuration is Nano's as far as public metadata shows it (Llama, hidden 576,
  24 layers, 9 heads of 64, 3 KV heads, MLP 2304, vocab 194256, tied embeddings, RoPE theta 500000
  with linear scaling 32, RMSNorm eps 1e-5; 228,704,832 values): the published config.json could
  not be read from here, so check it against the real file when it can be had. Weights are normal
  with std 1/sqrt(fan-in) (norms 1), so that activations keep a sane range; their values mean nothing.
- OUTDIR/tokenizer.json: Nano's id layout ([3P], tools/neutts/README.md): byte-level BPE without
  merges padded to 128,000 entries, Llama-3's 256 special tokens at 128000.., the NeuTTS controls at
  128256.., `<|speech_0|>` .. `<|speech_65535|>` at 128262..193797, then the IPA glyphs of the
  benchmark's phonemes as single added tokens (the real file has 448 of them).
- OUTDIR/codec/model.onnx (+ .onnx_data, about 0.77 GB): a NeuCodec decoder stand-in of the real
  decoder's cost (`codec_decoder`; README "Benchmark"): codes int32 [1,1,F] -> f32 [1,1,F*480].
- with --int8: OUTDIR/onnx/model_int8.onnx (+ .onnx.data), onnxruntime.quantization.quantize_dynamic
  of the backbone (MatMul weights int8, per tensor), the tied head first rewritten as a MatMul over a
  transposed copy of the embedding (`write_int8` says why). Figures only: not what `warble models pull`
  makes.
"""
from __future__ import annotations

import json
import struct
import sys
import time
from pathlib import Path

import numpy as np
from onnx import TensorProto

from tools.neutts import convert
from tools.common.onnx_graph import Graph

NANO_CONFIG = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama",
    "vocab_size": 194256, "hidden_size": 576, "intermediate_size": 2304, "num_hidden_layers": 24,
    "num_attention_heads": 9, "num_key_value_heads": 3, "head_dim": 64, "hidden_act": "silu",
    "max_position_embeddings": 2048, "rms_norm_eps": 1e-5, "rope_theta": 500000.0,
    "rope_scaling": {"factor": 32.0, "rope_type": "linear", "type": "linear"},
    "attention_bias": False, "mlp_bias": False, "tie_word_embeddings": True,
    "bos_token_id": 128000, "eos_token_id": 128261, "pad_token_id": 128001, "torch_dtype": "bfloat16",
}


def tensors(config: dict):
    W, I, L = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
    D, H, KV = config["head_dim"], config["num_attention_heads"], config["num_key_value_heads"]
    yield "model.embed_tokens.weight", (config["vocab_size"], W)
    for i in range(L):
        p = f"model.layers.{i}"
        yield f"{p}.input_layernorm.weight", (W,)
        yield f"{p}.self_attn.q_proj.weight", (H * D, W)
        yield f"{p}.self_attn.k_proj.weight", (KV * D, W)
        yield f"{p}.self_attn.v_proj.weight", (KV * D, W)
        yield f"{p}.self_attn.o_proj.weight", (W, H * D)
        yield f"{p}.post_attention_layernorm.weight", (W,)
        yield f"{p}.mlp.gate_proj.weight", (I, W)
        yield f"{p}.mlp.up_proj.weight", (I, W)
        yield f"{p}.mlp.down_proj.weight", (W, I)
    yield "model.norm.weight", (W,)


def write_random_safetensors(path: str, config: dict, seed: int = 0) -> int:
    """bf16 safetensors (the upper 16 bits of f32 normals); returns the number of values."""
    rng = np.random.default_rng(seed)
    layout = list(tensors(config))
    header, offset = {}, 0
    for name, shape in layout:
        n = int(np.prod(shape)) * 2
        header[name] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [offset, offset + n]}
        offset += n
    header["__metadata__"] = {"format": "pt"}
    blob = json.dumps(header, separators=(",", ":")).encode()
    blob += b" " * ((-len(blob)) % 8)
    values = 0
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)))
        f.write(blob)
        for name, shape in layout:
            if name.endswith("norm.weight"):
                x = np.ones(shape, np.float32)
            else:
                x = rng.standard_normal(shape, dtype=np.float32) * np.float32(shape[-1] ** -0.5)
            f.write((x.view(np.uint32) >> 16).astype(np.uint16).tobytes())
            values += x.size
    return values


# -------------------------------------------------------------------------------------------------
# Tokenizer: Nano's id layout ([3P]) without its merges

BASE_VOCAB = 128000
LLAMA3_SPECIAL_COUNT = 256
NEUTTS_CONTROLS = ["<|TEXT_REPLACE|>", "<|TEXT_PROMPT_START|>", "<|TEXT_PROMPT_END|>", "<|SPEECH_REPLACE|>",
                   "<|SPEECH_GENERATION_START|>", "<|SPEECH_GENERATION_END|>"]
SPEECH_CODES = 65536
# The benchmark's request (tools/bench/neutts_bench.py and `warble bench stages neutts` use the same strings):
# the fixtures' reference transcript and the medium sentence, as espeak-ng 1.51 phonemizes them.
REF_PHONEMES = "sˌoʊ aɪ dʒˈʌst tɹˈaɪd ðɪs lˈɪɾəl spˈiːkɚ, ænd ɪt sˈaʊndz klˈiːn ænd kwˈɪk."
PHONEMES = "ðə kwˈɪk bɹˈaʊn fˈɑːks dʒˈʌmps ˌoʊvɚ ðə lˈeɪzi dˈɑːɡ, ðˈɛn ɪt ɹˈʌnz ˌɪntʊ ðə wˈʊdz."


def llama3_specials() -> list[str]:
    named = {0: "<|begin_of_text|>", 1: "<|end_of_text|>", 6: "<|start_header_id|>", 7: "<|end_header_id|>",
             8: "<|eom_id|>", 9: "<|eot_id|>", 10: "<|python_tag|>"}
    out, reserved = [], 0
    for i in range(LLAMA3_SPECIAL_COUNT):
        if i in named:
            out.append(named[i])
        else:
            out.append(f"<|reserved_special_token_{reserved}|>")
            reserved += 1
    return out


def write_tokenizer(out: Path) -> dict:
    """tokenizer.json with Nano's ids: BOS 128000, controls 128256.., speech 128262.., glyphs 193798..
    The BPE part has the 256 byte symbols and unreachable fillers to 128,000 entries and no merges, so
    ASCII phonemes encode as one id a byte (the real merges would join some)."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

    from tools.neutts import make_fixtures
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    vocab = {c: i for i, c in enumerate(alphabet)}
    for i in range(len(vocab), BASE_VOCAB):
        vocab[f"\u0100filler{i}"] = i
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(make_fixtures.LLAMA3_SPLIT), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    spec = json.loads(tok.to_str())
    glyphs = sorted({c for c in REF_PHONEMES + PHONEMES if ord(c) > 127} - set(vocab))
    names = llama3_specials() + NEUTTS_CONTROLS + [f"<|speech_{i}|>" for i in range(SPEECH_CODES)]
    added = [dict(id=BASE_VOCAB + i, content=n, single_word=False, lstrip=False, rstrip=False, normalized=False, special=True)
             for i, n in enumerate(names)]
    added += [dict(id=BASE_VOCAB + len(names) + i, content=g, single_word=False, lstrip=False, rstrip=False,
                   normalized=False, special=False) for i, g in enumerate(glyphs)]
    spec["added_tokens"] = added
    spec["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                 {"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {"<|begin_of_text|>": {"id": "<|begin_of_text|>", "ids": [BASE_VOCAB], "tokens": ["<|begin_of_text|>"]}}}
    (out / "tokenizer.json").write_text(json.dumps(spec, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    check = Tokenizer.from_file(str(out / "tokenizer.json"))
    assert check.token_to_id("<|SPEECH_GENERATION_END|>") == 128261 and check.token_to_id("<|speech_0|>") == 128262
    assert all(check.token_to_id(a["content"]) == a["id"] for a in added[::997]), "added-token ids were renumbered"
    return dict(tokenizer_size=check.get_vocab_size(), glyphs=len(glyphs))


# -------------------------------------------------------------------------------------------------
# NeuCodec decoder stand-in (neuphonic/neucodec at 2454f32: model.py NeuCodec.decode_code,
# codec_decoder_vocos.py CodecDecoderVocos / VocosBackbone / ISTFTHead, bs_roformer5.py
# TransformerBlock, onnx/onnx_ops.py OnnxISTFTHead as the ONNX export has it)

CODEC_DIM, CODEC_DEPTH, CODEC_HEADS, CODEC_MLP = 1024, 12, 16, 4096
FSQ_LEVELS, FSQ_DIM = 8, 2048          # ResidualFSQ(levels=[4]*8), project_out 8 -> 2048
HOP, N_FFT = 480, 1920                 # ISTFTHead(n_fft=hop*4)
FRAMES_PER_SECOND = 50


class CodecGraph(Graph):
    """tools/common/onnx_graph.py's builder (the one convert.py uses) with random weights and a multiply-add count
    per frame of audio (for the matrix products that run once per frame)."""

    def __init__(self):
        super().__init__("neucodec_decoder_standin", seed=22)
        self.macs_per_frame = 0.0

    def rand(self, shape, std):
        return self.const(self.rng.standard_normal(shape, dtype=np.float32) * np.float32(std), "w")

    def linear(self, x, n_in, n_out, std=None, bias=True):
        self.macs_per_frame += n_in * n_out
        y = self.op("MatMul", [x, self.rand((n_in, n_out), std if std is not None else n_in ** -0.5)])
        return self.op("Add", [y, self.rand((n_out,), 0.02)]) if bias else y

    def conv(self, x, c_in, c_out, k, std=None):
        self.macs_per_frame += c_in * c_out * k
        w = self.rand((c_out, c_in, k), std if std is not None else (c_in * k) ** -0.5)
        return self.op("Conv", [x, w, self.rand((c_out,), 0.02)], pads=[(k - 1) // 2, (k - 1) // 2])

    def silu(self, x):
        return self.op("Mul", [x, self.op("Sigmoid", [x])])

    def group_norm(self, x, channels, groups=32):
        """GroupNorm(32, eps 1e-6, affine) on [1, C, F] (opset 17 has no GroupNormalization)."""
        g = self.op("Reshape", [x, self.ints([0, groups, -1])])
        g = self.op("InstanceNormalization", [g, self.const(np.ones(groups, np.float32)), self.const(np.zeros(groups, np.float32))],
                    epsilon=1e-6)
        g = self.op("Reshape", [g, self.op("Shape", [x])])
        return self.op("Add", [self.op("Mul", [g, self.const(np.ones((channels, 1), np.float32))]),
                               self.const(np.zeros((channels, 1), np.float32))])

    def rms_norm(self, x):
        ms = self.op("ReduceMean", [self.op("Mul", [x, x])], axes=[-1], keepdims=1)
        return self.op("Mul", [x, self.op("Reciprocal", [self.op("Sqrt", [self.op("Add", [ms, self.scalar(1e-6)])])])])

    def resnet_block(self, x, c):
        h = self.conv(self.silu(self.group_norm(x, c)), c, c, 3, std=0.3 * (3 * c) ** -0.5)
        h = self.conv(self.silu(self.group_norm(h, c)), c, c, 3, std=0.3 * (3 * c) ** -0.5)
        return self.op("Add", [x, h])

    def transformer_block(self, x, cos, sin):
        d, heads = CODEC_DIM, CODEC_HEADS
        hd = d // heads
        qkv = self.linear(self.rms_norm(x), d, 3 * d, bias=False)
        q, k, v = self.op("Split", [qkv, self.ints([d] * 3)], outputs=[self.fresh("q"), self.fresh("k"), self.fresh("v")], axis=-1)

        def split_heads(t):
            return self.op("Transpose", [self.op("Reshape", [t, self.ints([0, 0, heads, hd])])], perm=[0, 2, 1, 3])

        def rope(t):  # rotate_half over the head's 64 dims (the rotary dim), positions 0..F-1
            a = self.op("Slice", [t, self.ints([0]), self.ints([hd // 2]), self.ints([-1])])
            b = self.op("Slice", [t, self.ints([hd // 2]), self.ints([hd]), self.ints([-1])])
            rot = self.op("Concat", [self.op("Neg", [b]), a], axis=-1)
            return self.op("Add", [self.op("Mul", [t, cos]), self.op("Mul", [rot, sin])])

        q, k, v = rope(split_heads(q)), rope(split_heads(k)), split_heads(v)
        scores = self.op("Mul", [self.op("MatMul", [q, self.op("Transpose", [k], perm=[0, 1, 3, 2])]), self.scalar(hd ** -0.5)])
        ctx = self.op("MatMul", [self.op("Softmax", [scores], axis=-1), v])
        ctx = self.op("Reshape", [self.op("Transpose", [ctx], perm=[0, 2, 1, 3]), self.ints([0, 0, d])])
        x = self.op("Add", [x, self.linear(ctx, d, d, std=0.3 * d ** -0.5, bias=False)])
        m = self.linear(self.silu(self.linear(self.rms_norm(x), d, CODEC_MLP, bias=False)), CODEC_MLP, d,
                        std=0.3 * CODEC_MLP ** -0.5, bias=False)
        return self.op("Add", [x, m])


def codec_decoder():
    """codes int32 [1,1,F] -> f32 [1,1,F*480] with the real decoder's layers at their widths: FSQ
    lookup (8 base-4 digits -> 2048), fc_post_a 2048 -> 1024, VocosBackbone (conv k7, 2 ResnetBlocks of
    two GroupNorm+SiLU+conv k3, 12 TransformerBlocks dim 1024 / 16 heads / RoPE 64 / MLP 4096, 2
    ResnetBlocks, LayerNorm), ISTFTHead (Linear 1024 -> 1922, exp/clip magnitude and cos/sin phase,
    the export's iSTFT as ConvTranspose1d with a [1922, 1, 1920] basis at stride 480, divided by the
    window envelope). The export trims n_fft/2 = 960 samples a side ((F-1)*480 samples); the stand-in
    trims 720 (F*480), the same cost. Returns (model, multiply-adds per frame without attention)."""
    g = CodecGraph()
    codes = g.input("codes", TensorProto.INT32, ["batch_size", 1, "sequence_length"])
    c = g.op("Cast", [g.op("Transpose", [codes], perm=[0, 2, 1])], to=TensorProto.INT64)  # [1,F,1]
    powers = g.ints([4 ** i for i in range(FSQ_LEVELS)])
    digits = g.op("Cast", [g.op("Mod", [g.op("Div", [c, powers]), g.i64(4)])], to=TensorProto.FLOAT)  # [1,F,8]
    levels = g.op("Div", [g.op("Sub", [digits, g.scalar(1.5)]), g.scalar(1.5)])
    x = g.linear(levels, FSQ_LEVELS, FSQ_DIM, std=0.5)                       # quantizer project_out
    x = g.linear(x, FSQ_DIM, CODEC_DIM)                                       # fc_post_a
    x = g.op("Transpose", [x], perm=[0, 2, 1])                                # [1,1024,F]
    x = g.conv(x, CODEC_DIM, CODEC_DIM, 7)                                    # embed
    for _ in range(2):
        x = g.resnet_block(x, CODEC_DIM)                                      # prior_net
    x = g.op("Transpose", [x], perm=[0, 2, 1])                                # [1,F,1024]
    f = g.op("Squeeze", [g.dim(codes, 2), g.ints([0])])
    pos = g.op("Cast", [g.op("Range", [g.i64(0), f, g.i64(1)])], to=TensorProto.FLOAT)
    half = CODEC_DIM // CODEC_HEADS // 2
    inv = (10000.0 ** (-np.arange(half, dtype=np.float64) / half)).astype(np.float32)
    angles = g.op("Mul", [g.op("Unsqueeze", [pos, g.ints([1])]), g.const(np.concatenate([inv, inv])[None])])  # [F,64]
    cos, sin = g.op("Cos", [angles]), g.op("Sin", [angles])
    for _ in range(CODEC_DEPTH):
        x = g.transformer_block(x, cos, sin)
    x = g.op("Transpose", [x], perm=[0, 2, 1])
    for _ in range(2):
        x = g.resnet_block(x, CODEC_DIM)                                      # post_net
    x = g.op("Transpose", [x], perm=[0, 2, 1])
    x = g.op("LayerNormalization", [x, g.const(np.ones(CODEC_DIM, np.float32)), g.const(np.zeros(CODEC_DIM, np.float32))],
             axis=-1, epsilon=1e-6)
    bins = N_FFT // 2 + 1
    spec = g.op("Transpose", [g.linear(x, CODEC_DIM, 2 * bins, std=0.02)], perm=[0, 2, 1])  # [1,1922,F]
    mag, phase = g.op("Split", [spec, g.ints([bins, bins])], outputs=[g.fresh("mag"), g.fresh("phase")], axis=1)
    mag = g.op("Min", [g.op("Exp", [mag]), g.scalar(100.0)])
    ri = g.op("Concat", [g.op("Mul", [mag, g.op("Cos", [phase])]), g.op("Mul", [mag, g.op("Sin", [phase])])], axis=1)
    # The export's inverse basis: pinv of the windowed real/imaginary DFT rows, as OnnxISTFTHead builds it.
    n = np.arange(N_FFT)
    window = (0.5 - 0.5 * np.cos(2 * np.pi * n / N_FFT)).astype(np.float64)
    fourier = np.fft.fft(np.eye(N_FFT))[:bins]
    basis = np.linalg.pinv((N_FFT / HOP) * np.vstack([fourier.real, fourier.imag])).T * window  # [1922, 1920]
    g.macs_per_frame += 2 * bins * N_FFT
    wave = g.op("ConvTranspose", [ri, g.const(basis[:, None, :].astype(np.float32), "istft")], strides=[HOP])
    frames_max = 6000
    envelope = np.zeros(N_FFT + HOP * (frames_max - 1), np.float32)
    for i in range(frames_max):
        envelope[i * HOP:i * HOP + N_FFT] += (window ** 2).astype(np.float32)
    span = g.op("Slice", [g.const(envelope, "envelope"), g.ints([0]), g.dim(wave, 2), g.ints([0])])
    wave = g.op("Mul", [g.op("Div", [wave, g.op("Add", [span, g.scalar(1e-8)])]), g.scalar(N_FFT / HOP)])
    trim = (N_FFT - HOP) // 2  # 720: F*480 samples
    g.op("Slice", [wave, g.ints([trim]), g.op("Sub", [g.dim(wave, 2), g.ints([trim])]), g.ints([2])], outputs=["audio"])
    g.output("audio", TensorProto.FLOAT, ["batch_size", 1, "samples"])
    model = g.model()
    model.doc_string = (f"NeuCodec decoder stand-in: {g.macs_per_frame / 1e6:.1f} M multiply-adds a frame "
                        f"({g.macs_per_frame * FRAMES_PER_SECOND / 1e9:.2f} G per second of audio) plus attention")
    return model, g.macs_per_frame


def write_codec(out: Path) -> dict:
    import onnx
    start = time.time()
    model, macs = codec_decoder()
    weights = sum(len(t.raw_data) for t in model.graph.initializer)
    target = out / "codec" / "model.onnx"
    target.parent.mkdir(parents=True, exist_ok=True)
    data = target.with_name("model.onnx_data")
    target.unlink(missing_ok=True)
    data.unlink(missing_ok=True)  # onnx appends to an existing sidecar
    onnx.save_model(model, str(target), save_as_external_data=True, all_tensors_to_one_file=True, location=data.name,
                    size_threshold=1024, convert_attribute=False)
    (target.parent / "meta.yaml").write_text(
        "# NeuCodec decoder stand-in at the real decoder's cost, random weights (tools/neutts/bench_graphs.py)\n"
        "sample_rate: 24000\nhop_length: 480\ninput: codes int32 [batch, 1, frames]\noutput_samples: frames * 480\n")
    return dict(codec_weights_bytes=weights, codec_macs_per_frame=macs,
                codec_gmacs_per_audio_second=round(macs * FRAMES_PER_SECOND / 1e9, 2), codec_seconds=round(time.time() - start, 1))


# -------------------------------------------------------------------------------------------------
# int8 (figures only; not what `warble models pull` makes)

def head_as_matmul(src: Path, dst: Path):
    """convert.py's graph with the tied head's Gemm(x, E, transB) replaced by MatMul(x, E^T) over a
    transposed copy, so that quantize_dynamic (which quantizes MatMul, not Gemm) quantizes it too."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(str(src))
    inits = {t.name: t for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Gemm" and node.input[1] in inits:
            table = numpy_helper.to_array(inits[node.input[1]], base_dir=str(src.parent))
            name = node.input[1] + "_transposed"
            model.graph.initializer.append(numpy_helper.from_array(np.ascontiguousarray(table.T), name))
            node.op_type, node.input[1], node.name = "MatMul", name, "lm_head_matmul"
            del node.attribute[:]
    onnx.save_model(model, str(dst), save_as_external_data=True, all_tensors_to_one_file=True, location=dst.name + "_data",
                    size_threshold=1024)


def write_int8(out: Path) -> dict:
    """OUTDIR/onnx/model_int8.onnx: quantize_dynamic (MatMul weights int8, per tensor) of the backbone
    with its head rewritten first (head_as_matmul). Straight on convert.py's tied graph, quantize_dynamic
    turns the Gemm into a MatMul by transposing the shared embedding in place, so the Gather then reads
    a [576, V] table and the session does not load (onnxruntime 1.31.1)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic
    onnx_dir = out / "onnx"
    start = time.time()
    source, target = onnx_dir / "model_head_matmul.onnx", onnx_dir / "model_int8.onnx"
    head_as_matmul(onnx_dir / "model.onnx", source)
    for stale in (target, target.with_name(target.name + ".data")):
        stale.unlink(missing_ok=True)
    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"],
                     use_external_data_format=True)
    source.unlink()
    source.with_name(source.name + "_data").unlink()
    return dict(int8_seconds=round(time.time() - start, 1))


def main(argv: list[str]) -> int:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--layers", type=int, default=NANO_CONFIG["num_hidden_layers"], help="backbone layers (24 in Nano)")
    parser.add_argument("--no-codec", action="store_true", help="skip the NeuCodec decoder stand-in")
    parser.add_argument("--int8", action="store_true", help="also write the quantize_dynamic variants")
    args = parser.parse_args(argv[1:])
    out = Path(args.outdir)
    repo = Path(__file__).resolve().parents[2]
    if out.resolve().is_relative_to(repo):
        parser.error(f"{out} is inside the repository; the weights are gigabytes and must not be committed")
    config = dict(NANO_CONFIG, num_hidden_layers=args.layers)
    src = out / "source"
    src.mkdir(parents=True, exist_ok=True)
    (src / "config.json").write_text(json.dumps(config, indent=1))
    t0 = time.time()
    values = write_random_safetensors(str(src / "model.safetensors"), config)
    t1 = time.time()
    (out / "onnx").mkdir(exist_ok=True)
    summary = convert.convert(str(src), str(out / "onnx" / "model.onnx"))
    t2 = time.time()
    summary.update(values=values, random_weights_seconds=round(t1 - t0, 1), convert_seconds=round(t2 - t1, 1))
    summary.update(write_tokenizer(out))
    if not args.no_codec:
        summary.update(write_codec(out))
    if args.int8:
        summary.update(write_int8(out))
    print(json.dumps(summary, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
