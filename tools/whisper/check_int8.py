#!/usr/bin/env python3
"""Accuracy of the int8 Whisper variants against their f32 models (ONNX Runtime, greedy decoding).

    check_int8.py [MODEL_ID ...] [--threads N]     (default: whisper-tiny.en whisper-base)

For each model with an installed `<id>-int8` (tools/whisper/install.sh <id>-int8) and each espeak-ng clip
of tools/whisper/clips.py (English; German too for multilingual models), decodes the first window greedily
(beam 1, no timestamps) with both graphs and prints: whether the token ids are identical, the share of
f32 tokens the int8 run reproduced in order (token agreement: 1 - token edit distance / f32 length), the
word error rate of the int8 text against the f32 text, and both texts' WER against the spoken sentence.
Also the max abs difference of the first step's logits and of the encoder output. Prints a summary; exits 1
when the int8 WER against f32 over a model's English clips exceeds WER_BOUND.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile


import numpy as np

from tools.common.edits import edit_distance
from tools.whisper.check_parity import model_paths, prompt_for, window_features
from tools.whisper.clips import CLIPS, make_clips, read_wav
from tools.whisper.ort_whisper import OrtWhisper

WER_BOUND = 0.10  # int8 vs f32 text, words over all clips of a model (the Swift test uses the same bound)


def words(text: str) -> list[str]:
    return re.sub(r"[^\w\s']", " ", text.lower()).split()


def check_model(model_id: str, clips: list[dict], threads: int, int8_dir: str | None = None) -> tuple[int, int]:
    from faster_whisper import WhisperModel

    f32_dir, ct2_dir = model_paths(model_id)
    int8_dir = int8_dir or f32_dir + "-int8"
    if not os.path.isfile(os.path.join(int8_dir, "encoder.onnx")):
        sys.exit(f"check_int8: {int8_dir} is missing; run tools/whisper/install.sh {model_id}-int8")
    fw = WhisperModel(ct2_dir, device="cpu", compute_type="float32", cpu_threads=threads)
    f32, int8 = OrtWhisper(f32_dir, threads=threads), OrtWhisper(int8_dir, threads=threads)
    config = f32.config
    print(f"\n{model_id} vs {int8_dir} (greedy, first window)")
    print(f"  {'clip':<11}{'same ids':>9}{'agree':>7}{'WER/f32':>8}{'WER f32/int8 vs script':>24}"
          f"{'enc max':>9}{'logit max':>10}  int8 text")
    errors = total = 0
    for clip in clips:
        if clip["language"] != "en" and not config["multilingual"]:
            continue
        mel = window_features(fw, read_wav(clip["path"]))
        prompt = prompt_for(config, clip["language"], "transcribe")
        enc32, enc8 = f32.encode(mel), int8.encode(mel)
        tok32, logits32 = f32.greedy(enc32, prompt)
        tok8, logits8 = int8.greedy(enc8, prompt)
        text32 = fw.hf_tokenizer.decode(tok32).strip()
        text8 = fw.hf_tokenizer.decode(tok8).strip()
        agree = 1 - edit_distance(tok8, tok32) / max(len(tok32), 1)
        w32, w8, ref = words(text32), words(text8), words(clip["text"])
        e = edit_distance(w8, w32)
        if clip["language"] == "en":  # the bound is on English; German is printed (base f32 itself misses there)
            errors, total = errors + e, total + len(w32)
        enc_err = float(np.abs(enc32["hidden"] - enc8["hidden"]).max())
        logit_err = float(np.abs(logits32[0] - logits8[0]).max())
        script = f"{edit_distance(w32, ref) / len(ref):.3f}/{edit_distance(w8, ref) / len(ref):.3f}"
        print(f"  {clip['name']:<11}{str(tok8 == tok32):>9}{agree:>7.3f}{e / max(len(w32), 1):>8.3f}{script:>24}"
              f"{enc_err:>9.3f}{logit_err:>10.3f}  {text8}")
    print(f"  WER int8 vs f32 over the {total} English words: {errors / max(total, 1):.3f} (bound {WER_BOUND})")
    return errors, total


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", default=["whisper-tiny.en", "whisper-base"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--int8-dir", help="another quantised directory of the (single) model, e.g. a "
                        "quantize_int8.py variant under test")
    args = parser.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        clips = make_clips(tmp, CLIPS)
        for model_id in args.models:
            errors, total = check_model(model_id, clips, args.threads, args.int8_dir)
            ok &= errors / max(total, 1) <= WER_BOUND
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
