#!/usr/bin/env python3
"""Opus-MT (Hugging Face `MarianMTModel`: Helsinki-NLP/opus-mt-*, opus-mt-tc-big-*) -> ONNX.

    convert_opus.py SRC_DIR OUT_DIR --id ID [--source ORIGIN] [--repo OWNER/NAME] [--int8 | --variant f32|int8]

SRC_DIR is a downloaded repository: config.json, generation_config.json (optional), source.spm,
target.spm, vocab.json (target_vocab.json too when the vocabularies are separate),
tokenizer_config.json (optional) and model.safetensors or pytorch_model.bin (read without PyTorch:
opus_weights.py). OUT_DIR receives

  encoder.onnx  input_ids, attention_mask i64 [B, S] -> encoder_out f32 [B, S, D]
  decoder.onnx  input_ids i64 [B, 1], encoder_out, attention_mask, past_key_{i}, past_value_{i}
                f32 [B, H, P, D/H] (P = tokens decoded so far; the position is P)
                -> logits f32 [B, V] (final_logits_bias added), present_key_{i}, present_value_{i}

the text files and manifest.json (family marian, config.kind "opus": the ids, read from vocab.json
and the configuration files, never assumed). Weights f32 (f16/bf16 checkpoints widened), or with
--int8 the MatMul weights quantised (onnxruntime's dynamic quantisation). The order of operations is
transformers' modeling_marian.py (post-layer-norm, sinusoidal positions with the cos half second,
embeddings scaled by sqrt(d_model) when scale_embedding). Configurations it does not run are
refused with the key that says so.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto

from tools.common.onnx_graph import Graph  # noqa: E402  the repo's small ONNX builder
from tools.marian.opus_weights import WeightsError, read_weights  # noqa: E402

F32, I64 = TensorProto.FLOAT, TensorProto.INT64
ACTIVATIONS = ("relu", "swish", "silu", "gelu", "gelu_new", "gelu_pytorch_tanh", "tanh", "sigmoid")
TEXT_FILES = ("source.spm", "target.spm", "vocab.json", "config.json")
OPTIONAL_TEXT = ("target_vocab.json", "generation_config.json", "tokenizer_config.json")


class ConversionError(Exception):
    pass


def refuse(key, value, why):
    raise ConversionError(f"unsupported configuration: {key} = {value!r} ({why}); the converter runs MarianMTModel "
                          "checkpoints with post-layer-norm, sinusoidal positions and no extra layer norms")


def check_config(cfg: dict):
    if cfg.get("model_type") != "marian":
        refuse("model_type", cfg.get("model_type"), "only 'marian' (MarianMTModel) is converted")
    archs = cfg.get("architectures") or ["MarianMTModel"]
    if "MarianMTModel" not in archs:
        refuse("architectures", archs, "only MarianMTModel")
    for key, bad in (("normalize_before", True), ("normalize_embedding", True), ("add_final_layer_norm", True),
                     ("static_position_embeddings", False), ("is_decoder", True)):
        if cfg.get(key, not bad) == bad:
            refuse(key, bad, "not how transformers' MarianMTModel computes")
    act = cfg.get("activation_function", "gelu")
    if act not in ACTIVATIONS:
        refuse("activation_function", act, f"supported: {', '.join(ACTIVATIONS)}")
    d, heads = cfg["d_model"], (cfg["encoder_attention_heads"], cfg["decoder_attention_heads"])
    for h in heads:
        if d % h:
            refuse("d_model", d, f"not a multiple of the {h} attention heads")
    if d % 2:
        refuse("d_model", d, "odd widths are not converted")


def sinusoids(n_pos: int, dim: int) -> np.ndarray:
    """transformers' MarianSinusoidalPositionalEmbedding table (computed in float64, stored f32)."""
    j = np.arange(dim)
    enc = np.arange(n_pos)[:, None] / np.power(10000, 2 * (j // 2) / dim)[None, :]
    out = np.empty((n_pos, dim), dtype=np.float32)
    out[:, : dim // 2] = np.sin(enc[:, 0::2]).astype(np.float32)
    out[:, dim // 2:] = np.cos(enc[:, 1::2]).astype(np.float32)
    return out


class Weights:
    def __init__(self, tensors: dict[str, np.ndarray]):
        # Older saves lack the "model." prefix of MarianMTModel's state dict.
        self.t = {k if k.startswith(("model.", "lm_head", "final_logits_bias")) else "model." + k: v for k, v in tensors.items()}

    def get(self, *names):
        for n in names:
            if n in self.t:
                return np.asarray(self.t[n], dtype=np.float32)
        raise ConversionError(f"the checkpoint lacks {' / '.join(names)}")

    def has(self, name):
        return name in self.t


class Builder(Graph):
    producer = "warble-chatterbox-fixtures"  # the name the builder had in tools/chatterbox; converted files stay the same
    def linear(self, x, w: Weights, prefix):
        weight = self.const(np.ascontiguousarray(w.get(prefix + ".weight").T), "w")
        y = self.op("MatMul", [x, weight])
        return self.op("Add", [y, self.const(w.get(prefix + ".bias"), "b")]) if w.has(prefix + ".bias") else y

    def norm(self, x, w: Weights, prefix):
        return self.op("LayerNormalization", [x, self.const(w.get(prefix + ".weight")), self.const(w.get(prefix + ".bias"))],
                       axis=-1, epsilon=1e-5)

    def act(self, x, kind):
        if kind == "relu":
            return self.op("Relu", [x])
        if kind in ("swish", "silu"):
            return self.op("Mul", [x, self.op("Sigmoid", [x])])
        if kind == "gelu":
            inner = self.op("Erf", [self.op("Mul", [x, self.scalar(1 / np.sqrt(2))])])
            return self.op("Mul", [self.op("Mul", [x, self.scalar(0.5)]), self.op("Add", [inner, self.scalar(1.0)])])
        if kind in ("gelu_new", "gelu_pytorch_tanh"):
            cube = self.op("Mul", [self.op("Mul", [x, x]), x])
            inner = self.op("Mul", [self.op("Add", [x, self.op("Mul", [cube, self.scalar(0.044715)])]),
                                    self.scalar(np.sqrt(2 / np.pi))])
            return self.op("Mul", [self.op("Mul", [x, self.scalar(0.5)]), self.op("Add", [self.op("Tanh", [inner]), self.scalar(1.0)])])
        return self.op("Tanh" if kind == "tanh" else "Sigmoid", [x])

    def heads(self, x, h, hd):  # [B, T, D] -> [B, H, T, hd]
        return self.op("Transpose", [self.op("Reshape", [x, self.ints([0, 0, h, hd])])], perm=[0, 2, 1, 3])

    def merge(self, x, d):  # [B, H, T, hd] -> [B, T, D]
        return self.op("Reshape", [self.op("Transpose", [x], perm=[0, 2, 1, 3]), self.ints([0, 0, d])])

    def attend(self, q, k, v, bias):
        """softmax(q k^T + bias) v; q already scaled (transformers scales q by head_dim^-0.5)."""
        scores = self.op("MatMul", [q, self.op("Transpose", [k], perm=[0, 1, 3, 2])])
        if bias is not None:
            scores = self.op("Add", [scores, bias])
        return self.op("MatMul", [self.op("Softmax", [scores], axis=-1), v])

    def key_bias(self, mask):
        """attention_mask [B, S] (1 keep, 0 pad) -> additive [B, 1, 1, S] (transformers: finfo.min)."""
        keep = self.op("Unsqueeze", [self.op("Cast", [mask], to=F32), self.ints([1, 2])])
        return self.op("Mul", [self.op("Sub", [self.scalar(1.0), keep]), self.scalar(float(np.finfo(np.float32).min))])


def build_encoder(cfg, w: Weights, embed: np.ndarray) -> onnx.ModelProto:
    g = Builder("opus_mt_encoder")
    d, h, n = cfg["d_model"], cfg["encoder_attention_heads"], cfg["encoder_layers"]
    hd = d // h
    ids = g.input("input_ids", I64, ["batch", "tokens"])
    mask = g.input("attention_mask", I64, ["batch", "tokens"])
    scale = float(np.sqrt(d)) if cfg.get("scale_embedding", False) else 1.0
    x = g.op("Gather", [g.const(embed, "embed"), ids], axis=0)
    if scale != 1.0:
        x = g.op("Mul", [x, g.scalar(scale)])
    length = g.dim(ids, 1)
    positions = g.op("Slice", [g.const(sinusoids(cfg["max_position_embeddings"], d), "positions"), g.ints([0]), length,
                               g.ints([0])])
    x = g.op("Add", [x, positions])
    bias = g.key_bias(mask)
    act = cfg.get("activation_function", "gelu")
    for i in range(n):
        p = f"model.encoder.layers.{i}"
        q = g.op("Mul", [g.linear(x, w, f"{p}.self_attn.q_proj"), g.scalar(hd ** -0.5)])
        k, v = g.linear(x, w, f"{p}.self_attn.k_proj"), g.linear(x, w, f"{p}.self_attn.v_proj")
        ctx = g.merge(g.attend(g.heads(q, h, hd), g.heads(k, h, hd), g.heads(v, h, hd), bias), d)
        x = g.norm(g.op("Add", [x, g.linear(ctx, w, f"{p}.self_attn.out_proj")]), w, f"{p}.self_attn_layer_norm")
        ff = g.linear(g.act(g.linear(x, w, f"{p}.fc1"), act), w, f"{p}.fc2")
        x = g.norm(g.op("Add", [x, ff]), w, f"{p}.final_layer_norm")
    g.op("Identity", [x], outputs=["encoder_out"])
    g.output("encoder_out", F32, ["batch", "tokens", d])
    return g.model()


def build_decoder(cfg, w: Weights, embed: np.ndarray, head: np.ndarray, logits_bias: np.ndarray) -> onnx.ModelProto:
    g = Builder("opus_mt_decoder")
    d, h, n = cfg["d_model"], cfg["decoder_attention_heads"], cfg["decoder_layers"]
    hd = d // h
    ids = g.input("input_ids", I64, ["batch", 1])
    enc = g.input("encoder_out", F32, ["batch", "source", d])
    mask = g.input("attention_mask", I64, ["batch", "source"])
    past = [(g.input(f"past_key_{i}", F32, ["batch", h, "past", hd]), g.input(f"past_value_{i}", F32, ["batch", h, "past", hd]))
            for i in range(n)]
    scale = float(np.sqrt(d)) if cfg.get("scale_embedding", False) else 1.0
    x = g.op("Gather", [g.const(embed, "embed"), ids], axis=0)
    if scale != 1.0:
        x = g.op("Mul", [x, g.scalar(scale)])
    position = g.dim(past[0][0], 2)  # tokens decoded so far
    x = g.op("Add", [x, g.op("Gather", [g.const(sinusoids(cfg["max_position_embeddings"], d), "positions"), position], axis=0)])
    bias = g.key_bias(mask)
    act = cfg.get("activation_function", "gelu")
    for i in range(n):
        p = f"model.decoder.layers.{i}"
        q = g.op("Mul", [g.linear(x, w, f"{p}.self_attn.q_proj"), g.scalar(hd ** -0.5)])
        k = g.op("Concat", [past[i][0], g.heads(g.linear(x, w, f"{p}.self_attn.k_proj"), h, hd)], axis=2,
                 outputs=[f"present_key_{i}"])
        v = g.op("Concat", [past[i][1], g.heads(g.linear(x, w, f"{p}.self_attn.v_proj"), h, hd)], axis=2,
                 outputs=[f"present_value_{i}"])
        ctx = g.merge(g.attend(g.heads(q, h, hd), k, v, None), d)
        x = g.norm(g.op("Add", [x, g.linear(ctx, w, f"{p}.self_attn.out_proj")]), w, f"{p}.self_attn_layer_norm")
        q = g.op("Mul", [g.linear(x, w, f"{p}.encoder_attn.q_proj"), g.scalar(hd ** -0.5)])
        ck, cv = g.linear(enc, w, f"{p}.encoder_attn.k_proj"), g.linear(enc, w, f"{p}.encoder_attn.v_proj")
        ctx = g.merge(g.attend(g.heads(q, h, hd), g.heads(ck, h, hd), g.heads(cv, h, hd), bias), d)
        x = g.norm(g.op("Add", [x, g.linear(ctx, w, f"{p}.encoder_attn.out_proj")]), w, f"{p}.encoder_attn_layer_norm")
        ff = g.linear(g.act(g.linear(x, w, f"{p}.fc1"), act), w, f"{p}.fc2")
        x = g.norm(g.op("Add", [x, ff]), w, f"{p}.final_layer_norm")
    flat = g.op("Reshape", [x, g.ints([-1, d])])
    logits = g.op("MatMul", [flat, g.const(np.ascontiguousarray(head.T), "lm_head")])
    g.op("Add", [logits, g.const(logits_bias.reshape(-1), "final_logits_bias")], outputs=["logits"])
    g.output("logits", F32, ["batch", head.shape[0]])
    for i in range(n):
        g.output(f"present_key_{i}", F32, ["batch", h, "total", hd])
        g.output(f"present_value_{i}", F32, ["batch", h, "total", hd])
    return g.model()


def read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ConversionError(f"cannot read {path.name}: {e}") from e


def token_ids(src: Path, cfg: dict, gen: dict, tok: dict) -> dict:
    """The special ids, from vocab.json by the tokenizer's token strings, checked against the configs."""
    vocab = read_json(src / "vocab.json")
    separate = bool(tok.get("separate_vocabs", False))
    target_vocab = read_json(src / "target_vocab.json") if separate and (src / "target_vocab.json").is_file() else vocab

    def text(key, default):
        value = tok.get(key, default)
        return value.get("content", default) if isinstance(value, dict) else value
    names = {"eos": text("eos_token", "</s>"), "unk": text("unk_token", "<unk>"), "pad": text("pad_token", "<pad>")}
    ids = {}
    for role, token in names.items():
        if token not in vocab:
            raise ConversionError(f"vocab.json has no {role} token {token!r}")
        ids[role] = int(vocab[token])
    eos = gen.get("eos_token_id", cfg.get("eos_token_id"))
    eos = eos[0] if isinstance(eos, list) else eos
    if eos is not None and int(eos) != ids["eos"]:
        raise ConversionError(f"config.json says eos_token_id {eos} but vocab.json puts {names['eos']} at {ids['eos']}")
    start = gen.get("decoder_start_token_id", cfg.get("decoder_start_token_id", cfg.get("pad_token_id", ids["pad"])))
    ids["start"] = int(start)
    ids["languageTokens"] = {} if separate else language_tokens(vocab)
    ids["tokens"] = names
    ids["separate"] = separate
    ids["vocabSize"] = len(target_vocab)
    return ids


def generation(cfg: dict, gen: dict, ids: dict) -> dict:
    def get(key, default=None):
        return gen.get(key, cfg.get(key, default))
    for key, neutral in (("no_repeat_ngram_size", 0), ("repetition_penalty", 1.0), ("encoder_no_repeat_ngram_size", 0),
                         ("do_sample", False), ("num_beam_groups", 1), ("diversity_penalty", 0.0)):
        value = get(key, neutral)
        if value not in (neutral, None):
            refuse(key, value, "Warble decodes greedily or by beam search without it")
    bad = get("bad_words_ids") or []
    if any(len(b) != 1 for b in bad):
        refuse("bad_words_ids", bad, "only single-token bans are applied")
    forced = get("forced_eos_token_id")
    forced = forced[0] if isinstance(forced, list) else forced
    early = get("early_stopping", False)
    return {"maxLength": int(get("max_length", 512) or 512), "beamSize": int(get("num_beams", 1) or 1),
            "lengthPenalty": float(get("length_penalty", 1.0)), "minLength": int(get("min_length", 0) or 0),
            "earlyStopping": "never" if early == "never" else ("true" if early is True else "false"),
            "badWords": [int(b[0]) for b in bad], "forcedEOS": None if forced is None else int(forced),
            "renormalize": bool(get("renormalize_logits", False))}


def quantize(path: Path):
    import logging
    logging.getLogger().setLevel(logging.ERROR)  # its advice to pre-process first is for vision models
    from onnxruntime.quantization import QuantType, quantize_dynamic
    tmp = path.with_suffix(".f32.onnx")
    path.rename(tmp)
    quantize_dynamic(str(tmp), str(path), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])
    tmp.unlink()


def convert(src: Path, out: Path, model_id: str, source: str | None, int8: bool) -> dict:
    cfg = read_json(src / "config.json")
    check_config(cfg)
    gen = read_json(src / "generation_config.json") if (src / "generation_config.json").is_file() else {}
    tok = read_json(src / "tokenizer_config.json") if (src / "tokenizer_config.json").is_file() else {}
    for name in ("source.spm", "target.spm", "vocab.json"):
        if not (src / name).is_file():
            raise ConversionError(f"{src} lacks {name}")
    ids = token_ids(src, cfg, gen, tok)
    try:
        tensors, weights_file = read_weights(src)
    except WeightsError as e:
        raise ConversionError(str(e)) from e
    w = Weights(tensors)
    shared = w.get("model.shared.weight", "model.encoder.embed_tokens.weight")
    enc_embed = w.get("model.encoder.embed_tokens.weight") if w.has("model.encoder.embed_tokens.weight") else shared
    dec_embed = w.get("model.decoder.embed_tokens.weight") if w.has("model.decoder.embed_tokens.weight") else shared
    head = w.get("lm_head.weight") if w.has("lm_head.weight") else dec_embed
    bias = w.get("final_logits_bias") if w.has("final_logits_bias") else np.zeros((1, head.shape[0]), np.float32)
    if bias.size != head.shape[0]:
        raise ConversionError(f"final_logits_bias has {bias.size} values for {head.shape[0]} output rows")
    if ids["vocabSize"] > head.shape[0] or max(ids["eos"], ids["pad"], ids["unk"], ids["start"]) >= head.shape[0]:
        raise ConversionError(f"the vocabulary ({ids['vocabSize']} tokens) does not fit the model's {head.shape[0]} output rows")
    source_dtype = str(next(iter(tensors.values())).dtype)
    out.mkdir(parents=True, exist_ok=True)
    onnx.save(build_encoder(cfg, w, enc_embed), out / "encoder.onnx")
    onnx.save(build_decoder(cfg, w, dec_embed, head, bias), out / "decoder.onnx")
    if int8:
        quantize(out / "encoder.onnx")
        quantize(out / "decoder.onnx")
    names = ["encoder.onnx", "decoder.onnx"]
    for name in TEXT_FILES + OPTIONAL_TEXT:
        if (src / name).is_file():
            if src.resolve() != out.resolve():
                shutil.copyfile(src / name, out / name)
            names.append(name)
    from tools.models import store
    source_lang, target_lang = tok.get("source_lang"), tok.get("target_lang")
    languages = [x for x in (source_lang, target_lang) if x]
    manifest = {
        "id": model_id, "family": "marian", "displayName": f"Opus-MT {model_id}",
        "licence": "CC-BY-4.0 (Opus-MT, Helsinki-NLP; as its model card states)",
        "source": source or str(src), "sampleRate": 0, "languages": languages, "voices": [],
        "files": [store.file_entry(out, n) for n in names],
        "config": {
            "kind": "opus", "eos": ids["eos"], "unk": ids["unk"], "pad": ids["pad"], "start": ids["start"],
            "tokens": ids["tokens"], "separateVocabularies": ids["separate"], "vocab": int(head.shape[0]),
            "languageTokens": ids["languageTokens"],
            "decoderLayers": cfg["decoder_layers"], "heads": cfg["decoder_attention_heads"], "dim": cfg["d_model"],
            "maxPositions": cfg["max_position_embeddings"], **generation(cfg, gen, ids),
            "weights": ("int8 (dynamic MatMul quantisation)" if int8 else "f32") + f", from {weights_file} ({source_dtype})",
        },
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return manifest


# Codes of Opus-MT repository names that are not the ISO 639-1 code Warble uses.
NAME_CODES = {"jap": "ja", "jpn": "ja", "zho": "zh", "cmn": "zh", "eng": "en", "deu": "de", "fra": "fr", "spa": "es",
              "por": "pt", "ita": "it", "rus": "ru", "ara": "ar", "nld": "nl", "kor": "ko", "tur": "tr", "ukr": "uk"}


def normal_code(code: str) -> str:
    return NAME_CODES.get(code.lower(), code)


# ISO 639-3 codes of the >>xxx<< tokens, as the ISO 639-1 codes Warble uses (the others are kept).
THREE_LETTER = {"ara": "ar", "bul": "bg", "cat": "ca", "ces": "cs", "dan": "da", "deu": "de", "ell": "el", "eng": "en",
                "spa": "es", "est": "et", "fas": "fa", "fin": "fi", "fra": "fr", "heb": "he", "hin": "hi", "hun": "hu",
                "ind": "id", "ita": "it", "jpn": "ja", "kor": "ko", "lit": "lt", "lav": "lv", "nld": "nl", "nob": "nb",
                "pol": "pl", "por": "pt", "ron": "ro", "rus": "ru", "slk": "sk", "slv": "sl", "swe": "sv", "swa": "sw",
                "tha": "th", "tur": "tr", "ukr": "uk", "vie": "vi", "zho": "zh", "cmn": "zh", "cym": "cy", "isl": "is",
                "kat": "ka", "kaz": "kk", "nep": "ne", "srp": "sr", "mal": "ml", "tel": "te", "urd": "ur", "ltz": "lb"}


def language_tokens(vocab: dict) -> dict:
    """{language code: >>xxx<< token} of a multi-target vocabulary (the plain token before a scripted one)."""
    found = {}
    for token in sorted(vocab, key=lambda t: (len(t), t)):
        if token.startswith(">>") and token.endswith("<<") and len(token) > 4:
            code = token[2:-2].split("_")[0]
            found.setdefault(THREE_LETTER.get(code, code), token)
    return found


def languages_of(repo: str):
    """opus-mt-en-de, opus-mt-tc-big-en-fr -> [en, de] / [en, fr]; None for other names."""
    name = repo.rsplit("/", 1)[-1]
    match = re.fullmatch(r"opus-mt-(?:tc-big-|tc-base-)?([A-Za-z_]+)-([A-Za-z_]+)", name)
    return [match.group(1), match.group(2)] if match else None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("src", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--id", required=True)
    p.add_argument("--source")
    p.add_argument("--int8", action="store_true")
    p.add_argument("--variant", choices=["f32", "int8"], help="the catalogue variant (`warble models pull ID:int8`)")
    p.add_argument("--repo", help="OWNER/NAME it was pulled from (its name gives the languages: opus-mt-SRC-TGT)")
    p.add_argument("--languages", help="SRC,TGT when neither tokenizer_config.json nor the name says them")
    args = p.parse_args(argv)
    try:
        manifest = convert(args.src, args.out, args.id, args.source, args.int8 or args.variant == "int8")
        languages = args.languages.split(",") if args.languages else manifest["languages"]
        if len(languages) != 2 and args.repo:
            languages = languages_of(args.repo) or []
        languages = [normal_code(c) for c in languages]
        if manifest["config"]["languageTokens"] and languages:
            # A multi-target model (its target chosen by a >>xxx<< token): the source, then every target.
            languages = languages[:1] + sorted(manifest["config"]["languageTokens"])
        if len(languages) != 2:
            raise ConversionError("tokenizer_config.json names no source_lang/target_lang, nor does the repository's name "
                                  "(opus-mt-SRC-TGT): pass --languages SRC,TGT")
        manifest["languages"] = languages
        (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    except ConversionError as e:
        print(f"convert_opus.py: error: {e}", file=sys.stderr)
        return 1
    print(json.dumps({"id": manifest["id"], "files": len(manifest["files"])}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
