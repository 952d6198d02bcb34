#!/usr/bin/env python3
"""Randomly initialised Whisper large-v3 and large-v3-turbo in miniature, as the Hub publishes them.

    random_large.py OUTDIR [--repos-only]

The weights of large-v3 and its turbo cannot be downloaded here, so the converter and the family are
proven on models of their structure: a transformers WhisperForConditionalGeneration with 128 mel bins,
large-v3's 51,866-token vocabulary (the multilingual BPE, then <|endoftext|>, <|startoftranscript|>,
100 languages ending with <|yue|>, <|translate|>, <|transcribe|>, <|startoflm|>, <|startofprev|>,
<|nospeech|>, <|notimestamps|>, 1,501 timestamps: the special ids one above the older multilingual
models'), made small (d_model 64) and random, then converted by ctranslate2's own converter as the
published repositories were (`ct2-transformers-converter --copy_files tokenizer.json
preprocessor_config.json --quantization float16`). large-v3 has 2 + 2 layers here; the turbo has the
same encoder and 4 decoder layers. Writes:

  OUTDIR/repos/Systran/faster-whisper-large-v3/            model.bin, config.json, vocabulary.json,
  OUTDIR/repos/mobiuslabsgmbh/faster-whisper-large-v3-turbo/  tokenizer.json, preprocessor_config.json
  (with --repos-only nothing else; otherwise also:)
  OUTDIR/onnx/whisper-large-v3[-turbo]/      tools/whisper/convert_ct2.py's conversion (the Swift tests load it)
  OUTDIR/<clip>.wav                          espeak-ng clips (tools/whisper/clips.py)
  OUTDIR/<clip>.features128.f32              faster-whisper's 128-bin log-mel of the clip, float32 LE [128, frames]
  OUTDIR/index.json                          faster-whisper 1.2.1's tokens and text per model, clip and case

The multilingual BPE and the 99 older language tokens come from the installed whisper-base's
tokenizer.json ($WARBLE_HOME/cache/whisper-ct2/whisper-base, tools/whisper/install.sh). The repository
names are faster-whisper's own (faster_whisper/utils.py: "large-v3" and "large-v3-turbo"/"turbo").
Needs torch and transformers (tools/neutts/install_parity.sh) besides ctranslate2 and faster-whisper.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from clips import CLIPS, make_clips, read_wav  # noqa: E402

D_MODEL = 64
HEADS = 4
FFN = 256
SEED = 20261128
# Scales the random weights up from transformers' init (std 0.02): strong enough that the tokens follow the audio.
INIT_STD = 0.35

MODELS = {
    "whisper-large-v3": {"repo": "Systran/faster-whisper-large-v3", "encoder_layers": 2, "decoder_layers": 2},
    "whisper-large-v3-turbo": {"repo": "mobiuslabsgmbh/faster-whisper-large-v3-turbo", "encoder_layers": 2,
                               "decoder_layers": 4},
}
FIXTURE_CLIPS = ["en_fox", "de_wetter"]
# (name, beam size, timestamps): each with temperature 0, no previous-text conditioning, no VAD; "translate" is
# Whisper's translate task (the others transcribe).
CASES = [("greedy", 1, False), ("greedy_timestamps", 1, True), ("beam5", 5, False), ("beam5_timestamps", 5, True),
         ("translate", 1, True)]


def warble_home() -> str:
    home = os.environ.get("WARBLE_HOME")
    if home:
        return home
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "warble")


def large_v3_tokenizer(base_path: str) -> dict:
    """whisper-base's tokenizer.json with large-v3's added tokens (<|yue|>, <|nospeech|>, ids shifted by one,
    the timestamps listed)."""
    with open(base_path, encoding="utf-8") as f:
        tokenizer = json.load(f)
    added = tokenizer["added_tokens"]
    names = [a["content"] for a in added]
    first = added[0]["id"]
    if names[0] != "<|endoftext|>" or "<|translate|>" not in names:
        raise SystemExit(f"{base_path} is not a multilingual Whisper tokenizer")
    languages = names[2:names.index("<|translate|>")]
    specials = (["<|endoftext|>", "<|startoftranscript|>"] + languages + ["<|yue|>", "<|translate|>", "<|transcribe|>",
                "<|startoflm|>", "<|startofprev|>", "<|nospeech|>", "<|notimestamps|>"])
    template = dict(added[0])
    tokens = []
    for i, name in enumerate(specials):
        tokens.append({**template, "id": first + i, "content": name, "special": True})
    for i in range(1501):
        tokens.append({**template, "id": first + len(specials) + i, "content": "<|%.2f|>" % (i * 0.02), "special": False})
    tokenizer["added_tokens"] = tokens
    ids = {t["content"]: t["id"] for t in tokens}
    for entry in tokenizer.get("post_processor", {}).get("special_tokens", {}).values():
        entry["ids"] = [ids[entry["id"]]]
    return tokenizer


def make_hf_model(directory: str, tokenizer_json: dict, encoder_layers: int, decoder_layers: int) -> None:
    import torch
    from transformers import GenerationConfig, WhisperConfig, WhisperFeatureExtractor, WhisperForConditionalGeneration

    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json, f, ensure_ascii=False)
    ids = {t["content"]: t["id"] for t in tokenizer_json["added_tokens"]}
    eot, sot = ids["<|endoftext|>"], ids["<|startoftranscript|>"]
    languages = [name for name, i in ids.items() if sot < i < ids["<|translate|>"]]
    with open(os.path.join(directory, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump({"tokenizer_class": "WhisperTokenizer", "bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>",
                   "unk_token": "<|endoftext|>", "pad_token": "<|endoftext|>", "model_max_length": 1024,
                   "additional_special_tokens": [n for n in ids if n.startswith("<|") and not n[2].isdigit()][1:]}, f)
    vocab_size = len(tokenizer_json["model"]["vocab"]) - 1 + len(tokenizer_json["added_tokens"])
    config = WhisperConfig(
        vocab_size=vocab_size, num_mel_bins=128, d_model=D_MODEL, encoder_layers=encoder_layers,
        decoder_layers=decoder_layers, encoder_attention_heads=HEADS, decoder_attention_heads=HEADS,
        encoder_ffn_dim=FFN, decoder_ffn_dim=FFN, max_source_positions=1500, max_target_positions=448,
        pad_token_id=eot, bos_token_id=eot, eos_token_id=eot, decoder_start_token_id=sot, init_std=INIT_STD,
        begin_suppress_tokens=[220, eot])
    torch.manual_seed(SEED + decoder_layers)
    model = WhisperForConditionalGeneration(config).eval()
    with torch.no_grad():
        # The learned positions start at zero in transformers; give them values as a trained model has.
        model.model.decoder.embed_positions.weight.normal_(0, INIT_STD)
        # Biases as a trained model has them (transformers starts them at zero); the LayerNorms stay at
        # 1 and 0, which ctranslate2 stores once and aliases (the converter must follow aliases).
        for name, parameter in model.named_parameters():
            if name.endswith(".bias") and "layer_norm" not in name:
                parameter.normal_(0, INIT_STD)
    model.save_pretrained(directory)
    WhisperFeatureExtractor(feature_size=128).save_pretrained(directory)

    # The suppress list a trained model's generation config carries equals faster-whisper's own
    # (suppress_tokens=[-1]): the non-speech tokens and the special ones.
    from faster_whisper.tokenizer import Tokenizer
    from faster_whisper.transcribe import get_suppressed_tokens
    from tokenizers import Tokenizer as HFTokenizer

    fw_tokenizer = Tokenizer(HFTokenizer.from_file(os.path.join(directory, "tokenizer.json")), True,
                             task="transcribe", language="en")
    generation = GenerationConfig(
        decoder_start_token_id=sot, eos_token_id=eot, pad_token_id=eot, bos_token_id=eot, max_length=448,
        suppress_tokens=list(get_suppressed_tokens(fw_tokenizer, [-1])), begin_suppress_tokens=[220, eot],
        alignment_heads=[[layer, head] for layer in range(decoder_layers // 2, decoder_layers) for head in range(0, HEADS, 2)],
        lang_to_id={name: ids[name] for name in languages}, task_to_id={"translate": ids["<|translate|>"],
                                                                        "transcribe": ids["<|transcribe|>"]},
        is_multilingual=True, no_timestamps_token_id=ids["<|notimestamps|>"])
    generation.save_pretrained(directory)


def make_repos(out: str) -> dict[str, str]:
    import ctranslate2

    base = os.path.join(warble_home(), "cache", "whisper-ct2", "whisper-base", "tokenizer.json")
    if not os.path.isfile(base):
        raise SystemExit(f"random_large: {base} is missing; run tools/whisper/install.sh whisper-base")
    tokenizer = large_v3_tokenizer(base)
    repos = {}
    for model_id, spec in MODELS.items():
        repo = os.path.join(out, "repos", *spec["repo"].split("/"))
        shutil.rmtree(repo, ignore_errors=True)
        with tempfile.TemporaryDirectory() as tmp:
            make_hf_model(tmp, tokenizer, spec["encoder_layers"], spec["decoder_layers"])
            converter = ctranslate2.converters.TransformersConverter(
                tmp, copy_files=["tokenizer.json", "preprocessor_config.json"])
            converter.convert(repo, quantization="float16")
        repos[model_id] = repo
    return repos


def transcripts(model_id: str, repo: str, clips: list[dict]) -> dict:
    from faster_whisper import WhisperModel

    fw = WhisperModel(repo, device="cpu", compute_type="float32", cpu_threads=1)
    import hashlib

    with open(os.path.join(repo, "model.bin"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    result = {"repo": MODELS[model_id]["repo"], "model_bin_sha256": digest,
              "n_mels": int(fw.feature_extractor.mel_filters.shape[0]), "clips": {}}
    for clip in clips:
        audio = read_wav(clip["path"])
        entry = {}
        for name, beam, timestamps in CASES:
            language = None if name == "greedy" and clip["name"] == FIXTURE_CLIPS[0] else clip["language"]
            segments, info = fw.transcribe(audio, language=language, beam_size=beam, temperature=0.0,
                                           task="translate" if name == "translate" else "transcribe",
                                           without_timestamps=not timestamps, condition_on_previous_text=False,
                                           vad_filter=False)
            segments = list(segments)
            entry[name] = {"language": info.language, "detected": language is None,
                           "task": "translate" if name == "translate" else "transcribe",
                           "beam_size": beam, "timestamps": timestamps,
                           "tokens": [t for s in segments for t in s.tokens],
                           "segments": [{"start": round(s.start, 3), "end": round(s.end, 3), "text": s.text,
                                         "tokens": list(s.tokens)} for s in segments],
                           "text": "".join(s.text for s in segments).strip()}
        result["clips"][clip["name"]] = entry
        print(f"random_large: {model_id} {clip['name']}: {entry['greedy']['text'][:60]!r}", file=sys.stderr)
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--repos-only", action="store_true")
    args = parser.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    repos = make_repos(args.outdir)
    if args.repos_only:
        return 0
    for model_id, repo in repos.items():
        onnx_dir = os.path.join(args.outdir, "onnx", model_id)
        shutil.rmtree(onnx_dir, ignore_errors=True)
        subprocess.run([sys.executable, os.path.join(HERE, "convert_ct2.py"), repo, onnx_dir, "--id", model_id],
                       check=True, stderr=subprocess.DEVNULL)
    clips = make_clips(args.outdir, [c for c in CLIPS if c[0] in FIXTURE_CLIPS])

    import numpy as np
    from faster_whisper.feature_extractor import FeatureExtractor

    extractor = FeatureExtractor(feature_size=128)
    features = {}
    for clip in clips:
        mel = np.ascontiguousarray(extractor(read_wav(clip["path"])), dtype="<f4")
        mel.tofile(os.path.join(args.outdir, f"{clip['name']}.features128.f32"))
        features[clip["name"]] = {"file": f"{clip['name']}.features128.f32", "shape": list(mel.shape)}
    index = {
        "about": "random Whisper large-v3 / large-v3-turbo in miniature (tools/whisper/random_large.py), "
                 "transcribed by faster-whisper 1.2.1 / ctranslate2 4.8.5 (float32 on the CPU)",
        "cases": "greedy: beam 1; beam5: beam 5 (best_of 5); *_timestamps with timestamps; translate: beam 1, timestamps, the "
                 "translate task; all temperature 0, "
                 "condition_on_previous_text False, no VAD; en_fox greedy detects the language, the others give it",
        "clips": [{"name": c["name"], "file": os.path.basename(c["path"]), "language": c["language"]} for c in clips],
        "features": {"extractor": "faster_whisper.feature_extractor.FeatureExtractor(feature_size=128)(audio)",
                     "clips": features},
        "models": {m: transcripts(m, repo, clips) for m, repo in repos.items()},
    }
    text = json.dumps(index, indent=1, ensure_ascii=False)
    text = re.sub(r"\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]",
                  lambda m: "[" + ", ".join(m.group(1).replace(",", " ").split()) + "]", text)
    with open(os.path.join(args.outdir, "index.json"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
