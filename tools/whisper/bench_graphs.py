#!/usr/bin/env python3
"""Speed of the converted graphs (Python onnxruntime) against ctranslate2 on the same features.

    bench_graphs.py [MODEL_ID ...] [--threads N] [--runs N]

For each model: median wall time of the encoder, and of greedy decoding of one clip (same prompt,
same number of steps: ctranslate2 greedy vs the ORT KV-cache loop), and the ORT/ct2 ratios.
This measures the graphs, not the Swift pipeline (whose benchmark compares `warble transcribe`
with faster-whisper end to end).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time


import numpy as np

from tools.whisper.check_parity import model_paths, prompt_for, window_features
from tools.whisper.clips import CLIPS, make_clips, read_wav
from tools.whisper.ort_whisper import OrtWhisper


def paired_medians(a, b, runs: int) -> tuple[float, float]:
    """Median wall times of a and b, run alternately so that both see the same machine load."""
    a(), b()  # warm-up
    ta, tb = [], []
    for _ in range(runs):
        for fn, times in ((a, ta), (b, tb)):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return statistics.median(ta), statistics.median(tb)


def bench(model_id: str, audio: np.ndarray, threads: int, runs: int) -> None:
    import ctranslate2
    from faster_whisper import WhisperModel

    onnx_dir, ct2_dir = model_paths(model_id)
    ours = OrtWhisper(onnx_dir, threads)
    fw = WhisperModel(ct2_dir, device="cpu", compute_type="float32", cpu_threads=threads)
    mel = window_features(fw, audio)
    view = ctranslate2.StorageView.from_array(mel[None])
    prompt = prompt_for(ours.config, "en", "transcribe")
    suppress = ours.config["suppress_ids"]
    encoded = ours.encode(mel)
    ref_enc = fw.model.encode(view, to_cpu=True)
    steps = len(ours.greedy(encoded, prompt)[0]) + 1

    enc_ort, enc_ct2 = paired_medians(lambda: ours.encode(mel), lambda: fw.model.encode(view, to_cpu=True), runs)
    dec_ort, dec_ct2 = paired_medians(
        lambda: ours.greedy(encoded, prompt),
        lambda: fw.model.generate(ref_enc, [prompt], beam_size=1, suppress_blank=True, suppress_tokens=suppress,
                                  max_length=448),
        runs)
    print(f"{model_id:<16} threads {threads}: encoder ORT {enc_ort * 1e3:7.1f} ms, ct2 {enc_ct2 * 1e3:7.1f} ms, "
          f"ratio {enc_ort / enc_ct2:.2f} | greedy {steps} steps ORT {dec_ort * 1e3:7.1f} ms, "
          f"ct2 {dec_ct2 * 1e3:7.1f} ms, ratio {dec_ort / dec_ct2:.2f} "
          f"({dec_ort / steps * 1e3:.2f} vs {dec_ct2 / steps * 1e3:.2f} ms/step)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", default=["whisper-tiny.en", "whisper-base"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        clip = make_clips(tmp, [c for c in CLIPS if c[0] == "en_weather"])[0]
        audio = read_wav(clip["path"])
    for model_id in args.models:
        bench(model_id, audio, args.threads, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
