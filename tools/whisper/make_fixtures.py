#!/usr/bin/env python3
"""Writes the fixtures for the Swift Whisper pipeline tests into OUTDIR (faster-whisper is the reference).

    make_fixtures.py OUTDIR [--threads N]

Needs whisper-tiny.en and whisper-base installed by tools/whisper/install.sh (the ct2 source in
$WARBLE_HOME/cache/whisper-ct2/<id>/ is what faster-whisper runs). Writes:
  <clip>.wav                      16 kHz mono 16-bit espeak-ng clips (samples / 32768 = the audio used)
  <clip>.features.f32             faster-whisper's log-mel of the whole clip, float32 LE [80, frames]
  <clip>.window.f32               the first encoder window: frames - 1 columns, padded with 0 to [80, 3000]
  index.json                      shapes of those, and per model and clip the faster-whisper results:
      greedy:  beam 1, temperature 0, without_timestamps, condition_on_previous_text False
               (token ids without end of text, text, the prompt it used)
      default: faster-whisper's default options (beam 5, temperature fallback, timestamps):
               language, probability, segments with start, end, text, tokens
      first_steps: for the features clip, top-5 ids and values of ctranslate2's logits at the first 3
               greedy steps (after suppression: suppressed ids are never among them)
  large/                          random_large.py's miniature large-v3 and large-v3-turbo: their Hub
                                  repositories, their conversions, clips, 128-bin log-mel and faster-whisper's
                                  tokens (greedy and beam 5, with and without timestamps)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys


import numpy as np

from tools.common.threads import maker_threads
from tools.whisper.check_parity import model_paths, prompt_for, window_features
from tools.whisper.clips import CLIPS, make_clips, read_wav

FIXTURE_CLIPS = ["en_fox", "en_weather", "en_numbers", "de_wetter"]
FEATURES_CLIP = "en_fox"
MODELS = ["whisper-tiny.en", "whisper-base"]


def model_fixtures(model_id: str, clips: list[dict], out: str, threads: int) -> dict:
    import ctranslate2
    from faster_whisper import WhisperModel
    from faster_whisper.tokenizer import Tokenizer
    from faster_whisper.transcribe import get_suppressed_tokens

    onnx_dir, ct2_dir = model_paths(model_id)
    with open(os.path.join(onnx_dir, "manifest.json"), encoding="utf-8") as f:
        config = json.load(f)["config"]
    fw = WhisperModel(ct2_dir, device="cpu", compute_type="float32", cpu_threads=threads)
    multilingual = config["multilingual"]
    tokenizer = Tokenizer(fw.hf_tokenizer, multilingual, task="transcribe", language="en" if multilingual else None)
    suppress = list(get_suppressed_tokens(tokenizer, [-1]))
    result = {"suppress_ids": suppress, "clips": {}}
    for clip in clips:
        if not multilingual and clip["language"] != "en":
            continue
        audio = read_wav(clip["path"])
        language = clip["language"] if multilingual else None
        segments, info = fw.transcribe(audio, language=language, beam_size=1, temperature=0.0,
                                       without_timestamps=True, condition_on_previous_text=False,
                                       vad_filter=False)
        segments = list(segments)
        tokens = [t for s in segments for t in s.tokens]
        entry = {
            "greedy": {"language": info.language, "prompt": prompt_for(config, clip["language"], "transcribe"),
                       "tokens": tokens, "text": "".join(s.text for s in segments).strip()},
        }
        segments, info = fw.transcribe(audio)
        entry["default"] = {
            "language": info.language,
            "language_probability": round(float(info.language_probability), 6),
            "segments": [{"start": s.start, "end": s.end, "text": s.text, "tokens": list(s.tokens),
                          "avg_logprob": round(float(s.avg_logprob), 6), "temperature": s.temperature}
                         for s in segments],
        }
        entry["default"]["text"] = "".join(s["text"] for s in entry["default"]["segments"]).strip()
        if clip["name"] == FEATURES_CLIP:
            mel = window_features(fw, audio)
            encoded = fw.model.encode(ctranslate2.StorageView.from_array(mel[None]), to_cpu=True)
            gen = fw.model.generate(encoded, [entry["greedy"]["prompt"]], beam_size=1, return_logits_vocab=True,
                                    suppress_blank=True, suppress_tokens=suppress, max_length=448)[0]
            steps = []
            for logits in gen.logits[0][:3]:
                v = np.array(logits)
                top = np.argsort(-v, kind="stable")[:5]
                steps.append({"ids": [int(i) for i in top], "values": [round(float(v[i]), 5) for i in top]})
            entry["first_steps"] = {"note": "ctranslate2 logits after suppression (suppress_ids every step, "
                                            "suppress_ids_begin at step 0); compare top-5 ids exactly and "
                                            "values within 1e-3", "steps": steps}
        result["clips"][clip["name"]] = entry
        print(f"make_fixtures: {model_id} {clip['name']}: {entry['greedy']['text']!r}", file=sys.stderr)
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--threads", type=int, default=maker_threads())
    args = parser.parse_args(argv)
    for model_id in MODELS:
        model_paths(model_id)  # fails with the install command when missing
    os.makedirs(args.outdir, exist_ok=True)
    clips = make_clips(args.outdir, [c for c in CLIPS if c[0] in FIXTURE_CLIPS])

    from faster_whisper.feature_extractor import FeatureExtractor

    extractor = FeatureExtractor(feature_size=80)
    feature_clip = next(c for c in clips if c["name"] == FEATURES_CLIP)
    audio = read_wav(feature_clip["path"])
    features = np.ascontiguousarray(extractor(audio), dtype="<f4")
    from faster_whisper.audio import pad_or_trim

    window = np.ascontiguousarray(pad_or_trim(features[:, :min(3000, features.shape[-1] - 1)]), dtype="<f4")
    features.tofile(os.path.join(args.outdir, f"{FEATURES_CLIP}.features.f32"))
    window.tofile(os.path.join(args.outdir, f"{FEATURES_CLIP}.window.f32"))

    index = {
        "about": "Whisper fixtures from faster-whisper 1.2.1 / ctranslate2 4.8.5 (tools/whisper/make_fixtures.py)",
        "sample_rate": 16000,
        "clips": [{"name": c["name"], "file": os.path.basename(c["path"]), "language": c["language"],
                   "voice": c["voice"], "spoken_text": c["text"], "samples": int(read_wav(c["path"]).size)}
                  for c in clips],
        "features": {"clip": FEATURES_CLIP,
                     "full": {"file": f"{FEATURES_CLIP}.features.f32", "dtype": "float32le",
                              "shape": list(features.shape),
                              "note": "FeatureExtractor(feature_size=80)(audio): n_samples // 160 + 1 frames"},
                     "window": {"file": f"{FEATURES_CLIP}.window.f32", "dtype": "float32le",
                                "shape": list(window.shape),
                                "note": "full[:, :frames-1], zero-padded to 3000 (the encoder input)"},
                     "tolerance": "max abs error < 1e-4 suggested"},
        "models": {m: model_fixtures(m, clips, args.outdir, args.threads) for m in MODELS},
    }
    text = json.dumps(index, indent=1, ensure_ascii=False)
    # Keep lists of numbers on one line.
    text = re.sub(r"\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]",
                  lambda m: "[" + ", ".join(m.group(1).replace(",", " ").split()) + "]", text)
    with open(os.path.join(args.outdir, "index.json"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    import random_large

    random_large.main([os.path.join(args.outdir, "large")])
    print(f"make_fixtures: wrote {args.outdir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
