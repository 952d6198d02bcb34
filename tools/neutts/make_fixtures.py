#!/usr/bin/env python3
"""Synthetic NeuTTS (Nano-like) repository, toy NeuCodec decoders, a reference voice and goldens
(issue #22). Usage: make_fixtures.py OUTDIR

Writes OUTDIR/repo (config.json, generation_config.json, bf16 model.safetensors, tokenizer.json and
friends, onnx/model.onnx + model.onnx_data made by tools/neutts/convert.py), OUTDIR/standard-layout
(the same weights converted with logits for every position, the standard export layout), OUTDIR/codec and
OUTDIR/codec-short (toy decoders: codes int32 [B,1,F] -> one f32 output), OUTDIR/voice and
OUTDIR/golden (reference.py over those graphs; golden/generation.json and OUTDIR/generation: generation_fixtures.py; golden/phoneme_sets.json: phoneme_fixtures.py over the
sentence sets of tools/neutts/phoneme_sentences), OUTDIR/encoder (encoder_fixtures.py: NeuCodec's encoder
exported from a small random NeuCodec, three clips, PyTorch's codes). Everything is described in tools/neutts/README.md.
"""
import json
import shutil
import struct
import sys
import time
from pathlib import Path

import ml_dtypes
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from tools.neutts import encoder_fixtures  # noqa: E402
from tools.neutts import generation_fixtures  # noqa: E402
from tools.neutts import phoneme_fixtures  # noqa: E402
from tools.common.goldens import Golden  # noqa: E402
from tools.common.splitmix import draws_for  # noqa: E402
from tools.neutts import reference  # noqa: E402

# -------------------------------------------------------------------------------------------------
# Layout

LAYERS, HIDDEN, HEADS, KV_HEADS, HEAD_DIM, INTERMEDIATE = 3, 32, 4, 2, 8, 64
PADDING_ROWS = 10
ROPE_THETA, ROPE_SCALING = 500000.0, {"type": "linear", "factor": 32.0}   # [3P] Nano's config
RMS_EPS = 1e-5
SPEECH_CODES = 65536
LLAMA_SPECIALS = ["<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"]
NEUTTS_CONTROLS = ["<|TEXT_REPLACE|>", "<|TEXT_PROMPT_START|>", "<|TEXT_PROMPT_END|>", "<|SPEECH_REPLACE|>",
                   "<|SPEECH_GENERATION_START|>", "<|SPEECH_GENERATION_END|>"]
# Llama-3's pre-tokenizer regex (tokenizer.json of the Llama-3 family).
LLAMA3_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                r"|\s*[\r\n]+|\s+(?!\S)|\s+")
SEED = 20261124

REF_TEXT = "So I just tried this little speaker, and it sounds clean and quick."
REF_SECONDS = 2.0
TEXTS = {
    "short": "Hello there, this is Warble speaking.",
    "medium": "The quick brown fox jumps over the lazy dog, then it runs into the woods.",
    "tiny": "Hi!",
}
LONG_SENTENCES = [
    "Speech synthesis turns written text into spoken audio, one sentence at a time, on a small computer.",
    "A voice can be cloned from a short recording, and the model keeps its timbre while it reads new words.",
    "The backbone writes one speech code every twenty milliseconds, and the codec turns the codes into sound.",
    "When the text is long, the context of two thousand and forty eight tokens fills up before the end.",
    "The reference implementation does not split the text, so the audio simply stops where the context ends.",
    "Warble therefore splits the text at sentence ends and speaks each part with the same reference voice.",
    "Every part repeats the reference transcript and codes, so the voice stays the same from part to part.",
    "This paragraph exists only to be long enough, and it says nothing that anybody needs to remember.",
]
MULTILINGUAL = {"en-us": "Hello there, how are you today?", "de": "Guten Morgen, wie geht es dir heute?",
                "fr-fr": "Bonjour, je m'appelle Marie-Claire. Comment allez-vous?", "es": "Hola, ¿cómo estás hoy? Muy bien."}
