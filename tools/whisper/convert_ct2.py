#!/usr/bin/env python3
"""Converts a CTranslate2 Whisper model directory to ONNX Runtime graphs for Warble.

    convert_ct2.py SRC_DIR OUT_DIR --id whisper-tiny.en [--display-name ...] [--source ...]

SRC_DIR holds model.bin (ctranslate2 binary version 1-6; f32, f16, bf16, int8/int16 with scales),
config.json, tokenizer.json and the vocabulary: vocabulary.txt (one token a line: the older Systran
repositories) or vocabulary.json (a JSON list: large-v3 and what newer ctranslate2 converters write).
preprocessor_config.json (large-v3: feature_size 128), when there, must agree with the model's first
convolution and describe the front end Warble computes (16 kHz, n_fft 400, hop 160, 30 s). OUT_DIR
receives encoder.onnx, decoder.onnx, copies of the text files and manifest.json (format shared by
every model in Warble's store). Needs only numpy and onnx. Graph layout: see whisper_graphs.py (also
written into the manifest's config).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys


import onnx

from tools.whisper.ct2_model import Ct2FormatError, read_model
from tools.whisper.whisper_graphs import N_AUDIO_CTX, N_FRAMES, WhisperDims, build_decoder, build_encoder

TEXT_FILES = ("tokenizer.json", "config.json")
VOCABULARIES = ("vocabulary.txt", "vocabulary.json")
PREPROCESSOR = "preprocessor_config.json"
# The front end Warble computes (WarbleAudio's WhisperLogMel): a preprocessor_config.json must agree.
FRONT_END = {"sampling_rate": 16000, "n_fft": 400, "hop_length": 160, "chunk_length": 30}
LANGUAGE_TOKEN = re.compile(r"^<\|([a-z]{2,3}|haw|yue)\|>$")


class ConversionError(Exception):
    pass


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_vocabulary(path: str, n_vocab: int) -> list[str]:
    with open(path, encoding="utf-8") as f:
        if path.endswith(".json"):
            try:
                tokens = json.load(f)
            except json.JSONDecodeError as error:
                raise ConversionError(f"{path} is not JSON: {error}") from None
            if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
                raise ConversionError(f"{path} is not a JSON list of tokens")
        else:
            tokens = f.read().split("\n")
            if tokens and tokens[-1] == "":
                tokens.pop()
    if len(tokens) != n_vocab:
        raise ConversionError(f"{path} has {len(tokens)} tokens, but the model's embedding table has "
                              f"{n_vocab} rows")
    return tokens


def special_tokens(tokens: list[str], path: str) -> dict:
    index = {tok: i for i, tok in enumerate(tokens)}

    def need(*names: str) -> int:
        for name in names:
            if name in index:
                return index[name]
        raise ConversionError(f"{path} has no {' or '.join(names)} token")

    ids = {
        "eot": need("<|endoftext|>"),
        "sot": need("<|startoftranscript|>"),
        "translate": need("<|translate|>"),
        "transcribe": need("<|transcribe|>"),
        "sot_lm": need("<|startoflm|>"),
        "sot_prev": need("<|startofprev|>"),
        "no_speech": need("<|nospeech|>", "<|nocaptions|>"),
        "notimestamps": need("<|notimestamps|>"),
        "timestamp_begin": need("<|0.00|>"),
    }
    langs = [(i, m.group(1)) for i in range(ids["sot"] + 1, ids["translate"])
             if (m := LANGUAGE_TOKEN.match(tokens[i]))]
    return ids, langs


def vocabulary_file(src: str) -> str:
    for name in VOCABULARIES:
        if os.path.isfile(os.path.join(src, name)):
            return name
    raise ConversionError(f"{src} has no {' or '.join(VOCABULARIES)} (needed beside model.bin)")


def check_preprocessor(src: str, n_mels: int) -> None:
    """preprocessor_config.json, when there, against the model's mel count and Warble's front end."""
    path = os.path.join(src, PREPROCESSOR)
    if not os.path.isfile(path):
        return
    try:
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ConversionError(f"{path} is not JSON: {error}") from None
    if not isinstance(config, dict):
        raise ConversionError(f"{path} is not a JSON object")
    size = config.get("feature_size", n_mels)
    if size != n_mels:
        raise ConversionError(f"{path} says feature_size {size}, but the model's first convolution takes {n_mels} mel bins")
    for key, value in FRONT_END.items():
        if config.get(key, value) != value:
            raise ConversionError(f"{path} says {key} {config[key]}; Warble's Whisper front end computes {key} {value}")


def build_config(dims: WhisperDims, ids: dict, langs: list, ct2_config: dict, model) -> dict:
    D = dims.d_model
    L, H = dims.decoder_layers, dims.decoder_heads
    multilingual = dims.n_vocab >= 51865
    suppress = ct2_config.get("suppress_ids", [])
    suppress_begin = ct2_config.get("suppress_ids_begin", [220, ids["eot"]])
    return {
        "n_mels": dims.n_mels,
        "n_vocab": dims.n_vocab,
        "n_audio_ctx": N_AUDIO_CTX,
        "n_frames": N_FRAMES,
        "n_text_ctx": dims.n_text_ctx,
        "d_model": D,
        "encoder_layers": dims.encoder_layers,
        "encoder_heads": dims.encoder_heads,
        "decoder_layers": L,
        "decoder_heads": H,
        "head_dim": D // H,
        "multilingual": multilingual,
        "special_tokens": ids,
        "suppress_ids": suppress,
        "suppress_ids_begin": suppress_begin,
        "lang_ids": [i for i, _ in langs] if multilingual else [],
        "lang_codes": [c for _, c in langs] if multilingual else [],
        "alignment_heads": ct2_config.get("alignment_heads", []),
        "source_format": {"binary_version": model.binary_version, "spec": model.spec,
                          "spec_revision": model.spec_revision,
                          "weight_dtype": model.get("decoder/embeddings/weight").dtype},
        "graphs": {
            "encoder": {
                "file": "encoder.onnx",
                "inputs": {"mel": f"f32 [B, {dims.n_mels}, {N_FRAMES}]"},
                "outputs": {"hidden": f"f32 [B, {N_AUDIO_CTX}, {D}]",
                            "cross_k_<i>": f"f32 [B, {H}, {D // H}, {N_AUDIO_CTX}] for i in 0..<{L} (K transposed)",
                            "cross_v_<i>": f"f32 [B, {H}, {N_AUDIO_CTX}, {D // H}] for i in 0..<{L}"},
            },
            "decoder": {
                "file": "decoder.onnx",
                "inputs": {"tokens": "i64 [B, T]",
                           "offset": "i64 [1] (position of tokens[:, 0], normally equal to P)",
                           "logit_positions": "i64 [K] (positions of the call whose logits are wanted)",
                           "past_k_<i>": f"f32 [B, {H}, {D // H}, P] for i in 0..<{L} (K transposed; P = 0 at the start)",
                           "past_v_<i>": f"f32 [B, {H}, P, {D // H}] for i in 0..<{L}",
                           "cross_k_<i>": "encoder output, batch 1 (shared by B beams) or B",
                           "cross_v_<i>": "encoder output, batch 1 (shared by B beams) or B"},
                "outputs": {"logits": f"f32 [B, K, {dims.n_vocab}]",
                            "present_k_<i>": f"f32 [B, {H}, {D // H}, P+T] for i in 0..<{L}",
                            "present_v_<i>": f"f32 [B, {H}, P+T, {D // H}] for i in 0..<{L}",
                            "cross_scores_<i>": f"f32 [1, {H}, T, {N_AUDIO_CTX}] for i in 0..<{L} with B = 1: "
                                                "cross-attention scores before softmax (word alignment)"},
            },
            "kv_layout": {"past_k": "one tensor per decoder layer: batch, head, head_dim, position",
                          "past_v": "one tensor per decoder layer: batch, head, position, head_dim",
                          "cross_k": "one tensor per decoder layer: batch, head, head_dim, audio_position",
                          "cross_v": "one tensor per decoder layer: batch, head, audio_position, head_dim",
                          "dtype": "float32",
                          "max_positions": dims.n_text_ctx},
        },
    }


def convert(src: str, out: str, model_id: str, display_name: str, source: str) -> dict:
    bin_path = os.path.join(src, "model.bin")
    if not os.path.isfile(bin_path):
        raise ConversionError(f"{bin_path} does not exist")
    for name in TEXT_FILES:
        if not os.path.isfile(os.path.join(src, name)):
            raise ConversionError(f"{os.path.join(src, name)} does not exist (needed beside model.bin)")
    vocabulary = vocabulary_file(src)
    text_files = TEXT_FILES + (vocabulary,) + ((PREPROCESSOR,) if os.path.isfile(os.path.join(src, PREPROCESSOR)) else ())
    model = read_model(bin_path)
    dims = WhisperDims(model)
    check_preprocessor(src, dims.n_mels)
    tokens = read_vocabulary(os.path.join(src, vocabulary), dims.n_vocab)
    ids, langs = special_tokens(tokens, os.path.join(src, vocabulary))
    with open(os.path.join(src, "config.json"), encoding="utf-8") as f:
        ct2_config = json.load(f)

    os.makedirs(out, exist_ok=True)
    onnx.save(build_encoder(model, dims), os.path.join(out, "encoder.onnx"))
    onnx.save(build_decoder(model, dims), os.path.join(out, "decoder.onnx"))
    for name in text_files:
        shutil.copyfile(os.path.join(src, name), os.path.join(out, name))

    config = build_config(dims, ids, langs, ct2_config, model)
    files = []
    for name in ("encoder.onnx", "decoder.onnx") + text_files:
        path = os.path.join(out, name)
        files.append({"path": name, "sha256": sha256_of(path), "bytes": os.path.getsize(path)})
    manifest = {
        "id": model_id,
        "family": "whisper",
        "displayName": display_name,
        "licence": "MIT",
        "source": source,
        "sampleRate": 16000,
        "languages": config["lang_codes"] if config["multilingual"] else ["en"],
        "voices": [],
        "files": files,
        "config": config,
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    return manifest


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src", help="directory with model.bin, config.json, vocabulary.txt or .json, tokenizer.json "
                                    "[, preprocessor_config.json]")
    parser.add_argument("out", help="output directory")
    parser.add_argument("--id", required=True, help="model id, e.g. whisper-tiny.en")
    parser.add_argument("--display-name", help="human-readable name (default from the id)")
    parser.add_argument("--source", default="CTranslate2 model converted by tools/whisper/convert_ct2.py")
    args = parser.parse_args(argv)
    display = args.display_name or args.id.replace("whisper-", "Whisper ")
    try:
        manifest = convert(args.src, args.out, args.id, display, args.source)
    except (Ct2FormatError, ConversionError) as error:
        print(f"convert_ct2: error: {error}", file=sys.stderr)
        return 1
    sizes = ", ".join(f"{f['path']} {f['bytes'] / 1e6:.1f} MB" for f in manifest["files"][:2])
    print(f"convert_ct2: wrote {args.out} ({sizes})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