CORPUS = [
    "Hello there, this is a small test of the speech tokenizer, with numbers like 12 and 345.",
    "The quick brown fox jumps over the lazy dog. Good morning! How are you doing today?",
    "user: Convert the text to speech:", "\nassistant:",
]
CASES = [  # (name, text key, mode, seed)
    ("short_greedy", "short", "greedy", None),
    ("short_sampled", "short", "sample", 7),
    ("medium_sampled", "medium", "sample", 2025),
    ("tiny_sampled", "tiny", "sample", 11),      # the stop point comes before 50 tokens: min_new_tokens binds
]
AUDIO_CASES = ["short_greedy", "medium_sampled"]
STREAM_CHUNKS = [25, 50]


# -------------------------------------------------------------------------------------------------
# Tokenizer

def ipa_glyphs():
    """The non-ASCII characters of the phonemes of the texts used here (single-glyph added tokens, as
    the real Nano has IPA glyphs as tokens [3P])."""
    texts = [REF_TEXT] + list(TEXTS.values()) + LONG_SENTENCES
    chars = set()
    for t in texts:
        chars.update(reference.phonemize(t, "en-us"))
    for lang, t in MULTILINGUAL.items():
        chars.update(reference.phonemize(t, lang))
    return sorted(c for c in chars if ord(c) > 127)


def make_tokenizer(repo, glyphs):
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(LLAMA3_SPLIT), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=256 + 200, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False, special_tokens=[])
    phon = [reference.phonemize(t) for t in [REF_TEXT] + list(TEXTS.values())]
    tok.train_from_iterator((CORPUS + phon) * 3, trainer)
    spec = json.loads(tok.to_str())
    base = len(spec["model"]["vocab"])
    # a glyph that spells a byte-level vocabulary entry (e.g. "æ" is byte 0xE6's symbol) would alias it
    glyphs = [g for g in glyphs if g not in spec["model"]["vocab"]]
    names = LLAMA_SPECIALS + NEUTTS_CONTROLS + [f"<|speech_{i}|>" for i in range(SPEECH_CODES)]
    added = [dict(id=base + i, content=n, single_word=False, lstrip=False, rstrip=False, normalized=False, special=True)
             for i, n in enumerate(names)]
    added += [dict(id=base + len(names) + i, content=g, single_word=False, lstrip=False, rstrip=False, normalized=False,
                   special=False) for i, g in enumerate(glyphs)]
    spec["added_tokens"] = added
    bos = base
    spec["post_processor"] = {
        "type": "Sequence", "processors": [
            {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
            {"type": "TemplateProcessing",
             "single": [{"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
             "pair": [{"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                      {"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
             "special_tokens": {"<|begin_of_text|>": {"id": "<|begin_of_text|>", "ids": [bos], "tokens": ["<|begin_of_text|>"]}}}]}
    (repo / "tokenizer.json").write_text(json.dumps(spec, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    (repo / "tokenizer_config.json").write_text(json.dumps({
        "bos_token": "<|begin_of_text|>", "eos_token": "<|end_of_text|>", "clean_up_tokenization_spaces": False,
        "model_input_names": ["input_ids", "attention_mask"], "model_max_length": reference.MAX_CONTEXT,
        "tokenizer_class": "PreTrainedTokenizerFast"}, indent=2) + "\n")
    (repo / "special_tokens_map.json").write_text(json.dumps({
        "bos_token": {"content": "<|begin_of_text|>", "lstrip": False, "normalized": False, "rstrip": False, "single_word": False},
        "eos_token": {"content": "<|end_of_text|>", "lstrip": False, "normalized": False, "rstrip": False, "single_word": False}},
        indent=2) + "\n")
    tok = reference.load_tokenizer(repo / "tokenizer.json")
    assert all(tok.token_to_id(a["content"]) == a["id"] for a in added), "added-token ids were renumbered"
    return tok, base, len(added)


# -------------------------------------------------------------------------------------------------
# Backbone weights (see README "How the random backbone behaves")

Z, T, S, F = 0, 1, 2, 3          # residual channels: constant, text flag, speech flag, text fraction
R = slice(4, HIDDEN)             # the rest: random content
NR = HIDDEN - 4
A_SPEECH, B_TEXT, C_FRACTION = 2.0, -0.6, 1.0
TAU = 0.375                      # END wins soon after the text fraction of the context drops below TAU
END_GAIN = 48000.0
G_R, G_SPEECH, G_TEXT = 1.9, 0.6, 0.6
PAD_LOGIT = 100.0


def design_weights(vocab, tokenizer_size, kinds, end_id):
    """kinds: per row 'text', 'speech', 'end' or 'pad'. Returns HF-named f32 arrays (tied embeddings)."""
    rng = np.random.default_rng(SEED)
    E = np.zeros((vocab, HIDDEN), np.float32)
    r = rng.standard_normal((vocab, NR)).astype(np.float32)
    r *= 2.0 / np.linalg.norm(r, axis=1, keepdims=True)
    E[:, R] = r
    E[:, Z] = 1.0
    E[kinds == "text", T] = 1.0
    E[kinds == "speech", S] = 1.0
    E[kinds == "pad"] = 0.0
    E[kinds == "pad", Z] = -PAD_LOGIT
    E[end_id] = 0.0
    E[end_id, Z] = TAU * END_GAIN
    E[end_id, F] = -END_GAIN
    w = {"model.embed_tokens.weight": E}
    row_rms = float(np.sqrt((2 + 4.0) / HIDDEN))
    for i in range(LAYERS):
        p = f"model.layers.{i}."
        q = rng.standard_normal((HEADS * HEAD_DIM, HIDDEN)).astype(np.float32) * 1.2
        k = rng.standard_normal((KV_HEADS * HEAD_DIM, HIDDEN)).astype(np.float32) * 1.2
        v = rng.standard_normal((KV_HEADS * HEAD_DIM, HIDDEN)).astype(np.float32) * 0.5
        o = rng.standard_normal((HIDDEN, HEADS * HEAD_DIM)).astype(np.float32) * 0.25
        q[:, :4] = k[:, :4] = v[:, :4] = 0.0          # attention reads only the random channels ...
        o[:4, :] = 0.0                                 # ... and writes only them
        if i == 0:
            # heads 0 and 1 share KV head 0: zero queries and keys -> uniform attention over the
            # context; its value is (normalised Z, normalised T): the mean gives 1 and the text fraction
            q[:2 * HEAD_DIM] = 0.0
            k[:HEAD_DIM] = 0.0
            v[:HEAD_DIM] = 0.0
            v[0, Z] = 1.0
            v[1, T] = 1.0
            o[:, :2 * HEAD_DIM] = 0.0
            o[S, 0] = A_SPEECH / (1.0 / row_rms)
            o[T, 0] = -B_TEXT / (1.0 / row_rms)
            o[F, 1] = C_FRACTION / (1.0 / row_rms)
        gate = rng.standard_normal((INTERMEDIATE, HIDDEN)).astype(np.float32) * 0.5
        up = rng.standard_normal((INTERMEDIATE, HIDDEN)).astype(np.float32) * 0.5
        down = rng.standard_normal((HIDDEN, INTERMEDIATE)).astype(np.float32) * 0.15
        gate[:, :4] = up[:, :4] = 0.0
        down[:4, :] = 0.0
        w.update({p + "input_layernorm.weight": np.ones(HIDDEN, np.float32),
                  p + "post_attention_layernorm.weight": np.ones(HIDDEN, np.float32),
                  p + "self_attn.q_proj.weight": q, p + "self_attn.k_proj.weight": k,
                  p + "self_attn.v_proj.weight": v, p + "self_attn.o_proj.weight": o,
                  p + "mlp.gate_proj.weight": gate, p + "mlp.up_proj.weight": up, p + "mlp.down_proj.weight": down})
    g = np.full(HIDDEN, G_R, np.float32)
    g[Z], g[T], g[S], g[F] = 1.0, G_TEXT, G_SPEECH, 1.0
    w["model.norm.weight"] = g
    return {k: v.astype(ml_dtypes.bfloat16).astype(np.float32) for k, v in w.items()}   # what bf16 holds


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name in sorted(tensors):
        data = np.ascontiguousarray(tensors[name].astype(ml_dtypes.bfloat16)).tobytes()
        header[name] = {"dtype": "BF16", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    header["__metadata__"] = {"format": "pt"}
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * ((8 - len(raw) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)))
        f.write(raw)
        for b in blobs:
            f.write(b)


def rope(x, positions):
    """HF Llama rotate_half RoPE with linear scaling. x [..., S, hd]."""
    inv = 1.0 / (ROPE_THETA ** (np.arange(0, HEAD_DIM, 2, dtype=np.float64) / HEAD_DIM))
    t = np.asarray(positions, np.float64) / ROPE_SCALING["factor"]
    freqs = np.outer(t, inv)
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb), np.sin(emb)
    half = HEAD_DIM // 2
    rot = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rot * sin


def numpy_logits(w, ids):
    """A plain numpy Llama forward over the whole sequence (f64): the design check, and an
    independent check of the converted graph in test_reference.py."""
    def norm(x, g):
        return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + RMS_EPS) * g
    x = w["model.embed_tokens.weight"][ids].astype(np.float64)
    n = len(ids)
    causal = np.triu(np.full((n, n), -np.inf), 1)
    for i in range(LAYERS):
        p = f"model.layers.{i}."
        a = norm(x, w[p + "input_layernorm.weight"])
        q = (a @ w[p + "self_attn.q_proj.weight"].T).reshape(n, HEADS, HEAD_DIM).transpose(1, 0, 2)
        k = (a @ w[p + "self_attn.k_proj.weight"].T).reshape(n, KV_HEADS, HEAD_DIM).transpose(1, 0, 2)
        v = (a @ w[p + "self_attn.v_proj.weight"].T).reshape(n, KV_HEADS, HEAD_DIM).transpose(1, 0, 2)
        q, k = rope(q, np.arange(n)), rope(k, np.arange(n))
        k = np.repeat(k, HEADS // KV_HEADS, axis=0)
        v = np.repeat(v, HEADS // KV_HEADS, axis=0)
        s = q @ k.transpose(0, 2, 1) / np.sqrt(HEAD_DIM) + causal
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        o = (s @ v).transpose(1, 0, 2).reshape(n, HEADS * HEAD_DIM)
        x = x + o @ w[p + "self_attn.o_proj.weight"].T
        b = norm(x, w[p + "post_attention_layernorm.weight"])
        gt = b @ w[p + "mlp.gate_proj.weight"].T
        x = x + ((gt / (1 + np.exp(-gt))) * (b @ w[p + "mlp.up_proj.weight"].T)) @ w[p + "mlp.down_proj.weight"].T
    h = norm(x, w["model.norm.weight"])
    return h @ w["model.embed_tokens.weight"].T.astype(np.float64)


def config(vocab, bos, end):
    return {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "attention_bias": False, "attention_dropout": 0.0,
        "bos_token_id": bos, "eos_token_id": end, "hidden_act": "silu", "hidden_size": HIDDEN, "head_dim": HEAD_DIM,
        "initializer_range": 0.02, "intermediate_size": INTERMEDIATE, "max_position_embeddings": reference.MAX_CONTEXT,
        "mlp_bias": False, "num_attention_heads": HEADS, "num_hidden_layers": LAYERS, "num_key_value_heads": KV_HEADS,
        "pretraining_tp": 1, "rms_norm_eps": RMS_EPS, "rope_scaling": ROPE_SCALING, "rope_theta": ROPE_THETA,
        "tie_word_embeddings": True, "torch_dtype": "bfloat16", "transformers_version": "4.56.0", "use_cache": True,
        "vocab_size": vocab}


# -------------------------------------------------------------------------------------------------
# Codec (toy NeuCodec decoder)

CODEC_OUTPUT = "onnx::Tanh_2871"     # deliberately not "audio": a port must take output index 0
SHORT_TRIM = 240


def make_codec(short):
    """codes int32 [B,1,F] -> f32 [B,1,F*480] (short: samples 240 .. F*480-240, i.e. (F-1)*480).
    Frame f: amp_f * sin(2*pi*freq_f*n/24000 + phase_f), n = 0..479, with freq_f = 80 + 15*(code mod 61) Hz,
    phase_f = (code // 61 mod 17) * 0.37 and amp_f = a 5-tap non-causal smoothing (pads 2) of
    0.05 + 0.04*(code mod 7): each frame depends on its neighbours 2 either side, as a real decoder
    has context."""
    n = helper.make_node
    nodes = [
        n("Cast", ["codes"], ["codes64"], to=TensorProto.INT64),
        n("Mod", ["codes64", "c61"], ["m61"]), n("Cast", ["m61"], ["m61f"], to=TensorProto.FLOAT),
        n("Mul", ["m61f", "k15"], ["f15"]), n("Add", ["f15", "k80"], ["freq"]),                       # [B,1,F]
        n("Div", ["codes64", "c61"], ["d61"]), n("Mod", ["d61", "c17"], ["m17"]),
        n("Cast", ["m17"], ["m17f"], to=TensorProto.FLOAT), n("Mul", ["m17f", "k037"], ["phase"]),
        n("Mod", ["codes64", "c7"], ["m7"]), n("Cast", ["m7"], ["m7f"], to=TensorProto.FLOAT),
        n("Mul", ["m7f", "k004"], ["a1"]), n("Add", ["a1", "k005"], ["a0"]),
        n("Conv", ["a0", "smooth"], ["amp"], pads=[2, 2], kernel_shape=[5]),                          # [B,1,F]
        n("Unsqueeze", ["freq", "ax3"], ["freq4"]), n("Unsqueeze", ["phase", "ax3"], ["phase4"]),
        n("Unsqueeze", ["amp", "ax3"], ["amp4"]),                                                     # [B,1,F,1]
        n("Mul", ["freq4", "omega_n"], ["arg0"]), n("Add", ["arg0", "phase4"], ["arg"]),              # [B,1,F,480]
        n("Sin", ["arg"], ["sin"]), n("Mul", ["sin", "amp4"], ["frames"]),
        n("Shape", ["codes"], ["shape3"]), n("Slice", ["shape3", "i0", "i2", "i0"], ["bc"]),
        n("Concat", ["bc", "minus1"], ["shape_out"], axis=0),
        n("Reshape", ["frames", "shape_out"], ["wave" if short else CODEC_OUTPUT]),
    ]
    if short:
        nodes.append(n("Slice", ["wave", "trim_start", "trim_end", "ax2"], [CODEC_OUTPUT]))
    omega_n = (2 * np.pi * np.arange(reference.HOP) / reference.SAMPLE_RATE).astype(np.float32).reshape(1, 1, 1, -1)
    inits = [numpy_helper.from_array(np.array(v, dtype=d), name) for name, v, d in [
        ("c61", 61, np.int64), ("c17", 17, np.int64), ("c7", 7, np.int64), ("k15", 15.0, np.float32),
        ("k80", 80.0, np.float32), ("k037", 0.37, np.float32), ("k004", 0.04, np.float32), ("k005", 0.05, np.float32),
        ("ax3", [3], np.int64), ("i0", [0], np.int64), ("i2", [2], np.int64),
        ("minus1", [-1], np.int64)] + ([("ax2", [2], np.int64), ("trim_start", [SHORT_TRIM], np.int64), ("trim_end", [-SHORT_TRIM], np.int64)] if short else [])]
    inits.append(numpy_helper.from_array(np.array([0.1, 0.2, 0.4, 0.2, 0.1], np.float32).reshape(1, 1, 5), "smooth"))
    inits.append(numpy_helper.from_array(omega_n, "omega_n"))
    graph = helper.make_graph(nodes, "neucodec_decoder_toy",
                              [helper.make_tensor_value_info("codes", TensorProto.INT32, ["batch_size", 1, "sequence_length"])],
                              [helper.make_tensor_value_info(CODEC_OUTPUT, TensorProto.FLOAT, ["batch_size", 1, "samples"])],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], producer_name="warble-tools-neutts")
    model.ir_version = 9
    onnx.checker.check_model(model, full_check=True)
    return model


# -------------------------------------------------------------------------------------------------
# Goldens

def write_repo(repo, tok, base):
    size = tok.get_vocab_size()
    vocab = size + PADDING_ROWS
    s0 = tok.token_to_id("<|speech_0|>")
    end = tok.token_to_id(reference.SPEECH_GENERATION_END)
    bos = tok.token_to_id("<|begin_of_text|>")
    kinds = np.array(["text"] * vocab, dtype=object)
    kinds[s0:s0 + SPEECH_CODES] = "speech"
    kinds[end] = "end"
    kinds[size:] = "pad"
    weights = design_weights(vocab, size, kinds, end)
    write_safetensors(repo / "model.safetensors", weights)
    (repo / "config.json").write_text(json.dumps(config(vocab, bos, end), indent=2) + "\n")
    (repo / "generation_config.json").write_text(json.dumps({
        "_from_model_config": True, "bos_token_id": bos, "eos_token_id": end, "transformers_version": "4.56.0"}, indent=2) + "\n")
    (repo / "README.md").write_text(
        "---\nlicense: other\nlicense_name: neutts-open-license-v1.0\npipeline_tag: text-to-speech\n---\n"
        "# neutts-nano (synthetic fixture)\n\nWarble's test stand-in for neuphonic/neutts-nano: the same file names, "
        "tokenizer layout and prompt tokens, but a tiny random LlamaForCausalLM (3 layers, hidden 32, 4 heads, 2 KV heads)\n"
        "whose weights were chosen so that it writes speech tokens and stops. It does not speak.\n"
        "Made by tools/neutts/make_fixtures.py; see tools/neutts/README.md.\n")
    (repo / ".gitattributes").write_text("*.safetensors filter=lfs diff=lfs merge=lfs -text\n"
                                         "*.onnx filter=lfs diff=lfs merge=lfs -text\n*.onnx_data filter=lfs diff=lfs merge=lfs -text\n"
                                         "tokenizer.json filter=lfs diff=lfs merge=lfs -text\n")
    from tools.neutts import convert
    summary = convert.convert(str(repo), str(repo / "onnx" / "model.onnx"))
    return dict(vocab=vocab, tokenizer_size=size, speech_0=s0, end=end, bos=bos, kinds=kinds, weights=weights,
                convert=summary)


def write_codecs(out):
    for name, short in (("codec", False), ("codec-short", True)):
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        onnx.save_model(make_codec(short), str(d / "model.onnx"))
        (d / "meta.yaml").write_text(
            "# synthetic stand-in for neuphonic/neucodec-onnx-decoder (tools/neutts/make_fixtures.py)\n"
            f"model: neucodec-onnx-decoder-toy{'-short' if short else ''}\nsample_rate: 24000\nhop_length: 480\n"
            f"input: codes int32 [batch, 1, frames]\noutput_samples: {'(frames - 1) * 480' if short else 'frames * 480'}\n")


def run_case(backbone, tok, info, ref_phones, ref_codes, text, language, mode, seed, max_context=reference.MAX_CONTEXT):
    phones = reference.phonemize(text, language)
    prompt = reference.prompt_ids(tok, ref_phones, phones, ref_codes)
    assert prompt == reference.prompt_ids_torch_path(tok, ref_phones, phones, ref_codes)
    draws, drawn = (None, [])
    if mode == "sample":
        draws, drawn = draws_for(seed)
    run = backbone.generate(prompt, info["end"], draws=draws, max_context=max_context)
    text_out = reference.generated_text(tok, run["generated"])
    codes = reference.extract_codes(text_out)
    case = dict(text=text, language=language, phonemes=phones,
                prompt=reference.prompt_text(ref_phones, phones, ref_codes), prompt_ids=prompt,
                prompt_length=len(prompt), mode=mode, seed=seed, generated=run["generated"], stopped=run["stopped"],
                generated_count=len(run["generated"]), generated_text=text_out, codes=codes,
                non_speech=[t for t in run["generated"] if not info["speech_0"] <= t < info["speech_0"] + SPEECH_CODES
                            and t != info["end"]])
    steps = run["steps"]
    if mode == "greedy":
        case["min_margin"] = min(s["margin"] for s in steps)
    else:
        case["draws"] = drawn
        case["kept"] = sorted(set(s["kept"] for s in steps))
        case["min_boundary_distance"] = min(s["boundary_distance"] for s in steps)
    return case


def main():
    began = time.time()
    out = Path(sys.argv[1])
    for sub in ("repo", "standard-layout", "codec", "codec-short", "voice", "golden", "encoder"):
        shutil.rmtree(out / sub, ignore_errors=True)
    repo = out / "repo"
    repo.mkdir(parents=True)
    glyphs = ipa_glyphs()
    tok, base, n_added = make_tokenizer(repo, glyphs)
    info = write_repo(repo, tok, base)
    # The same weights in the standard export layout (logits for every position): Warble takes both.
    from tools.neutts import convert
    convert.convert(str(repo), str(out / "standard-layout" / "model.onnx"), all_positions=True)
    write_codecs(out)
    gold = Golden(out / "golden")

    # Voice: 2 s of codes as the authors' samples hold them (int32, 1-D).
    rng = np.random.default_rng(SEED + 1)
    ref_codes = rng.integers(0, SPEECH_CODES, int(REF_SECONDS * 50)).astype(np.int32)
    voice = out / "voice"
    voice.mkdir(parents=True)
    np.save(voice / "ref_codes.npy", ref_codes)
    (voice / "ref_codes.i32").write_bytes(ref_codes.astype("<i4").tobytes())
    (voice / "ref.txt").write_text(REF_TEXT, encoding="utf-8")
    ref_phones = reference.phonemize(REF_TEXT)
    ref_list = [int(c) for c in ref_codes]

    # Tokens and phonemes.
    specials = {n: tok.token_to_id(n) for n in LLAMA_SPECIALS + NEUTTS_CONTROLS}
    token_cases = [REF_TEXT, ref_phones, reference.phonemize(TEXTS["short"]), "<|speech_0|><|speech_65535|><|speech_42|>",
                   "user: Convert the text to speech:<|TEXT_PROMPT_START|>həlˈoʊ<|TEXT_PROMPT_END|>\nassistant:<|SPEECH_GENERATION_START|>",
                   "<|speech_12|>x<|speech_7|> plain <|speech_|> <|speech_70000|>"]
    gold.json("tokens.json", {
        "base_vocab": base, "tokenizer_size": info["tokenizer_size"], "config_vocab": info["vocab"],
        "padding_rows": PADDING_ROWS, "specials": specials, "speech_0": info["speech_0"],
        "speech_65535": tok.token_to_id("<|speech_65535|>"), "ipa_glyphs": {g: tok.token_to_id(g) for g in glyphs if tok.token_to_id(g) >= base},
        "cases": [{"text": t, "ids_with_bos": tok.encode(t, add_special_tokens=True).ids,
                   "ids": tok.encode(t, add_special_tokens=False).ids, "tokens": tok.encode(t, add_special_tokens=False).tokens,
                   "decoded": tok.decode(tok.encode(t, add_special_tokens=False).ids, skip_special_tokens=False)} for t in token_cases],
        "extract_codes": [{"text": token_cases[-1], "codes": reference.extract_codes(token_cases[-1])}]})
    phon_cases = [{"language": "en-us", "text": REF_TEXT, "phonemes": ref_phones}]
    phon_cases += [{"language": "en-us", "text": t, "phonemes": reference.phonemize(t)} for t in TEXTS.values()]
    phon_cases += [{"language": lang, "text": t, "phonemes": reference.phonemize(t, lang)} for lang, t in MULTILINGUAL.items()]
    gold.json("phonemes.json", {"espeak_ng": reference.espeak_version(), "options": reference.PHONEMIZER_OPTIONS,
                                 "cases": phon_cases})
    # The sentence sets of tools/neutts/phoneme_sentences (issue #39): ~360 sentences a language.
    phoneme_fixtures.write(out / "golden" / "phoneme_sets.json")

    backbone = reference.Backbone(repo / "onnx" / "model.onnx")
    codecs = {name: reference.Codec(out / name / "model.onnx") for name in ("codec", "codec-short")}
    cases, summary = [], {}
    for name, key, mode, seed in CASES:
        case = run_case(backbone, tok, info, ref_phones, ref_list, TEXTS[key], "en-us", mode, seed)
        case["name"] = name
        case["codes_file"] = gold.array(f"codes_{name}.i32", case["codes"], "i32")
        if name in AUDIO_CASES:
            case["audio"], case["stream"] = {}, {}
            for cname, codec in codecs.items():
                wav = codec.decode(case["codes"])
                case["audio"][cname] = gold.array(f"audio_{name}_{cname}.f32", wav)
                items = [reference.token_text(tok, t) for t in case["generated"] if t != info["end"]]
                for chunk in STREAM_CHUNKS:
                    pieces, records = reference.stream(codec, ref_list, items, frames_per_chunk=chunk)
                    joined = np.concatenate(pieces)
                    case["stream"][f"{cname}/{chunk}"] = dict(
                        codec=cname, frames_per_chunk=chunk, file=gold.array(f"stream_{name}_{cname}_{chunk}.f32", joined),
                        pieces=[int(p.size) for p in pieces], chunks=records, samples=int(joined.size))
        cases.append(case)
        summary[name] = dict(prompt=case["prompt_length"], generated=case["generated_count"], stopped=case["stopped"],
                             codes=len(case["codes"]), non_speech=len(case["non_speech"]),
                             margin=case.get("min_margin"), boundary=case.get("min_boundary_distance"))

    # Long text: the reference's own behaviour (no chunking: stops at 2,048), and Warble's plan.
    long_text = " ".join(LONG_SENTENCES)
    truncated = run_case(backbone, tok, info, ref_phones, ref_list, long_text, "en-us", "sample", 99)
    truncated["name"] = "long_unchunked_sampled"
    chunks = reference.plan_chunks(tok, long_text, ref_phones, ref_list)
    parts = []
    for i, chunk in enumerate(chunks):
        part = run_case(backbone, tok, info, ref_phones, ref_list, chunk, "en-us", "sample", 100 + i)
        part["name"] = f"long_chunk_{i}"
        part["codes_file"] = gold.array(f"codes_long_chunk_{i}.i32", part["codes"], "i32")
        parts.append(part)
        summary[part["name"]] = dict(prompt=part["prompt_length"], generated=part["generated_count"], stopped=part["stopped"])
    summary["long_unchunked_sampled"] = dict(prompt=truncated["prompt_length"], generated=truncated["generated_count"],
                                             stopped=truncated["stopped"])
    gold.json("long.json", {"text": long_text, "max_context": reference.MAX_CONTEXT,
                            "plan": {"factor": 1.5, "chunks": chunks}, "unchunked": truncated, "chunks": parts})
    gold.json("lm.json", {
        "layout": dict(layers=backbone.layers, kv_heads=backbone.kv_heads, head_dim=backbone.head_dim,
                       heads=HEADS, hidden=HIDDEN, vocab=info["vocab"], tokenizer_size=info["tokenizer_size"]),
        "special_ids": dict(bos=info["bos"], end=info["end"], speech_0=info["speech_0"]),
        "sampling": dict(temperature=reference.TEMPERATURE, top_k=reference.TOP_K, min_new_tokens=reference.MIN_NEW_TOKENS,
                         max_context=reference.MAX_CONTEXT, uniform="SplitMix64(seed).uniform()"),
        "streaming": dict(frames_per_chunk=STREAM_CHUNKS, lookforward=reference.STREAM_LOOKFORWARD,
                          lookback=reference.STREAM_LOOKBACK, overlap=reference.STREAM_OVERLAP, hop=reference.HOP),
        "voice": dict(ref_text=REF_TEXT, ref_phonemes=ref_phones, ref_codes=ref_list), "cases": cases})
    gold.finish()
    # NeuCodec's encoder exported from a small random NeuCodec, three clips and PyTorch's codes (issue #39).
    summary["encoder"] = [len(case["codes"]) for case in encoder_fixtures.write(out / "encoder")]
    # generation_config.json's sampling settings through transformers' processors (issue #39 item 6).
    summary["generation"] = generation_fixtures.write(out)
    summary["convert"] = {k: info["convert"][k] for k in ("layers", "vocab", "tied_embeddings", "rope_type")}
    summary["seconds"] = round(time.time() - began, 1)
    print(json.dumps(summary, indent=1))
    print(f"wrote the NeuTTS fixtures to {out}")


if __name__ == "__main__":
    main()
